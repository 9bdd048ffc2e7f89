"""Folding: the text the threat rules read, and the invisible characters they refuse.

``skeleton`` is what phrase rules match: NFKC, then every look-alike character replaced by
the ASCII text a reader takes it for (Unicode's UTS #39 confusables data, see
``confusables_data``), marks and invisible characters dropped, lower case, the letters
``l`` and ``i`` merged (``I``, ``l``, ``1`` and ``|`` look alike in most fonts), and
leetspeak digits inside words read as letters. Rules are written in plain English and
compiled through ``fold_pattern``, so both sides are compared in the same alphabet, as
TR39 compares skeletons.

``invisible_character`` finds a character that hides text: every format character (Cf),
variation selectors, U+034F, U+2800 and the Hangul fillers, except in the sequences real
text needs (emoji ZWJ sequences, emoji tag sequences such as subdivision flags, an emoji
presentation selector after a symbol, joiners between letters of scripts that use them).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from agent_memory.domain.threats.confusables_data import ASCII_READING

_ZERO_WIDTH_JOINERS = frozenset({"\u200c", "\u200d"})
_EMOJI_PRESENTATION = "\ufe0f"
_TEXT_PRESENTATION = "\ufe0e"
# Invisible characters outside Cf: the combining grapheme joiner, the braille blank and the
# Hangul fillers render as nothing and are used to smuggle text between letters.
_INVISIBLE_OTHER = frozenset({"\u034f", "\u2800", "\u115f", "\u1160", "\u3164", "\uffa0"})
_VARIATION_SELECTORS = frozenset(chr(code) for code in range(0xFE00, 0xFE10))
_VARIATION_SELECTORS_SUPPLEMENT = range(0xE0100, 0xE01F0)
# A black flag followed by tag letters/digits and CANCEL TAG: a subdivision flag (England,
# Scotland, Wales). The tags are legitimate only in this shape.
_EMOJI_TAG_SEQUENCE = re.compile(
    "\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,7}\U000e007f"
)

# Leetspeak: inside a word that holds a letter, these stand for letters. Symbols count only
# inside the word ("p@ss"), so "$HOME", "user@" edges and "Stop!" keep their meaning.
_LEET_DIGITS = str.maketrans("013456789", "oieasgtbg")
_LEET_SYMBOLS = str.maketrans("@$!|", "asii")
# letter -> the characters that may read as it
_LEET_TABLE = {**_LEET_DIGITS, **_LEET_SYMBOLS}
LEET_READINGS: dict[str, str] = {
    letter: "".join(chr(code) for code, read in _LEET_TABLE.items() if read == ord(letter))
    for letter in set("oieasgtbg")
}
# A leetspeak word is a run of these characters holding both a letter and one of the rest.
# It is found from a seam (a digit or symbol next to a letter) rather than matched from each
# run's start: the patterns begin with a rare character, so the engine skips to it at C
# speed instead of trying every letter of the text.
_LEET_WORD_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789@$!|")
# A digit after a letter and an apostrophe is a seam too: "user'5" is "user's", "isn'7" "isn't",
# and so after a letter and up to three leetspeak ones ("wh47'5" is "what's"; a height such as
# 5'11 has no letter before it).
_AFTER_APOSTROPHE = "|".join(rf"(?<=[a-z][0-9@$!|]{{{count}}}'[0-9])" for count in range(4))
_LEET_SEAM = re.compile(
    rf"[0-9@$!|](?:(?<=[a-z][0-9@$!|])|{_AFTER_APOSTROPHE}|(?=[a-z]))[a-z0-9@$!|]*"
)
_LEET_CHARACTER = re.compile(r"[0-9@$!|]")
# In a text with this many leetspeak words, "70" and "4" stand for "to" and "a".
_LEET_TEXT_WORDS = 3
# 1 to 3 digits, not inside a longer token; and 1 to 3 digits between two words. The
# lookbehind follows the first digit for the same reason as the seam.
_SHORT_NUMBER = re.compile(r"\d(?<![\w.,:/@$-]\d)\d{0,2}(?![\w.,:/%-])")
_NUMBER_BETWEEN_WORDS = re.compile(r"\d(?<=[a-z] \d)\d{0,2}(?= [a-z])")
_MAX_CACHED_CHARACTERS = 20_000
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def nfkc(text: str) -> str:
    """NFKC; ASCII text is its own NFKC form, and the test costs far less than the call."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


def skeleton(text: str) -> str:
    """The folded form phrase rules match. Idempotent: skeleton(skeleton(t)) == skeleton(t)."""
    return read_leetspeak(skeleton_before_leetspeak(text))


def skeleton_before_leetspeak(text: str) -> str:
    """The skeleton but for leetspeak: ``read_leetspeak`` of it is the skeleton. Reading
    leetspeak changes characters in place (one for one), which lets the prefilter match
    this text with letters widened to their readings (``LEET_READINGS``)."""
    folded = nfkc(text)
    if not folded.isascii():
        folded = _NON_ASCII_RUN.sub(_fold_run, folded)
    return folded.lower().replace("l", "i")


def read_leetspeak(folded: str) -> str:
    """Leetspeak words of a folded text read as letters, one character for one."""
    if _LEET_CHARACTER.search(folded) is None:
        return folded
    folded, leet_words = _fold_leet_words(folded)
    # A short number between two words reads as a word ("act 45 though" is "act as though");
    # in a leetspeak text, every short number does ("70 7h3" is "to the").
    number = _SHORT_NUMBER if leet_words >= _LEET_TEXT_WORDS else _NUMBER_BETWEEN_WORDS
    return number.sub(_read_number, folded)


