"""Anchors: where a rule's matches can start, derived from the rule's own pattern.

A rule's regular expression, searched over a 2,200-character entry, is tried at every
position; forty such searches per entry are most of a scan's cost. But every alternative of
a rule starts with literal text ("ignore", "<!--", "-----BEGIN ") or at the start of a line,
so the pattern only needs trying where that text occurs: ``anchors_of`` reads the parsed
pattern (``re._parser``, the parser ``re`` itself compiles from) and returns those starting
texts, and ``RuleAnchors.candidates`` finds them with a literal search, which the regex
engine runs at C speed. A rule whose matches cannot be anchored this way is searched whole.

Matching at anchored positions finds exactly the matches a search finds: every match starts
at one of them, and ``match(text, pos)`` sees the text before ``pos`` for ``\\b``, ``^`` and
lookbehind. A text's words (``ScanViews.words``) let an anchor that is a whole word be
skipped with a set lookup when the word is absent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from re import _compiler as sre_compile  # type: ignore[attr-defined]  # re's own parts
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

__all__ = [
    "LINE_START",
    "Anchor",
    "RuleAnchors",
    "anchors_of",
    "lower_keeping_offsets",
]

# Characters an IGNORECASE pattern matches to an ASCII letter that str.lower does not lower
# to it (U+0130 would even become two characters, shifting every later offset).
_LOWER_AS_IGNORECASE = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"))


def lower_keeping_offsets(text: str) -> str:
    """Lower case in which every character stays at its offset and every character an
    IGNORECASE pattern reads as an ASCII letter becomes that letter: the anchors of an
    IGNORECASE rule are found in text lowered so."""
    if not text.isascii():
        for char, letter in _LOWER_AS_IGNORECASE:
            text = text.replace(char, letter)
    return text.lower()

LINE_START = "^"  # the anchor of an alternative that starts with a line
_MAX_ANCHORS = 400
_MIN_LEN = 1
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_SMALL_CLASS = 6  # a class of at most this many literal characters is spelled out
_LEADING_LETTERS = re.compile(r"[a-z]+")
_NEWLINE = re.compile(r"\n")


class Start(Enum):
    """What the pattern asserts before an anchor's text."""

    ANYWHERE = "anywhere"
    WORD = "word"  # \b before a word character: the character before is not \w
    LETTER = "letter"  # a lookbehind: the character before is not an ASCII letter


@dataclass(frozen=True)
class Anchor:
    """Text every match of one alternative starts with (or ``LINE_START``) and a search for
    it. ``word``: the letters it begins with, when they are bounded by non-letters on both
    sides, so that a text without that word cannot match here."""

    text: str
    word: bytes | None
    finder: re.Pattern[str] | None


@dataclass(frozen=True)
class RuleAnchors:
    """A rule's anchors: those that need a word, by that word, and the others."""

    by_word: Mapping[bytes, tuple[Anchor, ...]]
    others: tuple[Anchor, ...]
    words: frozenset[bytes]

    @classmethod
    def of(cls, anchors: Iterable[Anchor]) -> RuleAnchors:
        by_word: dict[bytes, list[Anchor]] = {}
        others: list[Anchor] = []
        for anchor in anchors:
            if anchor.word is not None:
                by_word.setdefault(anchor.word, []).append(anchor)
            else:
                others.append(anchor)
        return cls(
            {word: tuple(found) for word, found in by_word.items()},
            tuple(others),
            frozenset(by_word),
        )

    @property
    def anchors(self) -> tuple[Anchor, ...]:
        return (*(anchor for group in self.by_word.values() for anchor in group), *self.others)

    def candidates(
        self,
        text: str,
        words: frozenset[bytes] | None,
        cache: dict[re.Pattern[str] | None, list[int]],
    ) -> list[int]:
        """The positions of ``text`` where a match can start, in order. ``words``: the
        text's ASCII letter runs, when known; ``cache`` keeps the positions found for the
        other rules of the same scan."""
        # A substring test first: it is cheaper than a search that finds nothing.
        anchors = [anchor for anchor in self.others if anchor.finder is None or anchor.text in text]
        if words is None:
            anchors.extend(anchor for group in self.by_word.values() for anchor in group if anchor.text in text)
        else:
            for word in self.words.intersection(words):
                anchors.extend(self.by_word[word])
        if not anchors:
            return []
        if len(anchors) == 1:
            return _cached_positions(anchors[0], text, cache)
        positions: set[int] = set()
        for anchor in anchors:
            positions.update(_cached_positions(anchor, text, cache))
        return sorted(positions)


