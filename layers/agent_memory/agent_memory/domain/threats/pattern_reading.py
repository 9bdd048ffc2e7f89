"""Reading a rule's regular expression: where its matches start, and which words they hold.

``re._parser`` is the parser ``re`` itself compiles from; walking its tree gives, for each
top-level alternative of a pattern, the literal texts a match starts with
(``alternative_prefixes``) and the words every match contains (``required_words``). Both
are used only to skip work (``rule_anchors``): the pattern itself still decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from re import _compiler as sre_compile  # type: ignore[attr-defined]
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

__all__ = [
    "LINE_START",
    "MAYBE_SPACES",
    "SPACES",
    "Item",
    "Prefix",
    "Start",
    "alternative_prefixes",
    "alternatives",
    "head",
    "is_ascii_letter",
    "is_word_char",
    "leading_word",
    "parse",
    "required_words",
    "whole_word_follows",
]

LINE_START = "^"  # the prefix of an alternative that starts with a line
# In a prefix's text: where the pattern has \s or \s+ (one or more spaces), and \s*.
SPACES = "\x00"
MAYBE_SPACES = "\x01"
_MAX_PREFIXES = 150
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_SMALL_CLASS = 6  # a class of at most this many literal characters is spelled out
_SPACE_CLASS = [(sre.IN, [(sre.CATEGORY, sre.CATEGORY_SPACE)])]
_MAX_SPACE_MARKS = 2
_MAX_SUBSTRINGS = 24
_MIN_SUBSTRING = 3
_ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

Item = tuple[Any, Any]  # (opcode, argument), as re._parser builds them (untyped)


class Start(Enum):
    """What the pattern asserts before a prefix."""

    ANYWHERE = "anywhere"
    WORD = "word"  # \b before a word character: the character before is not \w
    LETTER = "letter"  # a lookbehind: the character before is not an ASCII letter


@dataclass(frozen=True)
class Prefix:
    text: str
    start: Start
    word_end: bool  # the pattern puts a \b or a space right after the text


def parse(source: str, flags: int) -> tuple[list[Item], Any]:
    """The items of ``source`` and the parser state (its groups), ignoring case folding."""
    tree = sre_parse.parse(source, flags & ~sre.SRE_FLAG_IGNORECASE)
    return tree.data, tree.state


def alternatives(items: list[Item]) -> list[list[Item]]:
    """The top-level alternatives of a pattern, looking inside a group around it all and
    through zero-width items the parser factored out of every alternative (``\\b``)."""
    while len(items) == 1 and items[0][0] is sre.SUBPATTERN:
        _, add_flags, del_flags, inner = items[0][1]
        if add_flags or del_flags:
            break
        items = inner.data
    leading = 0
    while leading < len(items) and items[leading][0] in _ZERO_WIDTH:
        leading += 1
    if leading == len(items) - 1 and items[leading][0] is sre.BRANCH:
        _, branches = items[leading][1]
        return [
            alternative
            for branch in branches
            for alternative in alternatives([*items[:leading], *branch.data])
        ]
    return [items]


def leading_word(text: str) -> str:
    """The ASCII letters ``text`` starts with."""
    end = 0
    while end < len(text) and is_ascii_letter(text[end]):
        end += 1
    return text[:end]


def is_ascii_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _start(items: list[Item], state: Any) -> Start:
    """What the zero-width items at the start of an alternative assert."""
    for item in items:
        op, value = item
        if op not in _ZERO_WIDTH:
            break
        if item == (sre.AT, sre.AT_BOUNDARY):
            return Start.WORD
        if op is sre.ASSERT_NOT and value[0] == -1 and _rejects_after_letters(item, state):
            return Start.LETTER
    return Start.ANYWHERE


def _rejects_after_letters(item: Item, state: Any) -> bool:
    """Does this lookbehind fail after every ASCII letter (and hold at the text's start)?"""
    check = sre_compile.compile(sre_parse.SubPattern(state, [item]))
    return check.match("x", 0) is not None and all(
        check.match(letter + "x", 1) is None for letter in _ASCII_LETTERS
    )


def alternative_prefixes(items: list[Item], state: Any, multiline: bool) -> set[Prefix] | None:
    starts_line = bool(items) and items[0] in (
        (sre.AT, sre.AT_BEGINNING),
        (sre.AT, sre.AT_BEGINNING_STRING),
    )
    if starts_line or (multiline and bool(items) and items[0] == (sre.AT, sre.AT_BEGINNING)):
        return {Prefix(LINE_START, Start.ANYWHERE, False)}
    start = _start(items, state)
    found = _sequence(items, {"": False})
    if found is None:
        return None
    texts = {**found[0], **found[1]}
    if any(not head(text) for text in texts):
        return None
    return {Prefix(text, start, word_end) for text, word_end in texts.items()}


# A literal text a match starts with -> whether the pattern puts a word boundary (\b or a
# space) right after it.
_Texts = dict[str, bool]
# Texts that may still grow with the next item, and texts that end where they are.
_Step = tuple[_Texts, _Texts]


def _sequence(items: list[Item], texts: _Texts) -> _Step | None:
    """The literal texts a match of ``items`` starts with, each extending one of ``texts``."""
    closed: _Texts = {}
    for op, value in items:
        if op in _ZERO_WIDTH:
            if op is sre.AT and value is sre.AT_BOUNDARY:
                texts = dict.fromkeys(texts, True)
            continue
        step = _item(op, value, texts)
        if step is not None and len(step[0]) + len(step[1]) + len(closed) > _MAX_PREFIXES:
            step = {}, _heads({**step[0], **step[1]})  # too many ways on: keep their heads
        if step is None or len(step[1]) + len(closed) > _MAX_PREFIXES:
            closed.update(texts)  # the texts so far are prefixes too
            return {}, closed
        texts, ended = step
        closed.update(ended)
        if not texts:
            break
    return texts, closed


def _item(op: Any, value: Any, texts: _Texts) -> _Step | None:
    if op is sre.LITERAL:
        return {text + chr(value): False for text in texts}, {}
    if op is sre.IN:
        if value == _SPACE_CLASS[0][1]:
            return _spaces(texts, SPACES)
        characters = _class_characters(value)
        if characters is None:
            ends_word = value == [(sre.CATEGORY, sre.CATEGORY_SPACE)]
            return {}, {text: flag or ends_word for text, flag in texts.items()}
        return {text + char: False for text in texts for char in characters}, {}
    if op is sre.SUBPATTERN:
        return _sequence(value[3].data, texts)
    if op is sre.BRANCH:
        grown: _Texts = {}
        ended: _Texts = {}
        for branch in value[1]:
            step = _sequence(branch.data, texts)
            if step is None:
                return None
            grown.update(step[0])
            ended.update(step[1])
        return grown, ended
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, body = value
        if body.data == _SPACE_CLASS:  # spaces: a mark in the text, read by the finder
            return _spaces(texts, SPACES if low >= 1 else MAYBE_SPACES)
        if low == 0 and high == 1:  # optional: with it or without it
            step = _sequence(body.data, texts)
            return None if step is None else ({**texts, **step[0]}, step[1])
        if low >= 1:  # the first repetition starts it; where the rest ends is unknown
            step = _sequence(body.data, texts)
            return None if step is None else ({}, {**step[1], **step[0]})
    return {}, dict(texts)


def _spaces(texts: _Texts, mark: str) -> _Step:
    """Texts go on through spaces for a few words: enough for a finder to tell a rule's
    phrase from a common word, few enough to keep reading the rules cheap."""
    grown: _Texts = {}
    ended: _Texts = {}
    for text, word_end in texts.items():
        if text.count(SPACES) + text.count(MAYBE_SPACES) >= _MAX_SPACE_MARKS:
            ended[text] = word_end or mark == SPACES
        else:
            grown[text + mark] = word_end or mark == SPACES
    return grown, ended


def _class_characters(items: list[Item]) -> list[str] | None:
    if len(items) > _SMALL_CLASS or any(op is not sre.LITERAL for op, _ in items):
        return None
    return [chr(code) for _, code in items]


def required_words(items: list[Item]) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """What every match of the alternative ``items`` holds, one group per mandatory item that
    starts with literal text: a group's words (as whole runs of ASCII letters) and its other
    texts (as substrings); every match holds one of each group."""
    flat = _flatten(items)
    groups: list[tuple[frozenset[str], frozenset[str]]] = []
    for index in range(1, len(flat)):
        op, value = flat[index]
        if op in _ZERO_WIDTH:
            continue
        step = _item(op, value, {"": False})
        if step is None:
            continue
        followed = index + 1 < len(flat) and _ends_letters(flat[index + 1])
        texts = {**{text: flag or followed for text, flag in step[0].items()}, **step[1]}
        if "" in texts:
            continue
        bounded = _ends_letters(flat[index - 1])
        words = {text: _whole_word(text, end) if bounded else None for text, end in texts.items()}
        substrings = frozenset(head(text) for text, word in words.items() if word is None)
        if len(substrings) <= _MAX_SUBSTRINGS and all(
            len(text) >= _MIN_SUBSTRING for text in substrings
        ):
            whole = frozenset(word for word in words.values() if word is not None)
            groups.append((whole, substrings))
    return tuple(groups)


def _flatten(items: list[Item]) -> list[Item]:
    """The items with every group's items in its place (a group is matched in sequence)."""
    flat: list[Item] = []
    for op, value in items:
        if op is sre.SUBPATTERN and not value[1] and not value[2]:
            flat += _flatten(value[3].data)
        else:
            flat.append((op, value))
    return flat


def _heads(texts: _Texts) -> _Texts:
    """The texts cut at their first space mark (a space follows each cut one)."""
    cut: _Texts = {}
    for text, word_end in texts.items():
        start = head(text)
        cut[start] = cut.get(start, False) or word_end or start != text
    return cut


def head(text: str) -> str:
    """A prefix's text up to its first space mark: plain literal text."""
    for index, char in enumerate(text):
        if char in (SPACES, MAYBE_SPACES):
            return text[:index]
    return text


def whole_word_follows(text: str, word: str, word_end: bool) -> bool:
    """Is ``word`` (the letters ``text`` starts with) followed by a non-letter?"""
    if len(word) == len(text):
        return word_end
    after = text[len(word)]
    return after != MAYBE_SPACES and not is_ascii_letter(after)


def _whole_word(text: str, word_end: bool) -> str | None:
    word = leading_word(text)
    return word if word and whole_word_follows(text, word, word_end) else None


def _ends_letters(item: Item) -> bool:
    """Is the character this item matches (or the one after a \\b) never an ASCII letter?"""
    op, value = item
    if item == (sre.AT, sre.AT_BOUNDARY):
        return True
    if op is sre.LITERAL:
        return not is_ascii_letter(chr(value))
    if op is sre.IN:
        return bool(value == [(sre.CATEGORY, sre.CATEGORY_SPACE)])
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, _, body = value
        return bool(low >= 1) and len(body.data) == 1 and _ends_letters(body.data[0])
    return False
