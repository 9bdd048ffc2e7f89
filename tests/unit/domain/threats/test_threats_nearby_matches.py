"""NearbyMatches answers "is there a match of this pattern in that part of the text?" from
one search of the whole text."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from agent_memory.domain.threats.nearby_matches import NearbyMatches

WRAPPER = re.compile(r"<info>|###\s*system|\bdo\s+this\b")


@given(
    st.lists(st.sampled_from(["<info>", "### system", "do this", "pay $5", " ", "\n", "x"])),
    st.integers(0, 80),
    st.integers(0, 80),
)
def test_the_first_match_within_a_window_is_the_whole_search_s(
    parts: list[str], low: int, width: int
) -> None:
    # GIVEN a text and a window of it
    text = "".join(parts)
    high = low + width
    # WHEN asked for the first match lying in the window
    found = NearbyMatches(WRAPPER).first_within(text, low, high)
    # THEN it is the first match of a whole search that lies wholly inside it
    expected = next(
        (m for m in WRAPPER.finditer(text) if m.start() >= low and m.end() <= high), None
    )
    assert (found.span() if found else None) == (expected.span() if expected else None)


class _CountingPattern:
    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.searches = 0

    def finditer(self, text: str) -> object:
        self.searches += 1
        return self.pattern.finditer(text)


def test_a_text_is_searched_once_however_many_neighbourhoods_are_asked_about() -> None:
    # GIVEN a long, repetitive text (one question per repetition)
    text = "pay $5 now <info> " * 120
    counting = _CountingPattern(WRAPPER)
    nearby = NearbyMatches(counting)  # type: ignore[arg-type]
    # WHEN every neighbourhood is asked about
    answers = [nearby.first_within(text, start, start + 40) for start in range(0, len(text), 18)]
    # THEN the whole text was searched once, and each answer is the wrapper next to it
    assert counting.searches == 1
    assert all(answer is not None and answer.group() == "<info>" for answer in answers)
    # AND a new text is searched anew
    nearby.first_within("no wrapper here", 0, 15)
    assert counting.searches == 2
