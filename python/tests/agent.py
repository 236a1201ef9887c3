"""A small agent, the way a CLI under test is built: it reads OPENAI_BASE_URL and OPENAI_API_KEY from its
environment, runs a tool loop over Chat Completions (retrying 429s and 5xx as the SDK does), prints the answer.

Usage: python agent.py "What's the weather in Paris?"
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Current weather in a city",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def get_weather(city: str) -> str:
    return f"22C, sunny in {city}"


def complete(messages):
    url = os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions"
    body = json.dumps({"model": os.environ.get("AGENT_MODEL", "gpt-4o-mini"), "messages": messages, "tools": TOOLS}).encode()
    for attempt in range(3):
        req = urllib.request.Request(url, data=body, headers={
            "authorization": f"Bearer {os.environ['OPENAI_API_KEY']}", "content-type": "application/json",
            "x-stainless-retry-count": str(attempt)})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                return json.load(res)["choices"][0]["message"]
        except urllib.error.HTTPError as err:
            if attempt == 2 or not (err.code == 429 or err.code >= 500):
                raise SystemExit(f"agent: {err.code} {err.read().decode()}")
            time.sleep(float(err.headers.get("retry-after-ms", "500")) / 1000)


def main() -> None:
    messages = [{"role": "system", "content": "You are a weather bot."}, {"role": "user", "content": sys.argv[1]}]
    for _ in range(5):
        message = complete(messages)
        messages.append(message)
        calls = message.get("tool_calls") or []
        if not calls:
            print(message["content"])
            return
        for call in calls:
            args = json.loads(call["function"]["arguments"])
            print(f"tool: {call['function']['name']}({args})", file=sys.stderr)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": get_weather(**args)})
    raise SystemExit("agent: no answer after 5 turns")


if __name__ == "__main__":
    main()
