"""One process, concurrent requests: no request ever reads another's event or route state."""

from __future__ import annotations

import json
import threading
from typing import Any

from agent_memory.http import authenticated_subject, build_resolver
from agent_memory_tools.local.events import LocalLambdaContext, http_api_event


def test_concurrent_requests_on_one_resolver_keep_their_own_identity() -> None:
    # GIVEN one resolver whose route reads the identity, waits for the other request to be
    # inside the route too, then reads identity and path parameter again
    app = build_resolver()
    both_inside = threading.Barrier(2, timeout=5)

    @app.get("/who/<name>")
    def who(name: str) -> dict[str, Any]:
        first = authenticated_subject(app)
        both_inside.wait()
        return {"first": first, "second": authenticated_subject(app), "name": name}

    results: dict[str, Any] = {}

    def call(user: str) -> None:
        event = http_api_event("GET", f"/who/{user}", authorizer_context={"sub": user})
        event["routeKey"] = "GET /who/{name}"
        results[user] = app.resolve(event, LocalLambdaContext(function_name="test"))

    # WHEN alice and bob are served at the same time on two threads
    threads = [threading.Thread(target=call, args=(user,)) for user in ("alice", "bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # THEN each saw only itself, before and after the other request started
    for user in ("alice", "bob"):
        assert json.loads(results[user]["body"]) == {"first": user, "second": user, "name": user}
