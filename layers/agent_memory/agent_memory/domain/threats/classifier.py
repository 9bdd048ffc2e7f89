"""The scanner's second reader: a linear model over the words of an entry's skeleton.

A rule catches the phrasings it was written for, and a paraphrase in other words passes it.
This model was trained (``scripts/train_threat_classifier.py``) on the labelled corpus,
the rules' own examples and counterexamples and the public training data in ``training/``:
logistic regression over an entry's words, word stems and pairs of neighbouring words, read
from the same folded skeleton as the rules, so look-alike letters and leetspeak do not change
what it sees. The scanner asks it only when no rule matched. One linear score decides
(threat when it passes the threshold the training chose by cross-validation); a second,
multinomial model names the category of what the first refused. The weights are data
(``classifier_weights``); a test fails when they are older than the data.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import NamedTuple

from agent_memory.domain.threats.threat_categories import ThreatCategory
from agent_memory.domain.threats.threat_rule import TOPIC_MARKERS

CLASSIFIER_CODE = "classifier"  # the finding code of a threat only the model saw
# Fewer distinct words than this are too few to judge by: "anything" alone (or repeated)
# weighs like a jailbreak, and "the user" before a made-up word like "do not tell the user".
MIN_WORDS = 4

# Letters and digits of any script: Cyrillic, Greek, Arabic or Devanagari words are words
# too (the skeleton folds only the letters that look Latin, so a Russian word reads as a
# mixed but stable token).
_WORD = re.compile(r"[^\W_]+")
_ASCII_WORD = re.compile(
    r"[a-z0-9]+"
)  # the same on ASCII text (the skeleton is lower case), faster
# Scripts written without spaces between words (Chinese, Japanese kana, Thai): a run of them
# is read as its overlapping pairs of characters, the usual unit for such text.
_UNSPACED = re.compile("[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
# A quotation (in double quotes, or single quotes that are not apostrophes) in a text that
# says what it quotes ("the red-team report lists 'ignore all previous instructions' as the
# top probe") is the note's topic, as the rules' quoting exemption reads it; quotes alone
# ("keep in mind '<attack>' thanks") are not.
_QUOTATION = re.compile(r'"[^"\n]{1,300}"|(?<![a-z0-9])\'[^\'\n]{1,300}\'(?![a-z0-9])')
# A keycap emoji ("1️⃣": a digit, then U+20E3) is an emoji, not the word "1".
_KEYCAP = re.compile("[0-9#*]\ufe0f?\u20e3")
_STEM_LENGTH = 5  # a longer word's first five letters: "ignoring" and "ignored" share "ignor"


class Features(NamedTuple):
    words: frozenset[str]
    stems: frozenset[str]
    pairs: frozenset[str]

    @property
    def size(self) -> int:
        return len(self.words) + len(self.stems) + len(self.pairs)


def features(skeleton: str) -> Features | None:
    """What the model reads in a skeleton, or None when it has too few words to judge: the
    words outside quotations in a note about what it quotes, else all the words."""
    words = _words(skeleton)
    outside, quotations = _QUOTATION.subn(" ", skeleton)
    if quotations and TOPIC_MARKERS.search(outside):
        words_outside = _words(outside)
        if len(set(words_outside)) >= MIN_WORDS:
            words = words_outside
    if len(set(words)) < MIN_WORDS:
        return None
    return Features(
        words=frozenset(words),
        stems=frozenset([word[:_STEM_LENGTH] for word in words if len(word) > _STEM_LENGTH]),
        pairs=frozenset(map(" ".join, pairwise(words))),
    )


def _words(text: str) -> list[str]:
    if text.isascii():
        return _ASCII_WORD.findall(text)
    if "\u20e3" in text:
        text = _KEYCAP.sub(" ", text)
    words = _WORD.findall(text)
    if _UNSPACED.search(text) is None:
        return words
    return [piece for word in words for piece in _pieces(word)]


def _pieces(word: str) -> list[str]:
    """A word, or for a run of unspaced script within it, that run's pairs of characters."""
    if _UNSPACED.search(word) is None:
        return [word]
    pieces: list[str] = []
    start = 0
    for run in _UNSPACED.finditer(word):
        if run.start() > start:
            pieces.append(word[start : run.start()])
        text = run.group()
        pieces += [text[index : index + 2] for index in range(len(text) - 1)]
        start = run.end()
    if start < len(word):
        pieces.append(word[start:])
    return pieces


class _Weights(NamedTuple):
    """One model's weights per kind of feature (a float, or one per class)."""

    words: Mapping[str, float]
    stems: Mapping[str, float]
    pairs: Mapping[str, float]


@dataclass(frozen=True)
class ThreatClassifier:
    threshold: float  # a text is a threat when its decision score is above this
    decision_bias: float
    decision: _Weights
    categories: tuple[ThreatCategory, ...]
    category_bias: tuple[float, ...]
    category: tuple[_Weights, ...]  # one set of weights per category

    def score(self, found: Features) -> float:
        """The decision's log-odds that the text is a threat."""
        return _linear(self.decision_bias, self.decision, found)

    def classify(self, skeleton: str) -> ThreatCategory | None:
        """The likeliest threat category, or None when the text reads as benign."""
        found = features(skeleton)
        if found is None or self.score(found) <= self.threshold:
            return None
        scores = [
            _linear(bias, weights, found)
            for bias, weights in zip(self.category_bias, self.category, strict=True)
        ]
        return self.categories[scores.index(max(scores))]

    @classmethod
    def from_json(cls, data: str) -> ThreatClassifier:
        trained = json.loads(data)
        decision, category = trained["decision"], trained["category"]
        return cls(
            threshold=trained["threshold"],
            decision_bias=decision["bias"],
            decision=_Weights(**decision["weights"]),
            categories=tuple(ThreatCategory(name) for name in category["classes"]),
            category_bias=tuple(category["bias"]),
            category=tuple(_Weights(**weights) for weights in category["weights"]),
        )


def _linear(bias: float, weights: _Weights, found: Features) -> float:
    # Each text's feature vector has unit length, so long and short texts compare; the sums
    # run in C (map, filter, sum), which is what keeps a 2,200-character entry cheap.
    total = (
        sum(filter(None, map(weights.words.get, found.words)))
        + sum(filter(None, map(weights.stems.get, found.stems)))
        + sum(filter(None, map(weights.pairs.get, found.pairs)))
    )
    return bias + total / math.sqrt(found.size)


@cache
def trained_classifier() -> ThreatClassifier:
    """The trained model, loaded on first use (``threats.compile_rules`` loads it at once)."""
    from agent_memory.domain.threats.classifier_weights import WEIGHTS_JSON

    return ThreatClassifier.from_json(WEIGHTS_JSON)
