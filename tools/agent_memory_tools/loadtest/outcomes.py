"""What an answer says about a turn's memory: committed, not committed, or unknown.

Only the API's own words count. A 200 carries ``memory.status``; a 4xx means the turn was
refused or stopped before anything was saved; a 5xx whose code says nothing was saved
(the model failed, the turn ran out of time) is not committed; anything else (no answer, a
500, a gateway's 503 or 504) leaves the outcome unknown, and the checker then accepts either
state, as long as the turn applied all of its batch or none of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent_memory_tools.loadtest.record import Outcome
from agent_memory_tools.loadtest.targets.api import ApiAnswer

NOTHING_SAVED_CODES = frozenset(
    {"model_error", "model_loop_limit", "turn_timeout", "turn_cancelled"}
)


@dataclass(frozen=True)
class Classified:
    status: str  # memory.status, or "<http status> <error code>", or "no answer"
    outcome: Outcome
    reason: str | None = None
    error_code: str | None = None


def classify(answer: ApiAnswer) -> Classified:
    if answer.status == 0:
        return Classified("no answer", "unknown", error_code=answer.error)
    body = answer.body
    memory = body.get("memory") if isinstance(body, dict) else None
    if answer.status == 200 and isinstance(memory, dict) and "status" in memory:
        status = str(memory["status"])
        reason = memory.get("reason")
        return Classified(
            status,
            "committed" if status == "committed" else "not_committed",
            reason=str(reason) if reason is not None else None,
        )
    code = answer.error_code
    label = f"{answer.status} {code or 'no error code'}"
    if 400 <= answer.status < 500 or code in NOTHING_SAVED_CODES:
        return Classified(label, "not_committed", error_code=code)
    return Classified(label, "unknown", error_code=code)


# What a user-control request that succeeded did, by turn kind.
_DONE = {"undo": "undone", "approve": "approved", "reject": "rejected"}


def classify_control(answer: ApiAnswer, kind: str) -> Classified:
    """An undo, approve or reject: 200 (204 for a reject) did it; a 4xx changed nothing
    (409 conflict, 404 gone); no answer or a 5xx leaves it unknown."""
    if answer.status in (200, 204):
        return Classified(_DONE.get(kind, kind), "committed")
    if answer.status == 0:
        return Classified("no answer", "unknown", error_code=answer.error)
    code = answer.error_code
    label = f"{answer.status} {code or 'no error code'}"
    if 400 <= answer.status < 500:
        return Classified(label, "not_committed", error_code=code)
    return Classified(label, "unknown", error_code=code)


def memory_ids(answer: ApiAnswer) -> dict[str, str | None]:
    """The commit id (an undo can name it) and proposal id a chat answer carries."""
    body = answer.body if isinstance(answer.body, dict) else {}
    memory = body.get("memory")
    if not isinstance(memory, dict):
        memory = {}
    commit_id, proposal_id = memory.get("commit_id"), memory.get("proposal_id")
    return {
        "commit_id": str(commit_id) if commit_id else None,
        "proposal_id": str(proposal_id) if proposal_id else None,
    }


def cancel_answer(answer: ApiAnswer) -> str:
    """``cancelled`` / ``expired`` (200), ``already_committed`` (409), or what else came back."""
    if answer.status == 0:
        return "no answer"
    if answer.status == 200 and isinstance(answer.body, dict):
        return str(answer.body.get("status", "200"))
    return answer.error_code or f"http {answer.status}"
