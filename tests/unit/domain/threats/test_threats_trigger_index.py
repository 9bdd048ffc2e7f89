"""The trigger index (trigger_index) says, for every rule at once, what each rule's own
triggers say; and the prefilter runs no RE2 set whose rules are all untriggered."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.domain.threats import RULES
from agent_memory.domain.threats.rule_prefilter import RulePrefilter
from agent_memory.domain.threats.threat_rule import ScanViews
from agent_memory.domain.threats.trigger_index import TriggerIndex

ROOT = Path(__file__).resolve().parents[4]
CORPUS = [
    json.loads(line)["text"]
    for line in (ROOT / "tests/corpus/scanner_corpus.jsonl").open(encoding="utf-8")
]
INDEX = TriggerIndex(RULES)


def views_of(text: str) -> ScanViews:
    return ScanViews.of(unicodedata.normalize("NFKC", text))


def test_the_index_agrees_with_each_rule_on_the_corpus() -> None:
    for text in CORPUS:
        views = views_of(text)
        assert INDEX.triggered(views) == [rule.triggers.present(views) for rule in RULES], text


@settings(max_examples=200)
@given(st.lists(st.sampled_from(CORPUS), min_size=1, max_size=4), st.text(max_size=40))
def test_the_index_agrees_with_each_rule_on_joined_texts(parts: list[str], noise: str) -> None:
    views = views_of(noise.join(parts))
    assert INDEX.triggered(views) == [rule.triggers.present(views) for rule in RULES]


class _SetThatMustNotRun:
    view = "skeleton"

    def __init__(self, rules: tuple[int, ...]) -> None:
        self.rules = rules

    def matching(self, text: bytes) -> tuple[int, ...]:
        raise AssertionError("a set with no triggered rule was run")


def test_a_set_whose_rules_are_all_untriggered_is_not_run() -> None:
    # GIVEN a prefilter whose every set would fail if it were run
    prefilter = RulePrefilter(RULES)
    prefilter._sets = tuple(_SetThatMustNotRun(rule_set.rules) for rule_set in prefilter._sets)
    # WHEN an ordinary fact that triggers no rule is read
    views = views_of("Prefers dark roast coffee and a standing desk")
    assert not any(INDEX.triggered(views))
    # THEN no set runs, and no rule is a candidate
    assert prefilter.candidates(views) == []
