"""Test support for the auth functional tests: the authorizer module as Lambda loads it."""

from __future__ import annotations

import copy
import io
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[3]
AUTHORIZER_APP = REPO_ROOT / "functions" / "authorizer" / "app.py"
AUTHORIZER_EVENT = REPO_ROOT / "events" / "authorizer_request.json"
PLACEHOLDER = "REPLACE_WITH_A_TOKEN"


@dataclass(frozen=True)
class FakeLambdaContext:
    function_name: str = "authorizer"
    memory_limit_in_mb: int = 256
    invoked_function_arn: str = "arn:aws:lambda:eu-west-1:123456789012:function:authorizer"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))


@dataclass
class Authorizer:
    """The authorizer module as Lambda would load it, plus its captured log output."""

    module: ModuleType
    log: io.StringIO

    def event(self, authorization: str | None) -> dict[str, Any]:
        event: dict[str, Any] = copy.deepcopy(json.loads(AUTHORIZER_EVENT.read_text()))
        if authorization is None:
            del event["headers"]["authorization"]
            event["identitySource"] = []
        else:
            event["headers"]["authorization"] = authorization
            event["identitySource"] = [authorization]
        return event

    def invoke(self, authorization: str | None) -> dict[str, Any]:
        result: dict[str, Any] = self.module.lambda_handler(
            self.event(authorization), FakeLambdaContext()
        )
        return result

    def logs(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log.getvalue().splitlines() if line.strip()]