def _cached_positions(
    anchor: Anchor, text: str, cache: dict[re.Pattern[str] | None, list[int]]
) -> list[int]:
    found = cache.get(anchor.finder)
    if found is None:
        if anchor.finder is None:  # LINE_START
            found = [0, *(match.end() for match in _NEWLINE.finditer(text))]
        else:
            found = [match.start() for match in anchor.finder.finditer(text)]
        cache[anchor.finder] = found
    return found


@dataclass(frozen=True)
class _Prefix:
    text: str
    start: Start
    word_end: bool  # the pattern puts a \b or a space right after the text


def anchors_of(pattern: re.Pattern[str]) -> RuleAnchors | None:
    """The anchors of ``pattern``, or None when some match could start anywhere. The anchors
    of an IGNORECASE pattern are lower case, to be found in text lowered with
    ``lower_keeping_offsets``."""
    tree = sre_parse.parse(pattern.pattern, pattern.flags & ~re.IGNORECASE)
    multiline = bool(pattern.flags & re.MULTILINE)
    prefixes: set[_Prefix] = set()
    for alternative in _top_alternatives(tree.data):
        found = _alternative_prefixes(alternative, tree.state, multiline)
        if found is None:
            return None
        prefixes |= found
        if len(prefixes) > _MAX_ANCHORS:
            return None
    if pattern.flags & re.IGNORECASE:
        prefixes = {
            _Prefix(lower_keeping_offsets(prefix.text), prefix.start, prefix.word_end)
            for prefix in prefixes
        }
    ordered = sorted(prefixes, key=lambda prefix: (prefix.text, prefix.start.value, prefix.word_end))
    return RuleAnchors.of(_anchor(prefix) for prefix in ordered)


def _anchor(prefix: _Prefix) -> Anchor:
    if prefix.text == LINE_START:
        return Anchor(LINE_START, None, None)
    text = prefix.text
    source = re.escape(text)
    # The start condition goes after the literal, as a lookbehind over it, so that the
    # finder still begins with the literal and the engine scans for it at C speed.
    if prefix.start is Start.WORD and _is_word_char(text[0]):
        source += rf"(?<!\w{re.escape(text)})"
    elif prefix.start is Start.LETTER:
        source += rf"(?<![A-Za-z]{re.escape(text)})"
    if prefix.word_end and _is_word_char(text[-1]):
        source += r"(?!\w)"
    word = None
    leading = _LEADING_LETTERS.match(text)
    bounded_before = prefix.start is Start.LETTER or (
        prefix.start is Start.WORD and _is_word_char(text[0])
    )
    if bounded_before and leading is not None:
        end = leading.end()
        whole = not _is_ascii_letter(text[end]) if end < len(text) else prefix.word_end
        if whole:
            word = leading.group().encode()
    return Anchor(text, word, re.compile(source))


def _is_ascii_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _top_alternatives(items: list[tuple[object, object]]) -> Iterable[list[tuple[object, object]]]:
    if len(items) == 1 and items[0][0] is sre.BRANCH:
        _, branches = items[0][1]  # type: ignore[misc]
        for branch in branches:
            yield branch.data
    else:
        yield items


