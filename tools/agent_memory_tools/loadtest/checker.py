"""The correctness check, from the run's own record of what the API answered.

Why the oracle is exact although concurrent turns of one user commit in an order the load
test cannot observe: adds only add new, unique facts (their order does not matter); a
``replace`` or ``remove`` targets one fact whose own turn had already answered
``committed`` before it was sent, and no fact is ever targeted twice. So each fact's fate
depends on at most two turns, the one that added it and the one that targets it, whatever
order the others committed in. A turn with no known outcome allows either state, as long as
it applied all of its batch or none of it.

User control keeps it exact: an ``undo`` claims every fact of the one committed turn it
reverts, like a ``remove`` of each; in ``approve`` mode a fact is present only if the one
turn that decided its proposal approved it and answered so (``approved``), absent if that
turn rejected it, its approval was refused, or nobody decided it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from agent_memory.domain import DELIMITER, LIMITS
from agent_memory_tools.loadtest.facts import fact_ids_in
from agent_memory_tools.loadtest.record import Fact, RunRecord, TurnRecord
from agent_memory_tools.loadtest.runner import STORES, DocumentsRead

MAX_LISTED = 20
WRITE_KINDS = frozenset({"add", "replace", "remove"})

Expected = Literal["present", "absent", "either"]


@dataclass
class Check:
    name: str
    description: str
    violations: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.violations

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "description": self.description,
            "passed": self.passed,
            "violation_count": len(self.violations),
            "violations": self.violations[:MAX_LISTED],
        }


@dataclass(frozen=True)
class Expectation:
    state: Expected
    why: str


def expectation(fact: Fact, record: RunRecord) -> Expectation:
    adder = record.turns[fact.added_by]
    if adder.status == "proposed":
        return _proposal_expectation(fact, adder, record)
    if adder.outcome == "not_committed":
        return Expectation("absent", f"its turn {_turn(adder)} answered {adder.status}")
    if adder.outcome != "committed":
        return Expectation("either", f"its turn {_turn(adder)} has no known outcome")
    claim = record.turns[fact.claimed_by] if fact.claimed_by else None
    if claim is None or claim.outcome == "not_committed":
        return Expectation("present", f"committed by turn {_turn(adder)}")
    if claim.outcome == "committed":
        done = {"replace": "replaced", "undo": "undid"}.get(claim.kind, "removed")
        return Expectation("absent", f"turn {_turn(claim)} committed and {done} it")
    return Expectation("either", f"turn {_turn(claim)}, which targets it, has no known outcome")


def _proposal_expectation(fact: Fact, proposer: TurnRecord, record: RunRecord) -> Expectation:
    if fact.decided_by is None:
        return Expectation("absent", f"turn {_turn(proposer)} proposed it; nobody approved it")
    decider = record.turns[fact.decided_by]
    if decider.kind == "reject":
        return Expectation("absent", f"turn {_turn(decider)} rejected its proposal")
    if decider.outcome == "committed":
        return Expectation("present", f"turn {_turn(decider)} approved its proposal")
    if decider.outcome == "not_committed":
        return Expectation("absent", f"the approval {_turn(decider)} answered {decider.status}")
    return Expectation("either", f"the approval {_turn(decider)} has no known outcome")


def check_run(record: RunRecord, final: Mapping[int, DocumentsRead]) -> list[Check]:
    found = _occurrences(final)
    return [
        _readable(final),
        _committed_present_once(record, found),
        _nothing_uncommitted(record, found),
        _no_foreign_entries(record, final),
        _within_limits(final),
        _all_or_nothing(record, found),
        _contract(record),
        _load_ran(record),
    ]


# -- the checks ------------------------------------------------------------------------------


def _readable(final: Mapping[int, DocumentsRead]) -> Check:
    check = Check("documents_readable", "every user's documents could be read at the end")
    for user, read in sorted(final.items()):
        if read.documents is None:
            check.violations.append(f"u{user}: GET /memory failed: {read.error}")
    return check


def _committed_present_once(record: RunRecord, found: _Found) -> Check:
    check = Check(
        "committed_facts_present_once",
        "every fact of a committed turn (or an approved proposal) is present exactly once,"
        " in its store, unless a later committed turn replaced, removed or undid it",
    )
    for fact in record.facts.values():
        expected = expectation(fact, record)
        if expected.state == "absent" or fact.user not in found:
            continue  # unreadable documents are their own violation
        places = found[fact.user].get(fact.fid, [])
        if expected.state == "present" and not places:
            check.violations.append(f"u{fact.user}: {fact.fid} is missing ({expected.why})")
        elif len(places) > 1:
            check.violations.append(
                f"u{fact.user}: {fact.fid} appears {len(places)} times ({expected.why})"
            )
        elif places and places[0] != fact.target:
            check.violations.append(
                f"u{fact.user}: {fact.fid} is in `{places[0]}`, it was written to `{fact.target}`"
            )
    return check


def _nothing_uncommitted(record: RunRecord, found: _Found) -> Check:
    check = Check(
        "nothing_from_uncommitted_turns",
        "no fact of a turn that did not commit is present, nor a fact a committed turn"
        " replaced, removed or undid, nor a proposal that was rejected or never approved",
    )
    for fact in record.facts.values():
        expected = expectation(fact, record)
        if expected.state == "absent" and found.get(fact.user, {}).get(fact.fid):
            check.violations.append(f"u{fact.user}: {fact.fid} is present although {expected.why}")
    return check


def _no_foreign_entries(record: RunRecord, final: Mapping[int, DocumentsRead]) -> Check:
    check = Check(
        "no_foreign_entries",
        "no user's documents hold another user's facts, or entries this run did not write",
    )
    for user, read in sorted(final.items()):
        if read.documents is None:
            continue
        baseline = record.baseline.get(user, {})
        for target in STORES:
            for entry in read.documents.entries[target]:
                refs = [ref for ref in fact_ids_in(entry) if ref.run == record.run_id]
                if not refs:
                    if entry not in baseline.get(target, []):
                        check.violations.append(
                            f"u{user}: `{target}` holds an entry this run did not write:"
                            f" {entry[:60]!r}"
                        )
                    continue
                for ref in refs:
                    if ref.user != user:
                        check.violations.append(
                            f"u{user}: `{target}` holds {ref.text}, a fact of user u{ref.user}"
                        )
                    elif ref.text not in record.facts:
                        check.violations.append(
                            f"u{user}: `{target}` holds {ref.text}, which no turn wrote"
                        )
    return check


def _within_limits(final: Mapping[int, DocumentsRead]) -> Check:
    check = Check(
        "within_limits",
        f"every document is within its limit (user {LIMITS['user']}, memory"
        f" {LIMITS['memory']} characters) and reports its true size",
    )
    for user, read in sorted(final.items()):
        if read.documents is None:
            continue
        for target in STORES:
            size = len(DELIMITER.join(read.documents.entries[target]))
            if size > LIMITS[target]:
                check.violations.append(
                    f"u{user}: `{target}` holds {size} characters, over its limit {LIMITS[target]}"
                )
            if read.documents.chars[target] != size:
                check.violations.append(
                    f"u{user}: `{target}` reports {read.documents.chars[target]} characters,"
                    f" its entries make {size}"
                )
            if read.documents.limits[target] != LIMITS[target]:
                check.violations.append(
                    f"u{user}: `{target}` reports the limit {read.documents.limits[target]}"
                )
    return check


def _all_or_nothing(record: RunRecord, found: _Found) -> Check:
    check = Check(
        "unknown_turns_all_or_nothing",
        "a turn without a known outcome applied its whole batch or none of it",
    )
    for turn in record.turns.values():
        if turn.outcome not in ("unknown", "pending") or turn.user not in found:
            continue
        applied = [bool(found.get(turn.user, {}).get(fid)) for fid in turn.adds + turn.approves]
        applied += [not found.get(turn.user, {}).get(fid) for fid in turn.claims]
        if len(set(applied)) > 1:
            check.violations.append(
                f"u{turn.user}: turn {_turn(turn)} applied part of its batch"
                f" (adds {turn.adds}, targets {turn.claims})"
            )
    return check


def _contract(record: RunRecord) -> Check:
    check = Check(
        "answers_match_the_contract",
        "read-only, invalid and failing turns never commit; an acknowledged cancel means the"
        " turn did not commit, a 409 already_committed that it did; an approve-mode user's"
        " chat turns propose and never commit, an auto user's never propose; no chat turn"
        " answers `conflict` (the scenario never makes one legitimate: adds are unique and"
        " fit, and a replace or remove targets a committed fact no other turn targets)",
    )
    for turn in sorted(record.turns.values(), key=lambda t: (t.user, t.turn)):
        committed = turn.outcome == "committed"
        approving = turn.user in record.approve_mode
        if turn.request is None and turn.status == "conflict":
            check.violations.append(
                f"u{turn.user}: {turn.kind} turn {_turn(turn)} answered conflict"
                f" ({turn.reason}): a replay that should have applied did not"
            )
        if turn.request is None and approving and committed:
            check.violations.append(f"u{turn.user}: approve-mode turn {_turn(turn)} committed")
        if turn.status == "proposed" and not approving:
            check.violations.append(f"u{turn.user}: auto-mode turn {_turn(turn)} proposed")
        if turn.kind in ("read", "invalid", "fail", "disconnect") and committed:
            check.violations.append(f"u{turn.user}: {turn.kind} turn {_turn(turn)} committed")
        if turn.deltas_match is False:
            check.violations.append(
                f"u{turn.user}: the deltas of streamed turn {_turn(turn)} are not its reply"
            )
        if turn.kind == "cancel":
            if turn.cancel_answer in ("cancelled", "expired") and committed:
                check.violations.append(
                    f"u{turn.user}: turn {_turn(turn)} committed after its cancel was"
                    f" acknowledged ({turn.cancel_answer})"
                )
            if turn.cancel_answer == "already_committed" and turn.outcome == "not_committed":
                check.violations.append(
                    f"u{turn.user}: the cancel of turn {_turn(turn)} answered"
                    f" already_committed, the turn answered {turn.status}"
                )
    return check


def _load_ran(record: RunRecord) -> Check:
    check = Check(
        "load_was_served",
        "no token was refused, the load test itself raised nothing, and writing turns did"
        " commit (memory on, the rules model)",
    )
    turns = list(record.turns.values())
    refused = [t for t in turns if t.http_status in (401, 403)]
    if refused:
        check.violations.append(f"{len(refused)} turns were refused (401/403): check the tokens")
    for turn in turns:
        if turn.status == "harness error":
            check.violations.append(f"turn {_turn(turn)}: the load test raised {turn.error_code}")
    # An approve-mode user's writes propose; the others' must commit.
    writes = [t for t in turns if t.kind in WRITE_KINDS and t.user not in record.approve_mode]
    if writes and not any(t.outcome == "committed" for t in writes):
        statuses = sorted({str(t.status) for t in writes})
        check.violations.append(
            f"none of {len(writes)} writing turns committed (they answered"
            f" {', '.join(statuses)}): is memory enabled, with the `rules` model?"
        )
    return check


def check_logs(run_id: str, paths: Sequence[Path]) -> Check:
    """No log line of the workers holds one of the run's traceable fact ids (every fact's
    content carries its id, so content that leaks into logs, metrics or traces shows)."""
    check = Check(
        "no_content_in_logs",
        "the handlers' logs and metrics (what CloudWatch would hold) contain no fact id of"
        " this run, and they were captured",
    )
    records = 0
    for path in paths:
        with path.open(encoding="utf-8", errors="replace") as log:
            for number, line in enumerate(log, start=1):
                records += 1
                leaked = [ref.text for ref in fact_ids_in(line) if ref.run == run_id]
                if leaked:
                    check.violations.append(
                        f"{path.name}:{number} holds {', '.join(sorted(set(leaked)))}"
                    )
    if not records:
        check.violations.append("no worker log was captured: nothing could be searched")
    return check


# -- helpers -----------------------------------------------------------------------------------

_Found = dict[int, dict[str, list[str]]]


def _occurrences(final: Mapping[int, DocumentsRead]) -> _Found:
    """user -> fact id -> the store of each entry that holds it."""
    found: _Found = {}
    for user, read in final.items():
        if read.documents is None:
            continue
        places: dict[str, list[str]] = defaultdict(list)
        for target in STORES:
            for entry in read.documents.entries[target]:
                for ref in fact_ids_in(entry):
                    places[ref.text].append(target)
        found[user] = dict(places)
    return found


def _turn(turn: TurnRecord) -> str:
    return f"{turn.key} ({turn.kind})"
