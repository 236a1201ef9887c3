"""The official Python MCP client (`mcp` package) against a mockllm session's MCP server.

Usage: python mcp_client.py URL MODE   (MODE: auto | legacy). Prints one JSON line per step; test/compat/mcp-python.test.ts
runs it and checks the lines.
"""
import asyncio
import json
import sys

from mcp import Client
from mcp.shared.exceptions import MCPError


def out(**kw):
    print(json.dumps(kw), flush=True)


async def main(url: str, mode: str) -> None:
    async with Client(url, mode=mode) as c:
        out(step="tools", names=[t.name for t in (await c.list_tools()).tools])
        for _ in range(2):
            try:
                r = await c.call_tool("get_weather", {"city": "Paris"})
                out(step="call", is_error=bool(r.is_error), text=[x.text for x in r.content])
            except MCPError as e:
                out(step="call", error=e.error.code, message=e.error.message)
        r = await c.call_tool("get_weather", {"city": "Rome"})
        out(step="rome", is_error=bool(r.is_error), text=[x.text for x in r.content])
        p = await c.get_prompt("ask-weather", {"city": "Oslo"})
        out(step="prompt", text=p.messages[0].content.text)
        res = await c.read_resource("file:///forecast.md")
        out(step="resource", text=res.contents[0].text)


asyncio.run(main(sys.argv[1], sys.argv[2]))
