"""One threat rule: a readable unit with its reason code and its own examples.

Phrase rules match the skeleton (``folding.skeleton``): they are written in plain English
and compiled through ``fold_pattern``, so look-alike letters, leetspeak and case do not
matter. Literal rules match the NFKC text itself, where exact characters carry meaning
(key formats, URLs, shell syntax). Every pattern is bounded (no nested repetition, gaps of
at most a few hundred characters), so matching stays linear in the entry's length.

Each rule also names its triggers: words (of the skeleton) or substrings at least one of
which every match contains. A rule whose triggers are absent is not run, which keeps an
ordinary entry's scan to a set lookup per rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from agent_memory.domain.threats.folding import (
    fold_pattern,
    read_leetspeak,
    skeleton,
    skeleton_before_leetspeak,
)
from agent_memory.domain.threats.re2_superset import spaces_as_ascii
from agent_memory.domain.threats.rule_anchors import (
    RuleAnchors,
    anchors_of,
    lower_keeping_offsets,
)
from agent_memory.domain.threats.threat_categories import ThreatCategory

_NOT_LETTERS = bytes(code if chr(code).isalpha() else 32 for code in range(128)) + bytes([32] * 128)
_LONG_TOKEN = 16  # keys and encoded runs are at least this long
_FIRST_LONG_WORD = re.compile(rf"\S{{{_LONG_TOKEN},}}")
_LATER_LONG_WORD = re.compile(rf"\s(\S{{{_LONG_TOKEN},}})")
_WORD = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class ScanViews:
    """The forms of one text that rules read. Only ``folded`` and ``long_words`` are made
    for every text; the rest when a rule that the prefilter passed reads them."""

    plain: str
    folded: str  # the skeleton before leetspeak is read (folding.skeleton_before_leetspeak)
    long_words: str  # the whitespace-separated words of 16 or more characters, joined

    # Anchor positions found so far (per text searched), shared by the rules of one scan.
    anchor_positions: dict[str, dict[str | None, list[int]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # Each view as the prefilter reads it, made once for both prefilters of a scan.
    prefilter_texts: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)

    @property
    def has_long_token(self) -> bool:
        return bool(self.long_words)

    @cached_property
    def skeleton(self) -> str:
        return read_leetspeak(self.folded)

    @cached_property
    def words(self) -> frozenset[bytes]:
        """The ASCII words of the skeleton."""
        return _letter_runs(self.skeleton)

    @cached_property
    def skeleton_is_ascii(self) -> bool:
        return self.skeleton.isascii()

    @cached_property
    def plain_lower(self) -> str:
        return lower_keeping_offsets(self.plain)

    @cached_property
    def plain_words(self) -> frozenset[bytes]:
        """The ASCII letter runs of the lower-cased plain text."""
        return _letter_runs(self.plain_lower)

    @cached_property
    def long_words_lower(self) -> str:
        return lower_keeping_offsets(self.long_words)

    def prefilter_text(self, view: str) -> bytes:
        """A view as the prefilter reads it: UTF-8, every space an ASCII one
        (``re2_superset``); the skeleton's view is ``folded``."""
        found = self.prefilter_texts.get(view)
        if found is None:
            text = self.folded if view == "skeleton" else getattr(self, view)
            found = self.prefilter_texts[view] = spaces_as_ascii(text).encode("utf-8", "replace")
        return found

    @classmethod
    def of(cls, plain: str) -> ScanViews:
        """``plain`` must already be NFKC."""
        return cls(
            plain=plain,
            folded=skeleton_before_leetspeak(plain),
            long_words=_long_words(plain),
        )


def _long_words(plain: str) -> str:
    """The words of 16 or more characters, joined by spaces. The pattern for the later ones
    starts at a space, which the engine skips to at C speed."""
    first = _FIRST_LONG_WORD.match(plain)
    later = _LATER_LONG_WORD.findall(plain)
    return " ".join([first.group(), *later] if first is not None else later)


def _letter_runs(text: str) -> frozenset[bytes]:
    return frozenset(text.encode("ascii", "replace").translate(_NOT_LETTERS).split())


@dataclass(frozen=True)
class TriggerGroup:
    """Words or substrings of the skeleton one of which is present (or a long token)."""

    words: frozenset[bytes]
    substrings: tuple[str, ...]
    long_token: bool

    def present(self, views: ScanViews) -> bool:
        return (
            not self.words.isdisjoint(views.words)
            or (self.long_token and views.has_long_token)
            or any(map(views.skeleton.__contains__, self.ascii_substrings))
            or (
                bool(self.other_substrings)
                and not views.skeleton_is_ascii
                and any(map(views.skeleton.__contains__, self.other_substrings))
            )
        )

    @cached_property
    def ascii_substrings(self) -> tuple[str, ...]:
        return tuple(text for text in self.substrings if text.isascii())

    @cached_property
    def other_substrings(self) -> tuple[str, ...]:
        """Not in an ASCII skeleton, so not searched for there."""
        return tuple(text for text in self.substrings if not text.isascii())


