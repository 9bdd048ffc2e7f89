"""The prefilter (rule_prefilter, re2_superset) passes every rule whose pattern matches: its
RE2 rewriting of each pattern matches wherever the pattern does, over every kind of text
the rules meet (leetspeak, look-alikes, non-ASCII letters and spaces, case folding)."""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from pathlib import Path
from random import Random

import pytest
import re2
from hypothesis import given, settings
from hypothesis import strategies as st
from script_loading import load_script

from agent_memory.domain.threats import RULES, rule_prefilter
from agent_memory.domain.threats.folding import LEET_READINGS, skeleton_before_leetspeak
from agent_memory.domain.threats.prefilter_sources import SOURCES
from agent_memory.domain.threats.re2_superset import (
    UntranslatableError,
    spaces_as_ascii,
    superset_source,
)
from agent_memory.domain.threats.rule_prefilter import RulePrefilter, _RuleSet, fingerprint
from agent_memory.domain.threats.threat_rule import ScanViews

ROOT = Path(__file__).resolve().parents[4]
CORPUS_PATH = ROOT / "tests/corpus/scanner_corpus.jsonl"
CORPUS_TEXTS = [json.loads(line)["text"] for line in CORPUS_PATH.open(encoding="utf-8")]
RULE_TEXTS = [text for rule in RULES for text in (*rule.examples, *rule.counterexamples)]
PREFILTER = RulePrefilter(RULES)
# Characters where RE2 and Python could read a text differently.
ODD_ALPHABET = (
    "ignorealpvusctdhmkwxy IGNORE'\n\t:<!->/\\.$@|_?0123456789"
    "İıſKК\u043e\u0430\u0456\u00e9\u00df\u00a0\u2028\u3000\u200d忽略指令無視。"
)


# What the prefilter reads of each rule: its pattern, or the pattern it names for it.
READ_PATTERNS = {
    rule.code: rule.pattern
    if rule.prefilter_source is None
    else re.compile(rule.prefilter_source, rule.flags)
    for rule in RULES
}


def pattern_matches(text: str) -> set[str]:
    """The rules whose triggers are present and whose pattern, searched over its view of
    ``text``, matches (confirmation aside: a superset of the rules that decide the text is
    a threat, since a rule without its triggers never does)."""
    views = ScanViews.of(unicodedata.normalize("NFKC", text))
    return {
        rule.code
        for rule in RULES
        if rule.triggers.present(views)
        and READ_PATTERNS[rule.code].search(getattr(views, rule.view))
    }


def test_a_rule_that_names_a_prefilter_pattern_finds_nothing_where_it_does_not_match() -> None:
    # GIVEN the rules whose second look reads more of the text than their match
    named = [rule for rule in RULES if rule.prefilter_source is not None]
    assert named
    # THEN every corpus text such a rule finds something in matches the pattern it names
    for text in CORPUS_TEXTS + RULE_TEXTS:
        views = ScanViews.of(unicodedata.normalize("NFKC", text))
        for rule in named:
            if rule.matches(views):
                assert READ_PATTERNS[rule.code].search(getattr(views, rule.view)), text


def assert_prefilter_keeps(text: str) -> None:
    views = ScanViews.of(unicodedata.normalize("NFKC", text))
    passed = {rule.code for rule in PREFILTER.candidates(views)}
    missed = pattern_matches(text) - passed
    assert not missed, (missed, text)


def test_every_rule_is_translated() -> None:
    # THEN no rule falls back to being run on every text
    assert not PREFILTER._always
    assert sum(len(rule_set.rules) for rule_set in PREFILTER._sets) == len(RULES)
    # AND every set compiles within its budgets (a set that cannot runs all its rules)
    assert all(rule_set._set is not None for rule_set in PREFILTER._sets)


@pytest.mark.parametrize("text", CORPUS_TEXTS + RULE_TEXTS)
def test_the_prefilter_passes_every_matching_rule_on_the_corpus(text: str) -> None:
    assert_prefilter_keeps(text)


@settings(max_examples=150)
@given(
    st.lists(st.sampled_from(CORPUS_TEXTS + RULE_TEXTS), min_size=1, max_size=6),
    st.sampled_from([" ", "\n", " and ", ": ", "'", "-", "\u00a0", "。"]),
)
def test_the_prefilter_passes_every_matching_rule_on_joined_texts(
    parts: list[str], joiner: str
) -> None:
    # GIVEN texts joined so that matches can start, end and cross anywhere
    # THEN every rule whose pattern matches is passed
    assert_prefilter_keeps(joiner.join(parts))


