"""The memory tool with a batch reviewer (the optional guardrail): a refused call stages
nothing and tells the model the code, never the content."""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.domain import MemoryToolSession, Snapshot

CALL = {"operations": [{"target": "memory", "action": "add", "content": "  User likes tea. "}]}


def test_a_passing_review_stages_the_call_and_sees_only_the_new_texts() -> None:
    seen: list[tuple[str, ...]] = []

    def review(texts: Sequence[str]) -> str | None:
        seen.append(tuple(texts))
        return None

    session = MemoryToolSession(Snapshot(memory=("Old fact.",)), writes_enabled=True)
    result = session.call(CALL, review=review)
    assert result.ok
    assert seen == [("User likes tea.",)]
    assert session.snapshot.memory == ("Old fact.", "User likes tea.")


def test_a_blocked_batch_stages_nothing() -> None:
    session = MemoryToolSession(Snapshot(), writes_enabled=True)
    result = session.call(CALL, review=lambda texts: "guardrail_blocked")
    assert not result.ok
    assert result.error_code == "guardrail_blocked"
    assert session.staged_operations == ()
    assert "tea" not in result.result["error"]["message"]


def test_an_unavailable_guardrail_rejects_the_write_not_the_turn() -> None:
    # GIVEN a guardrail that cannot answer
    session = MemoryToolSession(Snapshot(), writes_enabled=True)

    # WHEN the model saves / THEN the call fails with its code, nothing is staged, and the
    # session still answers later calls (the turn goes on)
    result = session.call(CALL, review=lambda texts: "guardrail_unavailable")
    assert result.error_code == "guardrail_unavailable"
    assert session.staged_operations == ()
    later = session.call(CALL, review=lambda texts: None)
    assert later.ok


def test_a_remove_needs_no_review() -> None:
    def refuse(texts: Sequence[str]) -> str | None:
        raise AssertionError("a remove writes no text")

    session = MemoryToolSession(Snapshot(memory=("Old fact.",)), writes_enabled=True)
    removal = {"operations": [{"target": "memory", "action": "remove", "match": "Old"}]}
    assert session.call(removal, review=refuse).ok
