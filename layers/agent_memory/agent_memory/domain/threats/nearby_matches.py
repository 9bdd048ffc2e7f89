"""Matches of a pattern found once per text, for rules whose second look asks of each of
their matches "is there one of these near it?" (a wrapper on the same line, a carrier
within a few words, a snippet's code after it).

Searching each match's neighbourhood again reads a long, repetitive entry once per match:
2,200 characters of one phrase repeated took one rule 46 ms. Here the pattern is searched
once over the whole text, and each question is a bisection over the matches found. A
match counts when it lies wholly inside the neighbourhood; a search confined to the
neighbourhood could differ only at its edges (a lookaround or ``$`` at the cut).
"""

from __future__ import annotations

import re
from bisect import bisect_left

__all__ = ["NearbyMatches"]


class NearbyMatches:
    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        # The last text read, its matches and their starts (one entry is scanned at a
        # time; the tuple is replaced whole, so a reader sees one text's answers).
        self._last: tuple[str | None, list[re.Match[str]], list[int]] = (None, [], [])

    def first_within(self, text: str, low: int, high: int) -> re.Match[str] | None:
        """The first match of the pattern in ``text`` lying wholly in ``[low, high)``."""
        seen, matches, starts = self._last
        if seen is not text:
            matches = list(self.pattern.finditer(text))
            starts = [match.start() for match in matches]
            self._last = (text, matches, starts)
        position = bisect_left(starts, low)
        if position < len(matches) and matches[position].end() <= high:
            return matches[position]
        return None
