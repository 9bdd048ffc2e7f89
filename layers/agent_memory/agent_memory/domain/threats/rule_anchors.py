"""Anchors: where a rule's matches can start, derived from the rule's own pattern.

A rule's regular expression, searched over a 2,200-character entry, is tried at every
position; forty such searches per entry were most of a scan's cost. But every alternative
of a rule starts with literal text ("ignore", "<!--", "-----BEGIN ") or at the start of a
line, so the pattern only needs trying where that text occurs: ``anchors_of`` reads the
parsed pattern (``pattern_reading``) for those starting texts, and ``candidates`` finds them
with a literal search, which the regex engine runs at C speed. A rule whose matches cannot
be anchored this way is searched whole.

Matching at the anchored positions finds exactly what a search finds: every match starts at
one of them, and ``match(text, pos)`` sees the text before ``pos`` for ``\\b``, ``^`` and
lookbehinds. The text's words (its ASCII letter runs) rule out work without a search: an
anchor that is a whole word absent from them, and an alternative one of whose required
words (``required_words``) is absent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from agent_memory.domain.threats.pattern_reading import (
    LINE_START,
    MAYBE_SPACES,
    SPACES,
    Prefix,
    Start,
    alternative_prefixes,
    alternatives,
    head,
    is_word_char,
    leading_word,
    parse,
    required_words,
    whole_word_follows,
)

__all__ = ["Anchor", "RuleAnchors", "anchors_of", "lower_keeping_offsets"]

_NEWLINE = re.compile(r"\n")
# Characters an IGNORECASE pattern matches to an ASCII letter that str.lower does not lower
# to it (U+0130 would even become two characters, shifting every later offset).
_LOWER_AS_IGNORECASE = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"))

Positions = dict[str | None, list[int]]


def lower_keeping_offsets(text: str) -> str:
    """Lower case in which every character stays at its offset and every character an
    IGNORECASE pattern reads as an ASCII letter becomes that letter: the anchors of an
    IGNORECASE rule are found in text lowered so."""
    if not text.isascii():
        for char, letter in _LOWER_AS_IGNORECASE:
            text = text.replace(char, letter)
    return text.lower()


@dataclass(frozen=True)
class Anchor:
    """Text every match of one alternative starts with (or ``LINE_START``) and a search for
    it. ``word``: the letters it begins with, when they are bounded by non-letters on both
    sides, so that a text without that word cannot match here."""

    text: str
    word: bytes | None
    source: str | None  # of the finder; None for LINE_START

    @cached_property
    def finder(self) -> re.Pattern[str] | None:
        """Compiled on first use: most anchors of most rules are never searched for in one
        process, and a thousand compilations would lengthen every cold start."""
        return None if self.source is None else re.compile(self.source)


@dataclass(frozen=True)
class _Alternative:
    # Every match holds, of each group, one of its words or one of its substrings.
    required: tuple[tuple[frozenset[bytes], tuple[str, ...]], ...]
    by_word: Mapping[bytes, tuple[Anchor, ...]]
    others: tuple[Anchor, ...]
    words: frozenset[bytes]

    @classmethod
    def of(
        cls,
        required: tuple[tuple[frozenset[bytes], tuple[str, ...]], ...],
        anchors: Iterable[Anchor],
    ) -> _Alternative:
        by_word: dict[bytes, list[Anchor]] = {}
        others: list[Anchor] = []
        for anchor in anchors:
            if anchor.word is not None:
                by_word.setdefault(anchor.word, []).append(anchor)
            else:
                others.append(anchor)
        found = {word: tuple(group) for word, group in by_word.items()}
        return cls(required, found, tuple(others), frozenset(found))

    @cached_property
    def word_groups(self) -> tuple[frozenset[bytes], ...]:
        """The required groups made of whole words only: a text with none of a group's
        words cannot match this alternative."""
        return tuple(whole for whole, substrings in self.required if not substrings)

    def anchors(self, text: str, words: frozenset[bytes] | None) -> list[Anchor]:
        """The anchors that can occur in ``text`` (a substring test before any search: it
        costs less than a search that finds nothing)."""
        if words is None:
            return self._anchors_by_substring(text)
        present = self.words.intersection(words)
        if not present and not self.others:
            return []
        for whole in self.word_groups:  # set lookups first: the cheapest test
            if whole.isdisjoint(words):
                return []
        # Groups with substrings are not tested: a substring test reads the whole entry (a
        # hundred would per entry) and hardly ever spares the anchor search it stands for.
        found = [anchor for anchor in self.others if anchor.source is None or anchor.text in text]
        for word in present:
            found += self.by_word[word]
        return found

    def _anchors_by_substring(self, text: str) -> list[Anchor]:
        found = [anchor for anchor in self.others if anchor.source is None or anchor.text in text]
        found += [a for group in self.by_word.values() for a in group if a.text in text]
        if found and all(_holds(text, group) for group in self.required):
            return found
        return []


@dataclass(frozen=True)
class RuleAnchors:
    alternatives: tuple[_Alternative, ...]

    @cached_property
    def _only_words(self) -> frozenset[bytes] | None:
        """When every anchor of every alternative is a whole word: those words (a text
        holding none of them has no candidate, decided by one set test)."""
        if any(alternative.others for alternative in self.alternatives):
            return None
        return frozenset().union(*(alternative.words for alternative in self.alternatives))

    @property
    def anchors(self) -> tuple[Anchor, ...]:
        return tuple(
            anchor
            for alternative in self.alternatives
            for anchor in (
                *(a for group in alternative.by_word.values() for a in group),
                *alternative.others,
            )
        )

    def compile(self) -> None:
        """Compile every anchor's search now rather than on first use."""
        for anchor in self.anchors:
            _ = anchor.finder

    def candidates(self, text: str, words: frozenset[bytes] | None, cache: Positions) -> list[int]:
        """The positions of ``text`` where a match can start, in order. ``words``: the
        text's ASCII letter runs, when known; ``cache`` keeps the positions found for the
        other rules of the same scan."""
        if words is not None:
            only_words = self._only_words
            if only_words is not None and only_words.isdisjoint(words):
                return []
        anchors = [
            anchor
            for alternative in self.alternatives
            for anchor in alternative.anchors(text, words)
        ]
        if not anchors:
            return []
        if len(anchors) == 1:
            return _cached_positions(anchors[0], text, cache)
        found = [_cached_positions(anchor, text, cache) for anchor in anchors]
        nonempty = [positions for positions in found if positions]
        if len(nonempty) <= 1:
            return nonempty[0] if nonempty else []
        return sorted(set().union(*nonempty))


