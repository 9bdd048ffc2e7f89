"""Folding: idempotent, and a detected attack stays detected under the disguises folding
undoes (zero-width characters, look-alike letters, leetspeak); an accepted entry stays
accepted with an emoji added."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from script_loading import load_script

from agent_memory.domain import ThreatCategory, scan, scan_entry
from agent_memory.domain.threats.confusables_data import ASCII_READING
from agent_memory.domain.threats.folding import invisible_character, skeleton

ROOT = Path(__file__).resolve().parents[4]
CORPUS = [json.loads(line) for line in (ROOT / "tests/corpus/scanner_corpus.jsonl").open()]
# Plain-ASCII phrase attacks (no code syntax, no encodings): the ones the disguises apply to.
PHRASE_ATTACKS = [
    item["text"]
    for item in CORPUS
    if item["label"]
    in ("prompt_injection", "role_hijack", "prompt_extraction", "concealment", "deferred_tool_use")
    and item["text"].isascii()
    and "variant" not in item["source"]
    and scan(item["text"]) is not None  # the property is about attacks the scanner catches
]
# Benign facts the scanner accepts (the corpus's false positives, a few of the classifier's,
# are the ceiling test's business): the property is that an emoji does not change that.
BENIGN = [
    item["text"] for item in CORPUS if item["label"] == "benign" and scan(item["text"]) is None
]

# Letters and their look-alikes from other scripts, read from the Unicode data (TR39).
LOOK_ALIKES = {
    letter: sorted(chr(code) for code, reading in ASCII_READING.items() if reading == letter)
    for letter in "aceopxy"
}
LEET = {"a": "4", "e": "3", "o": "0", "s": "5", "t": "7", "i": "1"}
EMOJI = st.sampled_from(["🙂", "❤️", "👩\u200d💻", "🇩🇪", "👍🏽", "🏳️\u200d🌈", "1️⃣", "🐈\u200d⬛"])


def _disguise(text: str, data: st.DataObject, kind: str) -> str:
    chars = list(text)
    for index, char in enumerate(chars):
        if not data.draw(st.booleans(), label=f"change {index}"):
            continue
        if kind == "look-alike" and LOOK_ALIKES.get(char):
            chars[index] = data.draw(st.sampled_from(LOOK_ALIKES[char]))
        elif kind == "leet" and char in LEET:
            chars[index] = LEET[char]
    if kind == "zero-width":
        position = data.draw(st.integers(0, len(chars)))
        chars.insert(position, data.draw(st.sampled_from(["\u200b", "\u2060", "\ufeff"])))
    disguised = "".join(chars)
    if kind == "leet":
        # A word written in digits only reads as a number ("57473" is a postcode as much as
        # "state"): leetspeak keeps at least one letter of each word (one-for-one swaps, so
        # the disguised word is where the original one was).
        disguised = re.sub(r"[0-9A-Za-z]+", lambda word: _keep_a_letter(word, text), disguised)
    return disguised


def _keep_a_letter(word: re.Match[str], original: str) -> str:
    if word.group().isdigit() and not original[word.start() : word.end()].isdigit():
        return original[word.start()] + word.group()[1:]
    return word.group()


@given(text=st.text(max_size=200))
def test_folding_is_idempotent(text: str) -> None:
    assert skeleton(skeleton(text)) == skeleton(text)


@settings(max_examples=300)
@given(
    attack=st.sampled_from(PHRASE_ATTACKS),
    kind=st.sampled_from(["look-alike", "leet", "zero-width"]),
    data=st.data(),
)
def test_a_detected_attack_stays_detected_when_disguised(
    attack: str, kind: str, data: st.DataObject
) -> None:
    # GIVEN an attack the scanner refuses (PHRASE_ATTACKS holds only those)
    # WHEN letters are swapped for look-alikes or leetspeak, or an invisible character added
    disguised = _disguise(attack, data, kind)

    # THEN it is still refused (a zero-width character is refused as such)
    assert scan(disguised) is not None


@settings(max_examples=300)
@given(fact=st.sampled_from(BENIGN), emoji=EMOJI, at_end=st.booleans())
# a keycap's digit once made a fourth word, enough for the classifier to judge (and refuse)
@example(fact="token: YOUR_TOKEN_HERE", emoji="1\ufe0f\u20e3", at_end=False)
def test_an_accepted_entry_stays_accepted_with_an_emoji_added(
    fact: str, emoji: str, at_end: bool
) -> None:
    assert scan(fact) is None
    assert scan(f"{fact} {emoji}" if at_end else f"{emoji} {fact}") is None


@pytest.mark.parametrize(
    ("shouted", "reading"),
    [("INSTRUCTIONS!!!", "instructions!!!"), ("1gn0r3!!! all", "ignore!!! aii"), ("sh!t", "shit")],
)
def test_exclamation_marks_that_end_a_word_stay_punctuation(shouted: str, reading: str) -> None:
    # "!" inside a word reads as "i"; at its end it is punctuation (a helper found shouted
    # probes missed: "instructions!!!" read as "instructionsii!" ended no rule's word)
    assert skeleton(shouted) == reading


@pytest.mark.parametrize(
    ("disguised", "reading"),
    [
        ("behind the user'5 back", "behind the user's back"),
        ("isn'7 it", "isn't it"),
        ("wh47'5 the pw", "what's the pw"),  # and after leetspeak letters (found the same way)
        ("5'11 tall", "5'11 taii"),  # a height: no letter before the apostrophe
    ],
)
def test_a_leet_digit_after_an_apostrophe_reads_as_a_letter(disguised: str, reading: str) -> None:
    # The property above found "user'5": a digit after a letter and an apostrophe is leet too
    assert skeleton(disguised) == reading


@pytest.mark.parametrize(
    "text",
    [
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",
        "Family 👨\u200d👩\u200d👧",
        "Persian می\u200cخواهم",
        "Keycap 1️⃣ and heart ❤️",
        "Pride 🏳️\u200d🌈",
    ],
)
def test_sequences_real_text_needs_are_not_invisible(text: str) -> None:
    assert invisible_character(text) is None


@pytest.mark.parametrize(
    "char", ["\u034f", "\ufe00", "\ufe0f", "\u2800", "\U000e0041", "\u200d", "\u00ad", "\u3164"]
)
def test_invisible_characters_between_ascii_letters_are_refused(char: str) -> None:
    assert scan_entry(f"abc{char}def") == ThreatCategory.INVISIBLE_UNICODE


def test_the_look_alike_table_is_generated_from_the_unicode_data() -> None:
    # GIVEN the generator script, run against the pinned package's confusables.txt
    generator = load_script("generate_confusables")

    # WHEN the table is regenerated / THEN the committed module is exactly its output
    committed = (
        ROOT / "layers/agent_memory/agent_memory/domain/threats/confusables_data.py"
    ).read_text()
    assert committed == generator.generate()
    assert ASCII_READING[ord("а")] == "a"  # Cyrillic a
    assert ASCII_READING[ord("ο")] == "o"  # Greek omicron
