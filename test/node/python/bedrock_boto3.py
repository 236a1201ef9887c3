"""boto3 against mockllm's Bedrock surface: converse, converse_stream, invoke_model_with_response_stream.

Usage: python3 bedrock_boto3.py <endpoint_url>. Prints one JSON line with what each call returned.
Fake static credentials: mockllm checks that a SigV4 Authorization header is present, never the signature.
"""
import base64
import json
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import EventStreamError

endpoint = sys.argv[1]
client = boto3.client(
    "bedrock-runtime",
    region_name="us-east-1",
    endpoint_url=endpoint,
    aws_access_key_id="AKIDMOCKLLMEXAMPLE",
    aws_secret_access_key="mockllm-fake-secret",
    config=Config(retries={"mode": "standard", "max_attempts": 3}),
)
MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0"
user = lambda text: [{"role": "user", "content": [{"text": text}]}]

out = {}
r = client.converse(modelId=MODEL, messages=user("hello"))
out["converse"] = {"content": r["output"]["message"]["content"], "stopReason": r["stopReason"], "usage": r["usage"]}

events = []
text = ""
for e in client.converse_stream(modelId=MODEL, messages=user("stream please"))["stream"]:
    name = next(iter(e))
    events.append(name)
    text += e.get("contentBlockDelta", {}).get("delta", {}).get("text", "")
out["converse_stream"] = {"events": events, "text": text}

r = client.converse(modelId=MODEL, messages=user("flaky"))
out["retried"] = {"content": r["output"]["message"]["content"], "attempts": r["ResponseMetadata"]["RetryAttempts"]}

body = json.dumps({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 64, "messages": [{"role": "user", "content": "stream please"}]})
types = []
for e in client.invoke_model_with_response_stream(modelId=MODEL, body=body)["body"]:
    types.append(json.loads(e["chunk"]["bytes"])["type"])
out["invoke_stream"] = types

try:
    for e in client.converse_stream(modelId=MODEL, messages=user("cut"))["stream"]:
        pass
    out["cut"] = None
except EventStreamError as err:
    # botocore raises mid-stream exception frames as EventStreamError, the code as the frame's :exception-type.
    out["cut"] = {"code": err.response["Error"]["Code"], "message": err.response["Error"]["Message"]}

print(json.dumps(out))
