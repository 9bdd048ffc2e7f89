r"""A rule's pattern rewritten for RE2 so that it matches wherever the rule can.

The prefilter (``rule_prefilter``) runs every rule at once in RE2, a linear-time engine
with no lookarounds and no backreferences, over the UTF-8 bytes of a text.
``superset_source`` rewrites a Python pattern from its parsed tree (``re._parser``, the
parser ``re`` compiles from) so that the result matches at least wherever the pattern
could: it may match more, never less. What it cannot say exactly it widens:

- assertions (lookarounds; ``\b`` unless it stands next to a character that RE2, whose
  ``\b`` knows ASCII only, reads as Python does, which for a ``\b`` beside a group is
  decided branch by branch; ``\B``) are dropped, and a repetition
  bounded above by more than a few becomes unbounded (counted gaps make RE2's automaton
  large and slow);
- ``\w`` and ``\d`` take in every non-ASCII character (Python's are Unicode-wide);
  Python's non-ASCII spaces are read as an ASCII space in the prefilter's text
  (``spaces_as_ascii``), so ``\s`` stays small, and a negated class excludes the space
  only where it excludes all of them;
- ``leet=True`` (the skeleton's rules, matched before leetspeak is read): a letter also
  matches the digits and symbols that read as it (``folding.LEET_READINGS``), and negated
  classes never exclude those;
- case-insensitive ``i``, ``k`` and ``s`` take in the non-ASCII letters Python's
  IGNORECASE matches to them (the dotted and dotless i, the Kelvin sign, the long s);
- negated classes never exclude ``?``, which lone surrogates become in UTF-8 ("replace").

A rule the prefilter passes is still run in Python with its real pattern, which decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from agent_memory.exceptions import AgentMemoryError

__all__ = ["UNICODE_SPACES", "UntranslatableError", "spaces_as_ascii", "superset_source"]

_SURROGATE = "?"  # what a lone surrogate becomes in the UTF-8 text
_NON_ASCII = r"\x{80}-\x{10ffff}"
_ANY = r"(?s:.)"
_BOUND = 4  # repetitions bounded above by more are unbounded (see the module's text)
# ASCII letters that non-ASCII letters match under Python's IGNORECASE, and those letters.
_FOLDED_FROM_NON_ASCII = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
# Python's \s outside ASCII; the prefilter's text reads each as " ".
UNICODE_SPACES = (
    "\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
_UNICODE_SPACE = re.compile(f"[{UNICODE_SPACES}]")
_CATEGORY_CHARS = {  # ASCII members
    sre.CATEGORY_SPACE: "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ",
    sre.CATEGORY_WORD: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_",
    sre.CATEGORY_DIGIT: "0123456789",
}
_PERL_NEGATED = {  # RE2's are ASCII: each matches more than Python's
    sre.CATEGORY_NOT_SPACE: r"\S",
    sre.CATEGORY_NOT_WORD: r"\W",
    sre.CATEGORY_NOT_DIGIT: r"\D",
}

Item = tuple[Any, Any]


def spaces_as_ascii(text: str) -> str:
    """``text`` with each of Python's non-ASCII spaces as an ASCII one, as the prefilter
    reads it (a regex substitution: C speed, where ``str.translate`` goes a character at a
    time through a table)."""
    return text if text.isascii() else _UNICODE_SPACE.sub(" ", text)


class UntranslatableError(AgentMemoryError):
    """The pattern uses a construct this translation does not know (say, a backreference);
    the prefilter then runs that rule on every text."""


def superset_source(
    source: str, flags: int, *, leet: bool = False, leet_readings: Mapping[str, str] | None = None
) -> str:
    """RE2 syntax matching, over the prefilter's text (UTF-8, ``spaces_as_ascii``), wherever
    ``source`` can match. ``leet_readings``: letter -> the characters that read as it (for
    ``leet``)."""
    tree = sre_parse.parse(source, flags)
    readings = leet_readings or {}
    translation = _Translation(
        leet=leet,
        sources={letter: frozenset(chars) for letter, chars in readings.items()},
        multiline=bool(flags & sre.SRE_FLAG_MULTILINE),
    )
    body = translation.sequence(
        tree.data,
        ignorecase=bool(flags & sre.SRE_FLAG_IGNORECASE),
        dotall=bool(flags & sre.SRE_FLAG_DOTALL),
    )
    return ("(?i)" if flags & sre.SRE_FLAG_IGNORECASE else "") + body


class _Translation:
    def __init__(self, *, leet: bool, sources: Mapping[str, frozenset[str]], multiline: bool):
        self.leet = leet
        self.sources = sources if leet else {}
        self.leet_chars = frozenset().union(*self.sources.values()) if leet else frozenset()
        self.multiline = multiline
        self._literals: dict[tuple[int, bool], str] = {}  # the same few, thousands of times
        self._classes: dict[tuple[tuple[Item, ...], bool], str] = {}

    def sequence(self, items: list[Item], *, ignorecase: bool, dotall: bool) -> str:
        kept: set[int] = set()
        # Boundaries unsafe beside a group as a whole may be safe beside some of its
        # branches: \b(?:a|b) is (?:\ba|\bb), so they move inside (index -> before, after).
        moved: dict[int, tuple[bool, bool]] = {}
        for index, (op, value) in enumerate(items):
            if op is not sre.AT or value is not sre.AT_BOUNDARY:
                continue
            before = _edge_chars(items[index - 1], last=True) if index else None
            after = _edge_chars_of(items[index + 1 : index + 2], last=False)
            if self._boundary_holds(before, ignorecase) or self._boundary_holds(after, ignorecase):
                kept.add(index)
            elif index + 1 < len(items) and items[index + 1][0] in _GROUPS:
                moved[index + 1] = (True, moved.get(index + 1, (False, False))[1])
            elif index and items[index - 1][0] in _GROUPS:
                moved[index - 1] = (moved.get(index - 1, (False, False))[0], True)
        out = []
        for index, (op, value) in enumerate(items):
            if op is sre.AT and value is sre.AT_BOUNDARY:
                if index in kept:
                    out.append(r"\b")
            elif index in moved:
                out.append(self.bounded((op, value), ignorecase, dotall, *moved[index]))
            else:
                out.append(self.item(op, value, ignorecase=ignorecase, dotall=dotall))
        return "".join(out)

    def bounded(self, group: Item, ignorecase: bool, dotall: bool, first: bool, last: bool) -> str:
        """A group with a word boundary moved inside it, before (``first``) and/or after
        (``last``) each of its branches."""
        op, value = group
        boundary = (sre.AT, sre.AT_BOUNDARY)

        def with_boundary(items: list[Item], case: bool, all_lines: bool) -> str:
            inner = [*([boundary] if first else []), *items, *([boundary] if last else [])]
            return self.sequence(inner, ignorecase=case, dotall=all_lines)

        if op is sre.BRANCH:
            branches = (with_boundary(branch.data, ignorecase, dotall) for branch in value[1])
            return "(?:" + "|".join(branches) + ")"
        _, add, delete, pattern = value
        inner_case, inner_dotall, flag = _group_flags(add, delete, ignorecase, dotall)
        return f"(?:{flag}{with_boundary(pattern.data, inner_case, inner_dotall)})"

    def _boundary_holds(self, chars: frozenset[str] | None, ignorecase: bool) -> bool:
        """Does a ``\\b`` next to one of ``chars`` hold in RE2's text wherever it holds in
        Python's? Yes when each is an ASCII word character that the text shows as itself
        or as other ASCII word characters only (no leetspeak symbol, no non-ASCII letter)."""
        if not chars:
            return False
        for char in chars:
            if not (char.isascii() and (char.isalnum() or char == "_")):
                return False
            if ignorecase and char.lower() in _FOLDED_FROM_NON_ASCII:
                return False
            if any(not (reading.isalnum()) for reading in self.sources.get(char.lower(), ())):
                return False
        return True

    def item(self, op: Any, value: Any, *, ignorecase: bool, dotall: bool) -> str:
        if op is sre.LITERAL:
            key = (value, ignorecase)
            found = self._literals.get(key)
            if found is None:
                found = self._literals[key] = self.characters({chr(value)}, ignorecase)
            return found
        if op is sre.NOT_LITERAL:
            return self.negated({chr(value)}, ignorecase=ignorecase)
        if op is sre.ANY:
            return _ANY if dotall else "."
        if op is sre.IN:
            class_key = (tuple(value), ignorecase)
            found = self._classes.get(class_key)
            if found is None:
                found = self._classes[class_key] = self.char_class(value, ignorecase)
            return found
        if op is sre.BRANCH:
            return (
                "(?:"
                + "|".join(
                    self.sequence(branch.data, ignorecase=ignorecase, dotall=dotall)
                    for branch in value[1]
                )
                + ")"
            )
        if op is sre.SUBPATTERN:
            _, add, delete, pattern = value
            inner_case, dotall, flag = _group_flags(add, delete, ignorecase, dotall)
            inner = self.sequence(pattern.data, ignorecase=inner_case, dotall=dotall)
            return f"(?:{flag}{inner})"
        if op in _REPEATS:
            low, high, pattern = value
            inner = self.sequence(pattern.data, ignorecase=ignorecase, dotall=dotall)
            return f"(?:{inner}){_quantifier(low, high)}"
        if op is sre.ATOMIC_GROUP:
            return "(?:" + self.sequence(value.data, ignorecase=ignorecase, dotall=dotall) + ")"
        if op is sre.AT:
            return self.anchor(value)
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            return ""  # dropped: a match without the assertion's test is a wider match
        raise UntranslatableError(f"unsupported construct {op}")

    def anchor(self, value: Any) -> str:
        if value is sre.AT_BEGINNING:
            return "(?m:^)" if self.multiline else r"\A"
        if value is sre.AT_BEGINNING_STRING:
            return r"\A"
        if value in (sre.AT_END, sre.AT_END_STRING):
            # Python's $ also matches before a last newline: (?m:$) is the wider one.
            return "(?m:$)" if value is sre.AT_END else r"\z"
        return ""  # \B, and \b where the caller found it unsafe to keep

    def characters(self, chars: Iterable[str], ignorecase: bool) -> str:
        return self.positive(set(chars), [], ignorecase=ignorecase)

    def positive(
        self,
        chars: set[str],
        ranges: list[tuple[int, int]],
        *,
        ignorecase: bool,
        non_ascii: bool = False,
        perl: Sequence[str] = (),
    ) -> str:
        """A class of ``chars`` and ``ranges`` (code points), widened as the module says."""
        wide = {" " if char in UNICODE_SPACES else char for char in chars}
        for low, high in ranges:
            wide.update(chr(code) for code in range(low, min(high, 127) + 1))
            if any(low <= ord(space) <= high for space in UNICODE_SPACES):
                wide.add(" ")
        for char in list(wide):
            readings = self.sources.get(char.lower() if ignorecase else char, "")
            wide.update(readings)
            if ignorecase:
                wide.update(_FOLDED_FROM_NON_ASCII.get(char.lower(), ""))
                if not char.isascii():
                    wide.update(c for c in (char.lower(), char.upper()) if len(c) == 1)
        parts = _runs(wide)
        parts += [
            f"{_escape(chr(max(low, 128)))}-{_escape(chr(high))}"
            for low, high in ranges
            if high > 127
        ]
        if non_ascii:
            parts.append(_NON_ASCII)
        parts += perl
        if len(parts) == 1 and len(wide) == 1 and not non_ascii:
            return parts[0]
        return "[" + "".join(parts) + "]"

    def negated(
        self,
        excluded: set[str],
        ranges: Sequence[tuple[int, int]] = (),
        *,
        ignorecase: bool = False,
    ) -> str:
        """A negated class that still matches what it must not exclude here: ``?`` (a lone
        surrogate), the leetspeak sources, the space unless every space is excluded (each
        reads as one), and (ignoring case) every non-ASCII character."""
        every_space = all(
            space in excluded or any(low <= ord(space) <= high for low, high in ranges)
            for space in (" ", *UNICODE_SPACES)
        )
        keep_out = {_SURROGATE, *self.leet_chars, *UNICODE_SPACES}
        if not every_space:
            keep_out.add(" ")
        chars = {char for char in excluded if char not in keep_out}
        spans = list(ranges)
        if ignorecase:
            chars = {char for char in chars if char.isascii()}
            spans = [(low, min(high, 127)) for low, high in spans if low <= 127]
        pieces: list[str] = []
        for low, high in spans:
            for part_low, part_high in _without(low, high, keep_out):
                pieces.append(f"{_escape(chr(part_low))}-{_escape(chr(part_high))}")
        pieces += _runs(chars)
        if not pieces:
            return _ANY
        return "[^" + "".join(pieces) + "]"

    def char_class(self, items: list[Item], ignorecase: bool) -> str:
        negate = bool(items) and items[0][0] is sre.NEGATE
        chars: set[str] = set()
        ranges: list[tuple[int, int]] = []
        perl: list[str] = []
        non_ascii = False
        for op, value in items[1:] if negate else items:
            if op is sre.LITERAL:
                chars.add(chr(value))
            elif op is sre.RANGE:
                ranges.append(value)
            elif op is sre.CATEGORY and value in _CATEGORY_CHARS:
                chars.update(_CATEGORY_CHARS[value])
                if value is sre.CATEGORY_SPACE:
                    chars.update(UNICODE_SPACES)  # read as " " (positive), all excluded (negated)
                else:
                    non_ascii = True  # Unicode letters and digits: every non-ASCII is wider
            elif op is sre.CATEGORY and value in _PERL_NEGATED:
                if negate or (self.leet and value is sre.CATEGORY_NOT_DIGIT):
                    return _ANY  # [^\S...] and friends: rare; any character is wider
                perl.append(_PERL_NEGATED[value])
            else:
                raise UntranslatableError(f"unsupported class item {op}")
        if negate:
            # Categories were added with their ASCII members only (and exact spaces): the
            # narrow set of what to exclude.
            return self.negated(chars, ranges, ignorecase=ignorecase)
        return self.positive(chars, ranges, ignorecase=ignorecase, non_ascii=non_ascii, perl=perl)


def _group_flags(add: int, delete: int, ignorecase: bool, dotall: bool) -> tuple[bool, bool, str]:
    """Inside a group with inline flags: whether case is ignored, whether ``.`` takes the
    newline, and the RE2 flag to write when case changes."""
    case = (ignorecase or bool(add & sre.SRE_FLAG_IGNORECASE)) and not (
        delete & sre.SRE_FLAG_IGNORECASE
    )
    all_lines = (dotall or bool(add & sre.SRE_FLAG_DOTALL)) and not (delete & sre.SRE_FLAG_DOTALL)
    return case, all_lines, "" if case == ignorecase else "(?i)" if case else "(?-i)"


def _without(low: int, high: int, removed: Iterable[str]) -> list[tuple[int, int]]:
    """The range low-high less the code points of ``removed``."""
    spans = [(low, high)]
    for code in sorted(ord(char) for char in removed):
        spans = [
            part
            for span_low, span_high in spans
            for part in (
                ((span_low, code - 1), (code + 1, span_high))
                if span_low <= code <= span_high
                else ((span_low, span_high),)
            )
            if part[0] <= part[1]
        ]
    return spans


_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_GROUPS = (sre.BRANCH, sre.SUBPATTERN)  # a word boundary beside one can move inside


def _edge_chars(item: Item, *, last: bool) -> frozenset[str] | None:
    """The characters a match of ``item`` can start with (``last``: end with), when it
    always starts (ends) with one of a known few."""
    op, value = item
    if op is sre.LITERAL:
        return frozenset(chr(value))
    if op is sre.IN:
        if all(member_op is sre.LITERAL for member_op, _ in value):
            return frozenset(chr(code) for _, code in value)
        return None
    if op is sre.SUBPATTERN:
        return _edge_chars_of(value[3].data, last=last)
    if op is sre.BRANCH:
        found: set[str] = set()
        for branch in value[1]:
            edge = _edge_chars_of(branch.data, last=last)
            if edge is None:
                return None
            found |= edge
        return frozenset(found)
    if op in _REPEATS and value[0] >= 1:
        return _edge_chars_of(value[2].data, last=last)
    return None


def _edge_chars_of(items: list[Item], *, last: bool) -> frozenset[str] | None:
    if not items:
        return None
    return _edge_chars(items[-1] if last else items[0], last=last)


def _quantifier(low: int, high: Any) -> str:
    if high is sre.MAXREPEAT or high > _BOUND:
        low = min(low, _BOUND)
        return "*" if low == 0 else "+" if low == 1 else f"{{{low},}}"
    if (low, high) == (0, 1):
        return "?"
    return f"{{{low},{high}}}"


def _runs(chars: Iterable[str]) -> list[str]:
    """Class items for ``chars``: consecutive code points as one range."""
    codes = sorted(map(ord, chars))
    items: list[str] = []
    start = 0
    for end in range(1, len(codes) + 1):
        if end == len(codes) or codes[end] != codes[end - 1] + 1:
            low, high = chr(codes[start]), chr(codes[end - 1])
            if end - start >= 3:
                items.append(f"{_escape(low)}-{_escape(high)}")
            else:
                items += [_escape(chr(code)) for code in codes[start:end]]
            start = end
    return items


def _escape(char: str) -> str:
    if char.isalnum() or not char.isascii():
        return char  # RE2 reads the pattern as UTF-8
    if char.isprintable():
        return "\\" + char
    return f"\\x{ord(char):02x}"
