"""A client generated from docs/openapi.json with openapi-python-client drives the local
stack through a whole flow (chat, a replayed retry, the turn's status, get, patch, a typed
422, cancel, delete): the document is one a mobile or web team can generate from."""

from __future__ import annotations

import importlib
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from stack_support import RunningStack

from agent_memory_tools.local.functions import project_root

pytestmark = pytest.mark.slow

PACKAGE = "agent_memory_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The client generated into a temporary folder and importable as ``PACKAGE``."""
    folder = tmp_path_factory.mktemp("generated-client")
    config = folder / "config.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n")
    generated = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(project_root() / "docs" / "openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(folder / PACKAGE),
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # THEN (for every test here) the generator accepts the document without a warning
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "Warning" not in generated.stdout + generated.stderr, generated.stdout
    sys.path.insert(0, str(folder))
    try:
        yield PACKAGE
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def _module(package: str, name: str) -> ModuleType:
    return importlib.import_module(f"{package}.{name}")


def _client(package: str, stack: RunningStack, token: str) -> Any:
    return _module(package, "client").AuthenticatedClient(
        base_url=stack.url, token=token, raise_on_unexpected_status=True, timeout=30.0
    )


def test_a_generated_client_chats_reads_edits_cancels_and_forgets(
    stack: RunningStack, alice: str, client_package: str
) -> None:
    # GIVEN a client generated from the checked-in OpenAPI document, signed in as a new user
    models = _module(client_package, "models")
    chat = _module(client_package, "api.chat.chat")
    get_memory = _module(client_package, "api.memory.get_memory")
    patch_memory = _module(client_package, "api.memory.patch_memory")
    delete_memory = _module(client_package, "api.memory.delete_memory")
    cancel_turn = _module(client_package, "api.turns.cancel_turn")
    get_turn = _module(client_package, "api.turns.get_turn")
    client = _client(client_package, stack, alice)

    # WHEN it chats a fact into memory (typed request, typed answer), then retries the same
    # turn as a phone does after losing the answer
    request = models.ChatRequest(message="remember: Prefers tea")
    first_key = str(uuid.uuid4())  # see the uuid header note below
    answer = chat.sync(client=client, body=request, idempotency_key=first_key)
    retried = chat.sync_detailed(client=client, body=request, idempotency_key=first_key)
    # THEN the answer is a ChatResponse whose status is the enum, the retry replays it, and
    # the turn's status can be asked for by its id
    assert isinstance(answer, models.ChatResponse), answer
    assert answer.memory.status == models.MemoryOutcomeBodyStatus.COMMITTED
    assert retried.headers.get("Idempotent-Replayed") == "true"
    assert isinstance(retried.parsed, models.ChatResponse)
    assert retried.parsed.turn_id == answer.turn_id == first_key
    turn = get_turn.sync(client=client, turn_id=answer.turn_id)
    assert isinstance(turn, models.TurnStatusResponse), turn
    assert turn.status == models.TurnStatusResponseStatus.COMMITTED

    # WHEN it reads memory and replaces the entry (one typed operation per action)
    documents = get_memory.sync(client=client)
    assert isinstance(documents, models.MemoryDocumentsResponse), documents
    assert documents.memory.entries == ["Prefers tea"]
    edited = patch_memory.sync(
        client=client,
        body=models.PatchMemoryRequest(
            operations=[
                models.ReplaceOperation(
                    target=models.ReplaceOperationTarget.MEMORY,
                    action="replace",
                    match="tea",
                    content="Prefers green tea",
                )
            ]
        ),
    )
    # THEN the edit answers with the new documents
    assert isinstance(edited, models.MemoryDocumentsResponse), edited
    assert edited.memory.entries == ["Prefers green tea"]

    # WHEN an edit breaks a memory rule (removing what is not there)
    rejected = patch_memory.sync_detailed(
        client=client,
        body=models.PatchMemoryRequest(
            operations=[
                models.RemoveOperation(
                    target=models.RemoveOperationTarget.MEMORY, action="remove", match="coffee"
                )
            ]
        ),
    )
    # THEN it is a typed 422 whose code is a member of the generated ErrorCode enum
    assert rejected.status_code == 422
    assert isinstance(rejected.parsed, models.ErrorResponse), rejected.content
    assert rejected.parsed.error.code == models.ErrorCode.NO_MATCH

    # WHEN a slow turn is cancelled by its Idempotency-Key while it runs
    turn_id = uuid.uuid4()
    slow: list[Any] = []
    worker = threading.Thread(
        target=lambda: slow.append(
            chat.sync(
                client=client,
                body=models.ChatRequest(message="remember: Never saved\nsimulate: sleep 2"),
                # openapi-python-client 0.29 types the uuid header as UUID but hands it to
                # httpx unconverted (a generator bug): pass its text.
                idempotency_key=str(turn_id),
            )
        )
    )
    worker.start()
    time.sleep(0.5)
    cancelled = cancel_turn.sync(client=client, turn_id=turn_id)
    worker.join(timeout=30)
    # THEN the cancel and the turn both say cancelled
    assert isinstance(cancelled, models.CancelResponse), cancelled
    assert cancelled.status == models.CancelResponseStatus.CANCELLED
    (cancelled_turn,) = slow
    assert cancelled_turn.memory.status == models.MemoryOutcomeBodyStatus.CANCELLED

    # WHEN it forgets everything (a 204: nothing to parse)
    forgotten = delete_memory.sync_detailed(client=client)
    # THEN the 204 parses, and memory is empty afterwards
    assert forgotten.status_code == 204
    assert forgotten.content == b""
    after = get_memory.sync(client=client)
    assert after.memory.entries == []
    assert after.user.entries == []


def test_the_authorizers_refusals_parse_as_api_gateway_sends_them(
    stack: RunningStack, client_package: str
) -> None:
    # GIVEN the generated client without a token, and with a token the issuer never signed
    models = _module(client_package, "models")
    get_memory = _module(client_package, "api.memory.get_memory")
    anonymous = _module(client_package, "client").Client(base_url=stack.url)
    forged = _client(client_package, stack, "not.a.jwt")

    # WHEN each reads memory
    missing = get_memory.sync_detailed(client=anonymous)
    refused = get_memory.sync_detailed(client=forged)

    # THEN they get API Gateway's own bodies, typed as the document says
    assert missing.status_code == 401
    assert isinstance(missing.parsed, models.GatewayMessage)
    assert missing.parsed.message == "Unauthorized"
    assert refused.status_code == 403
    assert isinstance(refused.parsed, models.GatewayMessage)
    assert refused.parsed.message == "Forbidden"
