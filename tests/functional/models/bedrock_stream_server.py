"""A local bedrock-runtime endpoint that answers ConverseStream with REAL event-stream frames
(the binary ``application/vnd.amazon.eventstream`` encoding, CRCs included), so botocore's
own parser turns them into events. Stubber cannot feed events to ``converse_stream``."""

from __future__ import annotations

import base64
import binascii
import json
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3
from botocore.config import Config


def _header(name: str, value: str) -> bytes:
    raw_name, raw_value = name.encode(), value.encode()
    return (
        struct.pack("!B", len(raw_name))
        + raw_name
        + struct.pack("!BH", 7, len(raw_value))  # 7: string
        + raw_value
    )


def frame(headers: dict[str, str], payload: bytes) -> bytes:
    encoded = b"".join(_header(name, value) for name, value in headers.items())
    total = 12 + len(encoded) + len(payload) + 4
    prelude = struct.pack("!II", total, len(encoded))
    prelude += struct.pack("!I", binascii.crc32(prelude) & 0xFFFFFFFF)
    message = prelude + encoded + payload
    return message + struct.pack("!I", binascii.crc32(message) & 0xFFFFFFFF)


def event(event_type: str, body: dict[str, Any]) -> bytes:
    return frame(
        {
            ":message-type": "event",
            ":event-type": event_type,
            ":content-type": "application/json",
        },
        json.dumps(body, default=_blob).encode(),
    )


def exception(exception_type: str, message: str) -> bytes:
    return frame(
        {
            ":message-type": "exception",
            ":exception-type": exception_type,
            ":content-type": "application/json",
        },
        json.dumps({"message": message}).encode(),
    )


def _blob(value: Any) -> str:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    raise TypeError(type(value))


def frames_of(response: dict[str, Any], pieces: int = 3) -> list[bytes]:
    """The ConverseStream a Converse ``response`` would have been, as Bedrock sends it: text
    and tool input cut into ``pieces``, usage after ``messageStop``."""
    frames = [event("messageStart", {"role": "assistant"})]
    for index, block in enumerate(response["output"]["message"]["content"]):
        if "text" in block:  # text blocks have no start event
            for piece in _cut(block["text"], pieces):
                frames.append(
                    event(
                        "contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": piece}}
                    )
                )
        elif "toolUse" in block:
            tool = block["toolUse"]
            frames.append(
                event(
                    "contentBlockStart",
                    {
                        "contentBlockIndex": index,
                        "start": {
                            "toolUse": {"toolUseId": tool["toolUseId"], "name": tool["name"]}
                        },
                    },
                )
            )
            for piece in _cut(json.dumps(tool["input"]), pieces):
                frames.append(
                    event(
                        "contentBlockDelta",
                        {"contentBlockIndex": index, "delta": {"toolUse": {"input": piece}}},
                    )
                )
        elif "reasoningContent" in block:
            content = block["reasoningContent"]
            deltas: list[dict[str, Any]]
            if "redactedContent" in content:
                deltas = [{"redactedContent": content["redactedContent"]}]
            else:
                text = content["reasoningText"]
                deltas = [{"text": piece} for piece in _cut(text["text"], pieces)]
                if "signature" in text:
                    deltas.append({"signature": text["signature"]})
            for delta in deltas:
                frames.append(
                    event(
                        "contentBlockDelta",
                        {"contentBlockIndex": index, "delta": {"reasoningContent": delta}},
                    )
                )
        frames.append(event("contentBlockStop", {"contentBlockIndex": index}))
    frames.append(event("messageStop", {"stopReason": response["stopReason"]}))
    usage = response["usage"]
    frames.append(event("metadata", {"usage": usage, "metrics": {"latencyMs": 5}}))
    return frames


def _cut(text: str, pieces: int) -> list[str]:
    if not text:
        return [text]
    size = max(len(text) // max(pieces, 1), 1)
    return [text[i : i + size] for i in range(0, len(text), size)]


@dataclass
class StreamScript:
    frames: list[bytes]
    delay: float = 0.0
    """Seconds before each frame after the first."""
    status: int = 200
    body: bytes = b""
    complete: bool = True
    """False: the connection drops without the last chunk (a stream cut off)."""


@dataclass
class StreamServer:
    url: str = ""
    scripts: list[StreamScript] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def client(self, *, read_timeout: float = 5.0) -> Any:
        return boto3.session.Session().client(
            "bedrock-runtime",
            region_name="us-east-1",
            endpoint_url=self.url,
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            config=Config(
                read_timeout=read_timeout,
                connect_timeout=2,
                retries={"mode": "standard", "total_max_attempts": 1},
            ),
        )


@contextmanager
def stream_server() -> Iterator[StreamServer]:
    server = StreamServer()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # chunked, one chunk per frame, as AWS sends them

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            server.requests.append(
                {"path": self.path, "body": json.loads(self.rfile.read(length) or b"{}")}
            )
            script = server.scripts.pop(0)
            try:
                self.close_connection = True
                if script.status != 200:
                    self.send_response(script.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("x-amzn-ErrorType", "ThrottlingException")
                    self.send_header("Content-Length", str(len(script.body)))
                    self.end_headers()
                    self.wfile.write(script.body)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/vnd.amazon.eventstream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for number, data in enumerate(script.frames):
                    if number and script.delay:
                        time.sleep(script.delay)
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                if script.complete:
                    self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass  # the client went away

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True).start()
    server.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()