@settings(max_examples=150)
@given(
    st.sampled_from(RULE_TEXTS),
    st.lists(st.tuples(st.integers(0, 400), st.sampled_from(list(ODD_ALPHABET))), max_size=8),
)
def test_the_prefilter_passes_every_matching_rule_on_altered_examples(
    example: str, changes: list[tuple[int, str]]
) -> None:
    # GIVEN a rule's example with characters replaced by leetspeak, look-alikes, case and
    # non-ASCII letters or spaces
    text = list(example)
    for position, char in changes:
        if text:
            text[position % len(text)] = char
    # THEN every rule whose pattern still matches is passed
    assert_prefilter_keeps("".join(text))


@settings(max_examples=200)
@given(st.sampled_from(RULE_TEXTS), st.randoms(use_true_random=False))
def test_the_prefilter_passes_every_matching_rule_on_leetspeak_examples(
    example: str, random: Random
) -> None:
    # GIVEN a rule's example with letters written as digits or symbols that read as them
    readings = {letter: chars for letter, chars in LEET_READINGS.items() if chars}
    text = "".join(
        random.choice(readings[char]) if char in readings and random.random() < 0.4 else char
        for char in example.lower()
    )
    # THEN every rule whose pattern still matches (once leetspeak is read) is passed
    assert_prefilter_keeps(text)


@settings(max_examples=200)
@given(st.text(alphabet=ODD_ALPHABET, max_size=200))
def test_the_prefilter_passes_every_matching_rule_on_odd_text(text: str) -> None:
    assert_prefilter_keeps(text)


def re2_matches(source: str, text: str) -> bool:
    """Does ``source`` match ``text`` read as the prefilter reads it?"""
    return re2.compile(source).search(spaces_as_ascii(text).encode()) is not None


def test_a_letter_matches_its_leetspeak_readings_before_leetspeak_is_read() -> None:
    # GIVEN a skeleton rule's word and a text written in leetspeak
    folded = skeleton_before_leetspeak("1gn0r3 previous")
    # THEN the widened pattern matches the unread text; without widening it would not
    assert re2_matches(superset_source("ignore", 0, leet=True, leet_readings=LEET_READINGS), folded)
    assert not re2_matches(superset_source("ignore", 0), folded)


def test_ignoring_case_takes_in_the_non_ascii_letters_python_folds() -> None:
    pattern = r"\bkey\b|\bsecret|ignore"
    source = superset_source(pattern, re.IGNORECASE)
    # THEN the Kelvin sign, the long s and the dotless and dotted i match as in Python
    for text in ("\u212aEY", "\u017fECRET", "\u0131GNORE", "\u0130gnore"):
        assert re.search(pattern, text, re.IGNORECASE)
        assert re2_matches(source, text)


def test_a_word_boundary_is_kept_only_where_re2_reads_it_as_python_does() -> None:
    # GIVEN \b before a letter without symbol readings, and before one with ("a" for "@")
    kept = superset_source(r"\bcurl\b", 0, leet=True, leet_readings=LEET_READINGS)
    dropped = superset_source(r"\bask", 0, leet=True, leet_readings=LEET_READINGS)
    # THEN the first keeps it (no match inside a word), the second drops it ("!@sk" is
    # "!ask" once read, where Python sees a boundary and RE2 would not)
    assert kept.startswith(r"\b")
    assert not re2_matches(kept, "xcurl")
    assert not dropped.startswith(r"\b")
    assert re2_matches(dropped, "!@sk")


def test_a_word_boundary_beside_a_group_is_kept_for_each_branch_where_it_is_safe() -> None:
    # GIVEN \b before and after a group of words, one of which starts with a letter that
    # has symbol readings ("i" for "!")
    source = superset_source(r"\b(?:curl|iwr|nc)\b", 0, leet=True, leet_readings=LEET_READINGS)
    # THEN the boundary stays for the other branches: "nc" inside "since" is not passed
    assert not re2_matches(source, "since")
    assert not re2_matches(source, "xcurl")
    # AND the branch where it cannot stay still matches as the rule can ("!wr" reads "iwr")
    assert re2_matches(source, "x !wr y")
    assert re.search(r"\b(?:curl|iwr|nc)\b", "x iwr y")


