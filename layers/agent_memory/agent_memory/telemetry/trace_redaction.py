"""What leaves the process for X-Ray: the shape of the work, never its content.

The X-Ray SDK writes an exception's message (``str(error)``) into an entity's ``cause``
wherever it records an exception:

- botocore's patcher (``aws_xray_sdk.ext.boto_utils._aws_error_handler``) calls
  ``add_exception`` for every failed AWS call that answered, e.g. a Bedrock
  ``ValidationException`` or a DynamoDB error whose message quotes the request;
- the SDK's subsegment context manager (which Powertools' ``capture_lambda_handler`` uses)
  records an exception that escapes the handler, whatever ``capture_error`` says: that flag
  only controls Powertools' extra copy in the metadata.

The patcher's ``aws`` block holds whitelisted parameters only (for DynamoDB: the table name,
``ConsistentRead``, consumed capacity, and ``ItemCollectionMetrics``, which would name the
partition key, i.e. the user id; nothing for ``TransactWriteItems`` or ``bedrock-runtime``).

So every entity is redacted on its way out, in the emitter: the one place every segment and
subsegment passes through. Messages, metadata and SQL are dropped; ``aws`` keeps the fields
of ``KEPT_AWS_FIELDS``; names, timings, annotations, HTTP status codes, fault flags,
exception types and stack frames (file, line, function) stay.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

KEPT_AWS_FIELDS = frozenset(
    {
        "operation",
        "region",
        "request_id",
        "id_2",
        "retries",
        "table_name",
        "table_names",
        "consistent_read",
        "consumed_capacity",
        "xray",
        "account_id",
        "function_arn",
    }
)
DROPPED_FIELDS = ("metadata", "sql")


class Emitter(Protocol):
    def send_entity(self, entity: Any) -> None: ...

    def set_daemon_address(self, address: str | None) -> None: ...


def redact_trace_entity(document: dict[str, Any]) -> dict[str, Any]:
    """Redact one serialized segment or subsegment and its nested subsegments, in place."""
    for name in DROPPED_FIELDS:
        document.pop(name, None)
    cause = document.get("cause")
    if isinstance(cause, dict):
        for exception in cause.get("exceptions") or ():
            if isinstance(exception, dict):
                exception.pop("message", None)
                exception.pop("cause", None)
    aws = document.get("aws")
    if isinstance(aws, dict):
        document["aws"] = {key: value for key, value in aws.items() if key in KEPT_AWS_FIELDS}
    for child in document.get("subsegments") or ():
        if isinstance(child, dict):
            redact_trace_entity(child)
    return document


class RedactedEntity:
    """What an emitter receives instead of the SDK's entity: its redacted serialization
    (and nothing else, so that no emitter can reach the original's attributes)."""

    __slots__ = ("_document",)

    def __init__(self, entity: Any) -> None:
        self._document = redact_trace_entity(json.loads(entity.serialize()))

    def serialize(self) -> str:
        return json.dumps(self._document)

    def to_dict(self) -> dict[str, Any]:
        return json.loads(self.serialize())  # type: ignore[no-any-return]


class RedactingEmitter:
    """Wraps the recorder's emitter (UDP to the daemon, in Lambda)."""

    def __init__(self, inner: Emitter) -> None:
        self.inner = inner

    def send_entity(self, entity: Any) -> None:
        self.inner.send_entity(RedactedEntity(entity))

    def set_daemon_address(self, address: str | None) -> None:
        self.inner.set_daemon_address(address)


def install_trace_redaction(recorder: Any) -> None:
    """Route the recorder's output through ``RedactingEmitter`` (idempotent).

    The property is set directly: ``recorder.configure(emitter=...)`` would also reload the
    sampler's settings.
    """
    if not isinstance(recorder.emitter, RedactingEmitter):
        recorder.emitter = RedactingEmitter(recorder.emitter)
