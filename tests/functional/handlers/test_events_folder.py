"""Every simulated event in events/ is accepted by the function it is for.

The same files serve `sam local invoke -e events/<file>` for users with Docker, so a
handler change that breaks them must fail here first.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from handler_support import Api

from agent_memory_tools.local.events import LocalLambdaContext
from agent_memory_tools.local.functions import handler, project_root

EVENTS = project_root() / "events"
FUNCTION_OF = {
    "chat_remember.json": "chat",
    "chat_read_only.json": "chat",
    "memory_get.json": "memory_api",
    "memory_patch.json": "memory_api",
    "memory_delete.json": "memory_api",
    "turn_cancel.json": "memory_api",
    "turn_get.json": "memory_api",
    "eval_chat.json": "eval",
    "cleanup_scheduled.json": "cleanup",
}


def test_every_event_file_is_covered() -> None:
    assert {path.name for path in EVENTS.glob("*.json")} == {
        *FUNCTION_OF,
        "authorizer_request.json",
    }


@pytest.mark.parametrize("name", sorted(FUNCTION_OF))
def test_the_event_is_handled(api: Api, name: str) -> None:
    event: dict[str, Any] = json.loads((EVENTS / name).read_text())
    function = FUNCTION_OF[name]

    result = handler(function)(event, LocalLambdaContext(function_name=function))

    if function == "cleanup":
        assert result == {"expired": 0}
    elif name == "turn_get.json":
        # Fresh tables: the turn staged nothing, so there is nothing to tell.
        assert result["statusCode"] == 404, result
        assert json.loads(result["body"])["error"]["code"] == "turn_not_found"
    else:
        assert 200 <= result["statusCode"] < 300, result