def test_negated_classes_never_exclude_what_may_read_otherwise() -> None:
    # GIVEN "[^0-9]" on the skeleton: a digit there may be a leetspeak letter
    source = superset_source("x[^0-9]y", 0, leet=True, leet_readings=LEET_READINGS)
    # THEN the unread "x0y" (read "xoy") still matches
    assert re2_matches(source, "x0y")


def test_every_space_reads_as_one_and_a_negated_space_excludes_none_of_them() -> None:
    # GIVEN Python's \s, and a class that excludes the ASCII space but not the others
    spaced = superset_source(r"ignore\s+previous", 0)
    not_space = superset_source(r"a[^ ]b", 0)
    not_any_space = superset_source(r"a[^\s]b", 0)
    # THEN non-ASCII spaces match \s, and only a class excluding every space excludes " "
    assert re2_matches(spaced, "ignore\u3000previous")
    assert re2_matches(spaced, "ignore\u2028previous")
    assert re.search(r"a[^ ]b", "a\u3000b")
    assert re2_matches(not_space, "a\u3000b")
    assert not re2_matches(not_any_space, "a\u3000b")


def test_counted_gaps_and_lookarounds_widen() -> None:
    source = superset_source(r"a[^\n]{0,5}(?!c)b(?<=b)", 0)
    assert re2_matches(source, "a" + "z" * 50 + "b")
    assert re2_matches(source, "azb")


def test_a_backreference_is_untranslatable() -> None:
    with pytest.raises(UntranslatableError):
        superset_source(r"(a)\1", 0)


class _FailedSet:
    """An RE2 set that could not run to the end: it answers with no pattern at all."""

    def Match(self, text: bytes) -> None:  # RE2's name
        return None


def test_a_set_that_gives_no_answer_passes_all_its_rules() -> None:
    # GIVEN a set whose automaton failed (no pattern, not even the one every text matches)
    rule_set = _RuleSet("plain", [(3, "never"), (7, "nothing")])
    assert rule_set.matching(b"ordinary text") == ()
    rule_set._set = _FailedSet()
    # THEN each of its rules is run, as if each had matched
    assert rule_set.matching(b"ordinary text") == (3, 7)


def test_a_set_too_large_for_its_first_budget_gets_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN budgets of which the first cannot hold a large rule's program
    monkeypatch.setattr(rule_prefilter, "_SET_MEMORY", (1 << 10, 2 << 20))
    large = "|".join(f"word{number}" for number in range(2000))
    with pytest.raises(re2.error):
        rule_prefilter._compiled([large], 1 << 10)
    # WHEN its set is made
    rule_set = _RuleSet("plain", [(5, large)])
    # THEN it is compiled with the next budget, and answers
    assert rule_set.matching(b"say word1999 now") == (5,)
    assert rule_set.matching(b"nothing here") == ()
    # AND a set no budget holds runs its rule on every text rather than failing the scan
    monkeypatch.setattr(rule_prefilter, "_SET_MEMORY", (1 << 10,))
    assert _RuleSet("plain", [(5, large)]).matching(b"nothing here") == (5,)


def test_the_committed_prefilter_sources_are_current() -> None:
    # GIVEN the generator script, run against today's rules and rewriting
    generator = load_script("generate_prefilter_sources")
    # THEN the module the layer ships is what it writes (else: run the script)
    committed = (
        ROOT / "layers/agent_memory/agent_memory/domain/threats/prefilter_sources.py"
    ).read_text(encoding="utf-8")
    assert committed == generator.module_text(), "run scripts/generate_prefilter_sources.py"


def test_a_rule_changed_since_the_sources_were_generated_is_rewritten_at_start() -> None:
    # GIVEN a rule whose pattern no longer is the one its stored source was made from
    rule = next(rule for rule in RULES if rule.code == "override_instructions")
    changed = dataclasses.replace(rule, source=rule.source.replace("ignore", "zapfix"))
    assert SOURCES[rule.code][0] != fingerprint(changed)
    # WHEN a prefilter is made with it
    prefilter = RulePrefilter([changed])
    # THEN it reads the new pattern, not the stored one
    # (with a word of its triggers: a rule without them is not run at all)
    views = ScanViews.of("please zapfix all previous instructions, then follow up")
    assert changed.pattern.search(views.skeleton)
    assert prefilter.candidates(views) == [changed]
    assert RulePrefilter([rule]).candidates(views) == []