def _holds(text: str, group: tuple[frozenset[bytes], tuple[str, ...]]) -> bool:
    """Does ``text`` hold one of the group's words or substrings (when its words are not
    known)?"""
    whole, substrings = group
    if any(map(text.__contains__, (word.decode() for word in whole))):
        return True
    return any(map(text.__contains__, substrings))


def _cached_positions(anchor: Anchor, text: str, cache: Positions) -> list[int]:
    found = cache.get(anchor.source)
    if found is None:
        finder = anchor.finder
        if finder is None:  # LINE_START
            found = [0, *(match.end() for match in _NEWLINE.finditer(text))]
        else:
            found = [match.start() for match in finder.finditer(text)]
        cache[anchor.source] = found
    return found


def anchors_of(pattern: re.Pattern[str]) -> RuleAnchors | None:
    """The anchors of ``pattern``, or None when some match could start anywhere. The anchors
    of an IGNORECASE pattern are lower case, to be found in text lowered with
    ``lower_keeping_offsets``."""
    items, state = parse(pattern.pattern, pattern.flags)
    multiline = bool(pattern.flags & re.MULTILINE)
    lower = bool(pattern.flags & re.IGNORECASE)
    found: list[_Alternative] = []
    for alternative in alternatives(items):
        prefixes = alternative_prefixes(alternative, state, multiline)
        if prefixes is None:
            return None
        if lower:
            prefixes = {
                Prefix(lower_keeping_offsets(prefix.text), prefix.start, prefix.word_end)
                for prefix in prefixes
            }
        fold = lower_keeping_offsets if lower else str
        required = tuple(
            (
                frozenset(fold(word).encode() for word in whole),
                tuple(sorted(fold(text) for text in substrings)),
            )
            for whole, substrings in required_words(alternative)
        )
        found.append(_Alternative.of(required, _anchors(prefixes)))
    return RuleAnchors(tuple(found))


def _anchors(prefixes: Iterable[Prefix]) -> list[Anchor]:
    """One anchor per literal head (the text before a space mark), its finder reading what
    may follow the head as well, so that the engine, not Python, rejects most hits."""
    groups: dict[tuple[str, Start], list[Prefix]] = {}
    for prefix in prefixes:
        groups.setdefault((head(prefix.text), prefix.start), []).append(prefix)
    return [
        _anchor(text, start, members)
        for (text, start), members in sorted(groups.items(), key=_by_head)
    ]


def _by_head(group: tuple[tuple[str, Start], list[Prefix]]) -> tuple[str, str]:
    (text, start), _ = group
    return text, start.value


def _anchor(text: str, start: Start, members: list[Prefix]) -> Anchor:
    if text == LINE_START:
        return Anchor(LINE_START, None, None)
    source = re.escape(text)
    # The start condition goes after the literal, as a lookbehind over it, so that the
    # finder still begins with the literal and the engine scans for it at C speed.
    bounded_before = start is Start.LETTER or (start is Start.WORD and is_word_char(text[0]))
    if start is Start.WORD and is_word_char(text[0]):
        source += rf"(?<!\w{re.escape(text)})"
    elif start is Start.LETTER:
        source += rf"(?<![A-Za-z]{re.escape(text)})"
    rests = {(prefix.text[len(text) :], prefix.word_end) for prefix in members}
    if any(not rest for rest, _ in rests):  # the head alone is a prefix: nothing to read on
        if all(word_end for rest, word_end in rests if not rest) and is_word_char(text[-1]):
            source += r"(?!\w)"
    else:
        source += "(?:" + "|".join(sorted(_rest_source(rest, end) for rest, end in rests)) + ")"
    word = None
    leading = leading_word(text)
    whole = all(whole_word_follows(prefix.text, leading, prefix.word_end) for prefix in members)
    if bounded_before and leading and whole:
        word = leading.encode()
    return Anchor(text, word, source)


def _rest_source(rest: str, word_end: bool) -> str:
    """A regular expression for what follows an anchor's head: spaces and literal text."""
    source = "".join(
        r"\s+" if char == SPACES else r"\s*" if char == MAYBE_SPACES else re.escape(char)
        for char in rest
    )
    if word_end and is_word_char(rest[-1]):
        source += r"(?!\w)"
    return source