def fold_pattern(source: str) -> str:
    """A regular expression written in plain English (or another language), in the
    skeleton's alphabet: letters outside escapes fold as the text does ('l' becomes 'i',
    a Cyrillic 'о' becomes 'o'). Digits are left alone (they are quantifiers), so rule text
    spells words with letters only, and non-ASCII letters never appear in a class."""
    out: list[str] = []
    escaped = False
    for char in source:
        if escaped:
            out.append(char)
            escaped = False
            continue
        if char == "\\":
            escaped = True
            out.append(char)
            continue
        out.append(_fold_character(char))
    return "".join(out)


def invisible_character(text: str) -> str | None:
    """A character that hides text, or None. Allowed sequences are not reported."""
    if text.isascii():  # every invisible or format character lies outside ASCII
        return None
    suspects = [char for char in set(text) if not char.isascii() and _maybe_invisible(char)]
    if not suspects:
        return None
    text = _EMOJI_TAG_SEQUENCE.sub("\U0001f3f4", text)
    for char in suspects:
        index = text.find(char)
        while index != -1:
            if not _allowed_at(text, index):
                return char
            index = text.find(char, index + 1)
    return None


def _allowed_at(text: str, index: int) -> bool:
    char = text[index]
    if char in _ZERO_WIDTH_JOINERS:
        return _is_script_joiner(text, index)
    if char in (_EMOJI_PRESENTATION, _TEXT_PRESENTATION):
        return _follows_symbol(text, index)
    return False


def _maybe_invisible(char: str) -> bool:
    return (
        char in _INVISIBLE_OTHER
        or char in _VARIATION_SELECTORS
        or ord(char) in _VARIATION_SELECTORS_SUPPLEMENT
        or unicodedata.category(char) == "Cf"
    )


def _is_script_joiner(text: str, index: int) -> bool:
    """ZWJ/ZWNJ join emoji and letters of scripts such as Persian or Devanagari. Next to
    an ASCII character on both sides they only hide data; and since an allowed joiner
    always touches a non-ASCII character, it cannot split an ASCII keyword."""
    if index == 0 or index == len(text) - 1:
        return False
    before, after = text[index - 1], text[index + 1]
    if before.isascii() and after.isascii():
        return False
    return _is_joinable(before) and _is_joinable(after)


def _is_joinable(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LM" or category in ("So", "Sk") or char == _EMOJI_PRESENTATION


def _follows_symbol(text: str, index: int) -> bool:
    """A presentation selector belongs after an emoji-capable symbol or a keycap base."""
    if index == 0:
        return False
    before = text[index - 1]
    return unicodedata.category(before) in ("So", "Sk", "Sm") or before in "0123456789#*"


class _FoldTable(dict[int, str | None]):
    """str.translate table that folds one character at a time and remembers the answer."""

    def __init__(self, fold: Callable[[str], str]) -> None:
        super().__init__()
        self._fold = fold

    def __missing__(self, code: int) -> str | None:
        folded = self._fold(chr(code)) or None
        if len(self) < _MAX_CACHED_CHARACTERS:
            self[code] = folded
        return folded


def _fold_run(run: re.Match[str]) -> str:
    return run.group().translate(_FOLD_TABLE)


def _fold_character(char: str) -> str:
    if char.isascii():
        return _fold_ascii(char.lower())
    if _maybe_invisible(char) or unicodedata.category(char) == "Mn":
        return ""
    reading = ASCII_READING.get(ord(char))
    if reading is not None:
        return _fold_ascii(reading)
    decomposed = unicodedata.normalize("NFD", char)
    base = "".join(part for part in decomposed if unicodedata.category(part) != "Mn")
    if base != decomposed:  # a letter with marks reads as its base letter
        return "".join(_fold_character(part) for part in base)
    lowered = char.lower()
    if lowered != char:
        return "".join(_fold_character(part) for part in lowered)
    return char


def _fold_ascii(text: str) -> str:
    return text.lower().replace("l", "i")


def _read_number(number: re.Match[str]) -> str:
    return number.group().translate(_LEET_DIGITS)


def _fold_leet_words(text: str) -> tuple[str, int]:
    """Every leetspeak word read as letters, and how many there were."""
    pieces: list[str] = []
    done = 0  # text[:done] is folded
    for seam in _LEET_SEAM.finditer(text):  # a seam and the rest of its word
        start, end = seam.span()
        while start > done and text[start - 1] in _LEET_WORD_CHARACTERS:
            start -= 1
        pieces += (text[done:start], _read_leet(text[start:end]))
        done = end
    if not pieces:
        return text, 0
    pieces.append(text[done:])
    return "".join(pieces), len(pieces) // 2


def _read_leet(word: str) -> str:
    # Exclamation marks that end a word are punctuation ("INSTRUCTIONS!!!"), not an "i".
    core = word.rstrip("!")
    text = core.translate(_LEET_DIGITS)
    if len(text) > 2:
        text = text[0] + text[1:-1].translate(_LEET_SYMBOLS) + text[-1]
    return text + word[len(core) :]


_FOLD_TABLE = _FoldTable(_fold_character)