@dataclass(frozen=True)
class Triggers:
    groups: tuple[TriggerGroup, ...]

    @classmethod
    def parse(cls, spec: str) -> Triggers:
        """Space-separated: a word of the skeleton, ``~text`` a substring of it, ``*long``
        any token of 16 or more characters; ``&`` separates groups that must all be
        present. Written in plain spelling, folded here."""
        return cls(tuple(_parse_group(group.split()) for group in spec.split("&")))

    def present(self, views: ScanViews) -> bool:
        # A loop, not all(...): no generator per rule per entry.
        for group in self.groups:  # noqa: SIM110
            if not group.present(views):
                return False
        return True


def _parse_group(items: list[str]) -> TriggerGroup:
    words: set[bytes] = set()
    substrings: list[str] = []
    for item in items:
        if item.startswith("~"):
            substrings.append(fold_pattern(item[1:]))
        elif item != "*long":
            words.update(word.encode() for word in _WORD.findall(skeleton(item)))
    return TriggerGroup(frozenset(words), tuple(substrings), "*long" in items)


@dataclass(frozen=True)
class ThreatRule:
    code: str
    category: ThreatCategory
    triggers: Triggers
    source: str  # the pattern, as re.compile reads it (with ``flags``)
    flags: int
    view: Literal["skeleton", "plain", "long_words"]
    examples: tuple[str, ...]
    counterexamples: tuple[str, ...]
    # A second look at each match, for what a pattern cannot judge (is this value a secret?).
    confirm: Callable[[re.Match[str]], bool] | None = None
    # When ``confirm`` needs more of the text than the match: a pattern (same view and
    # flags) that matches wherever the rule finds something, read by the prefilter instead.
    prefilter_source: str | None = None

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """Compiled on first use: the prefilter passes few rules for most texts, so a
        process compiles only the rules its texts come near."""
        return re.compile(self.source, self.flags)

    @cached_property
    def anchors(self) -> RuleAnchors | None:
        """Where this rule's matches can start (``rule_anchors``); read from the pattern on
        first use, so that importing the rules stays cheap for a cold start."""
        return anchors_of(self.pattern)

    def matches(self, views: ScanViews) -> bool:
        if not self.triggers.present(views):
            return False
        text = getattr(views, self.view)
        if self.anchors is None:
            if self.confirm is None:
                return self.pattern.search(text) is not None
            return any(self.confirm(match) for match in self.pattern.finditer(text))
        return self._matches_at_anchors(views, text)

    def _matches_at_anchors(self, views: ScanViews, text: str) -> bool:
        """As a search (or, with ``confirm``, as finditer) would, trying only the positions
        where a match can start."""
        assert self.anchors is not None
        where, words = self._anchor_views
        candidates = self.anchors.candidates(
            getattr(views, where),
            None if words is None else getattr(views, words),
            views.anchor_positions.setdefault(where, {}),
        )
        end = 0
        for position in candidates:
            if position < end:
                continue
            match = self.pattern.match(text, position)
            if match is None:
                continue
            if self.confirm is None or self.confirm(match):
                return True
            end = max(match.end(), position + 1)
        return False

    @cached_property
    def _anchor_views(self) -> tuple[str, str | None]:
        """Where this rule's anchors are looked for, and the words of that text."""
        if self.view == "skeleton":
            return "skeleton", "words"
        if not self.flags & re.IGNORECASE:
            return self.view, None
        if self.view == "plain":
            return "plain_lower", "plain_words"
        return f"{self.view}_lower", None


def phrase(
    code: str,
    category: ThreatCategory,
    triggers: str,
    source: str,
    *,
    examples: tuple[str, ...],
    counterexamples: tuple[str, ...] = (),
    quoting_allowed: bool = True,
) -> ThreatRule:
    """A rule over the skeleton, written in plain English (case and look-alikes ignored).
    With ``quoting_allowed``, a match that a note quotes or names as its topic ("attackers
    may write 'ignore previous instructions'") is not a finding."""
    return ThreatRule(
        code,
        category,
        Triggers.parse(triggers),
        fold_pattern(source),
        re.MULTILINE,
        "skeleton",
        examples,
        counterexamples,
        _not_quoted if quoting_allowed else None,
    )


