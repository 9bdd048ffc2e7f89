"""The secret-ask rules' forms (rules.secret_asks) are searched in Python only where their
RE2 rewriting matches; that rewriting matches wherever the form does, so the asks found are
those of a whole search."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.domain.threats.rules.secret_asks import FORMS
from agent_memory.domain.threats.threat_rule import ScanViews

ROOT = Path(__file__).resolve().parents[4]
CORPUS = [
    json.loads(line)["text"]
    for line in (ROOT / "tests/corpus/scanner_corpus.jsonl").open(encoding="utf-8")
]


def skeleton(text: str) -> str:
    return ScanViews.of(unicodedata.normalize("NFKC", text)).skeleton


def spans(matches: object) -> list[tuple[int, int]]:
    return [match.span() for match in matches]  # type: ignore[attr-defined]


def test_every_form_is_read_by_re2() -> None:
    # THEN no form falls back to a whole Python search of every text
    assert FORMS
    assert all(form._maybe is not None for form in FORMS)


@pytest.mark.parametrize("index", range(len(FORMS)))
def test_a_form_finds_what_a_whole_search_finds_on_the_corpus(index: int) -> None:
    form = FORMS[index]
    for text in map(skeleton, CORPUS):
        assert spans(form.asks(text)) == spans(form.pattern.finditer(text)), text


@settings(max_examples=100)
@given(st.lists(st.sampled_from(CORPUS), min_size=1, max_size=4), st.sampled_from([" ", "\n"]))
def test_a_form_finds_what_a_whole_search_finds_on_joined_texts(
    parts: list[str], joiner: str
) -> None:
    text = skeleton(joiner.join(parts))
    for form in FORMS:
        assert spans(form.asks(text)) == spans(form.pattern.finditer(text))


@settings(max_examples=100)
@given(
    st.sampled_from(CORPUS),
    st.lists(
        st.sampled_from(["\u00e9", "\u3000", "\ud800", "\u2028", "\u0431", "忽略"]), max_size=6
    ),
)
def test_a_form_finds_what_a_whole_search_finds_before_non_ascii_text(
    text: str, prefix: list[str]
) -> None:
    # GIVEN non-ASCII characters (one and more UTF-8 bytes, spaces RE2 reads as " ", a lone
    # surrogate) before an ask: RE2's byte offsets are not the text's
    disguised = skeleton("".join(prefix) + " " + text)
    for form in FORMS:
        assert spans(form.asks(disguised)) == spans(form.pattern.finditer(disguised))
