"""The capacity model: measured units per turn from a report, costs that follow the named
prices, transactional writes counted double."""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory_tools.loadtest.capacity import (
    Assumptions,
    Prices,
    estimate,
    profile_from_report,
    render,
    with_overrides,
)


def _turn(kind: str, status: str, requests: dict[str, int], **extra: Any) -> dict[str, Any]:
    outcome = "committed" if status == "committed" else "not_committed"
    return {
        "kind": kind,
        "status": status,
        "outcome": outcome,
        "requests": requests,
        "finished": 1.0,
        "latency_ms": 100.0,
        "sleep_seconds": 0.0,
        **extra,
    }


REPORT: dict[str, Any] = {
    "run_id": "ltcap",
    "turns": [
        _turn("read", "unchanged", {"Query": 1}),
        _turn(
            "add",
            "committed",
            {"Query": 1, "PutItem": 1, "TransactWriteItems": 1},
            operations=[{"target": "memory", "action": "add", "content": "x"}],
        ),
    ],
    "final_documents": {"0": {"entries": {"user": [], "memory": ["A fact."]}}},
}


def test_a_committed_turn_counts_its_transaction_double() -> None:
    # GIVEN a report of one read-only turn and one committed turn writing one small document
    profile = profile_from_report(REPORT)

    # THEN per turn: requests are means over both turns, and the commit's writes count
    # double (document 2 + ledger 2 + the forget fence 2 + history 2) beside the ledger open (1) and
    # the index (2)
    assert profile.requests == {"Query": 1.0, "PutItem": 0.5, "TransactWriteItems": 0.5}
    assert profile.documents_per_transaction == 1.0
    assert profile.committed_share == 0.5
    assert profile.read_only_share == 0.5
    assert profile.wru == pytest.approx(0.5 * (1 + 1) + 0.5 * (2 + 2 + 2 + 2 + 1))
    assert profile.rru == 1.0


def test_costs_follow_the_named_prices_and_the_volume() -> None:
    # GIVEN the profile and a doubled DynamoDB write price
    profile = profile_from_report(REPORT)
    prices = with_overrides(Prices(), {"dynamodb_per_million_wru": "1.25"})

    # WHEN the model estimates two volumes
    small = estimate(profile, prices, Assumptions(), 1_000)
    large = estimate(profile, prices, Assumptions(), 100_000)
    base = estimate(profile, Prices(), Assumptions(), 1_000)

    # THEN costs scale with the volume and with the price named
    assert large.monthly_usd["DynamoDB writes"] == pytest.approx(
        100 * small.monthly_usd["DynamoDB writes"]
    )
    assert small.monthly_usd["DynamoDB writes"] == pytest.approx(
        2 * base.monthly_usd["DynamoDB writes"]
    )
    assert large.peak_concurrency == pytest.approx(100 * small.peak_concurrency)


def test_unknown_inputs_and_reports_without_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown input"):
        with_overrides(Prices(), {"dynamodb_per_wru": "1"})
    http_report = {"turns": [{**REPORT["turns"][0], "requests": None}]}
    with pytest.raises(ValueError, match="in-process"):
        profile_from_report(http_report)


def test_the_printout_names_the_three_volumes_and_the_inputs() -> None:
    text = render(profile_from_report(REPORT), Prices(), Assumptions())
    for volume in ("1,000 turns/day", "100,000 turns/day", "10,000,000 turns/day"):
        assert volume in text
    assert "dynamodb_per_million_wru=0.625" in text
    assert "model_seconds_per_turn=2" in text