# Words that make a sentence talk ABOUT an attack rather than make one.
TOPIC_MARKERS = re.compile(
    fold_pattern(
        r"\b(?:attackers?|attacks?|attacked|red[\s-]?team\w*|probes?|jailbreaks?|injections?|"
        r"phrases?|examples?|e\.g|such\s+as|scanners?|detects?|detected|detection|detectors?|"
        r"flags?|flagged|payloads?|malicious|adversar\w+|threat\s+model\w*|phishing|"
        r"classif\w+|benchmarks?|datasets?|corpus|signatures?|means?|meaning|talks?|papers?|"
        r"articles?)\b"
        # the same in other languages: "like", "for example", "attack", "malicious"
        r"|\b(?:beispiel\w*|angriff\w*|bösartig\w*|del\s+tipo|ejemplos?|ataques?|maliciosos?|"
        r"maliciosas?|esempi\w*|attacc\w*|malevol\w*|exemplos?|du\s+type|exemples?|attaques?|"
        r"malveillant\w*|zoals|voorbeeld\w*|aanval\w*|kwaadaardig\w*|typu|przykład\w*|atak\w*|"
        r"złośliw\w*|вроде|например|атак\w*|вредоносн\w*|кшталт|наприклад|шкідлив\w*|gibi|"
        r"örne\w*|saldır\w*|مثل|هجوم|خبيث\w*|जैसे|हमल\w*|kiểu|ví\s+dụ|tấn\s+công|độc\s+hại|"
        r"seperti|contoh|serangan|berbahaya)\b"
        r"|那种|这种|例如|比如|攻击|恶意|のような|例えば|攻撃|悪意|같은|공격|악성"
    )
)
_SENTENCE_END = ".!?:;\n"
# A user taking back one earlier wish of their own, named with its topic ("ignore my earlier
# instruction to write in bullet points", "forget what I said earlier about formal emails"),
# unless what is taken back is a safeguard.
_OWN_EARLIER_WISH = re.compile(
    fold_pattern(
        r"\b(?:my|the\s+user's)\s+(?:earlier|previous|last|prior|old|original)\s+(?:instruction|"
        r"request|preference|note|message|advice|rule|setting|choice|suggestion)\s+(?:to|about|that|on|"
        r"for|of|regarding)\b|\bwhat\s+i\s+(?:said|told\s+you|wrote|asked)\s+(?:earlier\s+|before\s+|"
        r"previously\s+|last\s+time\s+)?about\b"
    )
)
_SAFEGUARD_WORDS = re.compile(
    fold_pattern(
        r"\b(?:safety|filters?|restrictions?|guardrails?|guidelines|polic(?:y|ies)|system\s+prompt|"
        r"your\s+rules|secrets?|passwords?|ethic\w*|moral\w*|limits?|confidential\w*)\b"
    )
)
_OPEN_QUOTE = re.compile(r"(?:^|(?<=[\s(\[]))[\"'`«„“‘]|[「『]")
_CLOSE_QUOTE = re.compile(r"[\"'`»“”’](?=$|[\s.,;:!?)\]])|[」』]")
# The closing quotes each opening one may take.
_CLOSES = {"«": "»", "„": '"“”', "“": '"”', "‘": "'’", "「": "」", "『": "』"}
_MIN_WORDS_AROUND_QUOTE = 3
_MIN_CHARS_AROUND_QUOTE = 12  # in scripts without spaces


def _not_quoted(match: re.Match[str]) -> bool:
    """False when the match sits in a sentence about attacks, takes back one earlier wish of
    the user's own (named with its topic), or stands between quotes in a text
    that says it is about the phrase (its words outside the quotes name an attack, a probe,
    an example: ``TOPIC_MARKERS``) rather than being the phrase itself."""
    text, start, end = match.string, match.start(), match.end()
    before = text[max(0, start - 120) : start]
    sentence = before[max(before.rfind(mark) for mark in _SENTENCE_END) + 1 :]
    if TOPIC_MARKERS.search(sentence):
        return False
    own = text[start : end + 80]
    if _OWN_EARLIER_WISH.search(own) and not _SAFEGUARD_WORDS.search(own):
        return False
    opening = None
    for found in _OPEN_QUOTE.finditer(text, max(0, start - 120), start + 1):
        opening = found
    if opening is None:
        return True
    closing = _CLOSE_QUOTE.search(text, max(end - 1, opening.end()))
    if closing is None:
        return True
    quote = text[opening.start()]
    if text[closing.start()] not in _CLOSES.get(quote, quote):
        return True
    outside = text[: opening.start()] + " " + text[closing.end() :]
    # Quotes alone do not make a note: "keep in mind '<attack>' thanks" is the attack. The
    # text around them must name what the quotation is (an attack, a probe, an example).
    enough = (
        len(outside.split()) >= _MIN_WORDS_AROUND_QUOTE
        or len(outside.strip()) >= _MIN_CHARS_AROUND_QUOTE
    )
    return not enough or not TOPIC_MARKERS.search(outside)


def literal(
    code: str,
    category: ThreatCategory,
    triggers: str,
    source: str,
    *,
    examples: tuple[str, ...],
    counterexamples: tuple[str, ...] = (),
    ignore_case: bool = True,
    long_words_only: bool = False,
    confirm: Callable[[re.Match[str]], bool] | None = None,
) -> ThreatRule:
    """A rule over the NFKC text, for exact syntax (key formats, URLs, shell pipelines);
    ``long_words_only`` for what is always one long word (keys, tokens, URLs)."""
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    return ThreatRule(
        code,
        category,
        Triggers.parse(triggers),
        source,
        flags,
        "long_words" if long_words_only else "plain",
        examples,
        counterexamples,
        confirm,
    )


def words(*alternatives: str) -> str:
    """A non-capturing group of alternatives, each a whole word."""
    return r"\b(?:" + "|".join(alternatives) + r")\b"