def _start(items: list[tuple[object, object]], state: object) -> Start:
    """What the zero-width items at the start of an alternative assert."""
    for item in items:
        op, value = item
        if op not in _ZERO_WIDTH:
            break
        if item == (sre.AT, sre.AT_BOUNDARY):
            return Start.WORD
        if op is sre.ASSERT_NOT and value[0] == -1 and _rejects_after_letters(item, state):  # type: ignore[index]
            return Start.LETTER
    return Start.ANYWHERE


def _rejects_after_letters(item: tuple[object, object], state: object) -> bool:
    """Does this lookbehind fail after every ASCII letter (and hold at the text's start)?"""
    check = sre_compile.compile(sre_parse.SubPattern(state, [item]))
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return check.match("x", 0) is not None and all(
        check.match(letter + "x", 1) is None for letter in letters
    )


def _alternative_prefixes(
    items: list[tuple[object, object]], state: object, multiline: bool
) -> set[_Prefix] | None:
    starts_line = bool(items) and items[0] in (
        (sre.AT, sre.AT_BEGINNING),
        (sre.AT, sre.AT_BEGINNING_STRING),
    )
    if starts_line or (multiline and bool(items) and items[0] == (sre.AT, sre.AT_BEGINNING)):
        return {_Prefix(LINE_START, Start.ANYWHERE, False)}
    start = _start(items, state)
    found = _sequence(items, {"": False})
    if found is None:
        return None
    texts = {**found[0], **found[1]}
    if any(len(text) < _MIN_LEN for text in texts):
        return None
    return {_Prefix(text, start, word_end) for text, word_end in texts.items()}


# A literal text a match starts with -> whether the pattern puts a word boundary (\b or a
# space) right after it.
_Texts = dict[str, bool]
# Texts that may still grow with the next item, and texts that end where they are.
_Step = tuple[_Texts, _Texts]


def _sequence(items: list[tuple[object, object]], texts: _Texts) -> _Step | None:
    """The literal texts a match of ``items`` starts with, each extending one of ``texts``."""
    closed: _Texts = {}
    for op, value in items:
        if op in _ZERO_WIDTH:
            if op is sre.AT and value is sre.AT_BOUNDARY:
                texts = dict.fromkeys(texts, True)
            continue
        step = _item(op, value, texts)
        if step is None:
            return None
        texts, ended = step
        closed.update(ended)
        if len(texts) + len(closed) > _MAX_ANCHORS:
            return None
        if not texts:
            break
    return texts, closed


def _item(op: object, value: object, texts: _Texts) -> _Step | None:
    if op is sre.LITERAL:
        return {text + chr(value): False for text in texts}, {}  # type: ignore[call-overload]
    if op is sre.IN:
        characters = _class_characters(value)  # type: ignore[arg-type]
        if characters is None:
            ends_word = value == [(sre.CATEGORY, sre.CATEGORY_SPACE)]
            return {}, {text: flag or ends_word for text, flag in texts.items()}
        return {text + char: False for text in texts for char in characters}, {}
    if op is sre.SUBPATTERN:
        return _sequence(value[3].data, texts)  # type: ignore[index]
    if op is sre.BRANCH:
        grown: _Texts = {}
        ended: _Texts = {}
        for branch in value[1]:  # type: ignore[index]
            step = _sequence(branch.data, texts)
            if step is None:
                return None
            grown.update(step[0])
            ended.update(step[1])
        return grown, ended
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, body = value  # type: ignore[misc]
        if low == 0 and high == 1:  # optional: with it or without it
            step = _sequence(body.data, texts)
            return None if step is None else ({**texts, **step[0]}, step[1])
        if low >= 1:  # the first repetition starts it; where the rest ends is unknown
            step = _sequence(body.data, texts)
            return None if step is None else ({}, {**step[1], **step[0]})
    return {}, dict(texts)


def _class_characters(items: list[tuple[object, object]]) -> list[str] | None:
    if len(items) > _SMALL_CLASS or any(op is not sre.LITERAL for op, _ in items):
        return None
    return [chr(code) for _, code in items]  # type: ignore[arg-type]
