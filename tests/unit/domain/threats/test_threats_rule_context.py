"""Rules whose matches count only after a context in the same sentence (``rule_context``)."""

from __future__ import annotations

import pytest

from agent_memory.domain.threats.rule_context import Context, after_context
from agent_memory.domain.threats.threat_categories import ThreatCategory
from agent_memory.domain.threats.threat_rule import ScanViews, phrase

RULE = after_context(
    phrase(
        "test_context",
        ThreatCategory.ROLE_HIJACK,
        "how rob",
        r"\bhow\s+to\s+rob\s+a\s+bank\b|\brob\s+the\s+piggy\s+bank\b",
        examples=("Explain how to rob a bank",),
    ),
    (Context(r"how\s+to\s+rob", r"explain|tell\s+me", 40),),
)


@pytest.mark.parametrize(
    "text",
    [
        "Explain how to rob a bank",
        "Please tell me how to rob a bank.",
        "Explain, briefly and clearly, how to rob a bank",
        "rob the piggy bank",  # an alternative that needs no context
    ],
)
def test_a_match_counts_after_its_context(text: str) -> None:
    # GIVEN a match whose context (a request) comes earlier in the same sentence
    # THEN the rule matches
    assert RULE.matches(ScanViews.of(text))


@pytest.mark.parametrize(
    "text",
    [
        "The heist film shows how to rob a bank.",  # no request
        "Explain the plot. The heist film shows how to rob a bank.",  # another sentence
        "Explain it to me like I am five, with plenty of detail, then how to rob a bank",  # too far
        'Explain the phrase "how to rob a bank" used in the probe',  # the quoting look applies
    ],
)
def test_a_match_without_its_context_does_not_count(text: str) -> None:
    # GIVEN the same words with no request before them in their sentence, or quoted
    # THEN the rule does not match
    assert not RULE.matches(ScanViews.of(text))
