"""Encoded payloads: runs of base64, base32, hex, uuencode or ascii85, escapes,
percent-encoding, quoted-printable, Morse, Braille, rot13, reversed text and words cut into
pieces (``cut_words``) that a model could decode and follow.

Only what decodes to readable text is handed back to be scanned, so hashes, UUIDs, git
SHAs, integrity strings and keys (which decode to random bytes) pass untouched.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import quopri
import re
from collections.abc import Iterator

from agent_memory.domain.threats.cut_words import rejoined

# Each run pattern starts with one character of the run and only then looks behind it, so
# the engine skips to candidate characters at C speed (a leading lookbehind would be tried
# at every position).
_BASE64_RUN = re.compile(
    r"[A-Za-z0-9+/_-](?<![A-Za-z0-9+/=_-].)[A-Za-z0-9+/_-]{15,}={0,2}(?![A-Za-z0-9+/=_-])"
)
_BASE32_RUN = re.compile(r"[A-Z2-7](?<![A-Za-z0-9=].)[A-Z2-7]{15,}={0,6}(?![A-Za-z0-9=])")
_HEX_RUN = re.compile(
    r"[0-9A-Fa-f](?<![0-9A-Fa-f].)[0-9A-Fa-f](?:[0-9A-Fa-f]{2}){7,}(?![0-9A-Fa-f])"
)
# The class of each byte of a spaced hex run: "h" a hex digit, "s" a separator ("\\s", ":",
# ",", "-"), "x" any other. Text holds no run without _SPACED_HEX_SHAPE in its classes.
_HEX_CLASSES = bytes(
    ord("h")
    if chr(code) in "0123456789abcdefABCDEF"
    else ord("s")
    if chr(code).isspace() or chr(code) in ":,-"
    else ord("x")
    for code in range(256)
)
# Non-ASCII text is encoded with "?" for each other character, which may be a Unicode space.
_HEX_CLASSES_REPLACED = _HEX_CLASSES[: ord("?")] + b"s" + _HEX_CLASSES[ord("?") + 1 :]
_SPACED_HEX_SHAPE = b"hhs" * 7 + b"hh"
_ESCAPED_HEX_RUN = re.compile(r"(?:\\x[0-9A-Fa-f]{2}){6,}")
_PREFIXED_HEX_RUN = re.compile(r"(?:0x[0-9A-Fa-f]{2}[\s,]{0,3}){6,}")
_SPACED_HEX_RUN = re.compile(
    r"[0-9A-Fa-f](?<![0-9A-Fa-f].)[0-9A-Fa-f][\s:,-](?:[0-9A-Fa-f]{2}[\s:,-]){6,}[0-9A-Fa-f]{2}"
    r"(?![0-9A-Fa-f])"
)
# A uuencoded line: its first character gives the byte count, the rest lies in " " to "`",
# which holds no lower-case letter (so prose words are not runs).
_UU_LINE = re.compile(r"[!-M](?<![!-`].)[!-`]{15,60}(?![!-`])")
# An ascii85 run ("!" to "u"): only one with several symbols in it is tried, which ordinary
# long words (identifiers, paths) seldom hold.
_ASCII85_RUN = re.compile(r"[!-u](?<![!-u].)[!-u]{19,}(?![!-u])")
_ASCII85_SYMBOLS = re.compile(r"[!-/:-@\[-`]")
_MIN_ASCII85_SYMBOLS = 5
# Both encodings strew symbols that addresses and identifiers seldom hold through a word:
# without five of them close together no run is looked for (the search skips to the first
# such symbol at C speed).
_DENSE_SYMBOLS = re.compile(
    r"[!\"#$%'()*+,;<>@\[\\\]^`](?:[^ ]{0,8}?[!\"#$%'()*+,;<>@\[\\\]^`]){4}"
)
# Quoted-printable: "=3Cscript=3E". A query string holds "=20" too ("?w=20&h=40"), so the
# whole text is decoded (a second scan) only with at least four escapes, two of them ones a
# query seldom holds: markup brackets, "=" itself, line breaks.
_QUOTED_PRINTABLE = re.compile(r"=[0-9A-F]{2}")
_QUOTED_PRINTABLE_MARKERS = re.compile(r"=(?:3[CDE]|0[9AD])")
_MORSE_SEAMS = (". -", "- .", ". .", "- -")
_MIN_MORSE_SEPARATORS = 8
# Morse: ten or more letters of dots and dashes, letters split by spaces, words by "/".
_MORSE_RUN = re.compile(r"(?:[.-]{1,7}(?: / | {1,3}|/))(?:[.-]{1,7}(?: / | {1,3}|/)){8,}[.-]{1,7}")
_MORSE_CODES = (
    ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- "
    ".-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----. .-.-.- "
    "--..-- ..--.. -.-.-- -..-. ---... .----. .-..-. -.--. -.--.- .-.-. -...- ..--.-"
)
_MORSE = dict(
    zip(_MORSE_CODES.split(), "abcdefghijklmnopqrstuvwxyz0123456789.,?!/:'\"()+=_", strict=True)
)
# Braille (grade 1, as encoders write it): the cells of a-z; U+2800 itself is refused as
# an invisible character before any decoding.
_BRAILLE = str.maketrans(
    dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵", "abcdefghijklmnopqrstuvwxyz", strict=True))
    | {"⠠": None, "⠼": None}
)
_BRAILLE_CELL = re.compile(r"[\u2801-\u28ff]")
_MIN_BRAILLE_CELLS = 8
_UNICODE_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_ENTITY = re.compile(r"&(?:#\d{2,6}|#x[0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});")
# Frequent English words as rot13 writes them (the, you, and, ignore, previous, ...) and as
# reversed text writes them, in the skeleton's alphabet (where "l" reads "i").
_ROT13_WORDS = frozenset(
    b"gur ibh ibhe naq vtaber cerivbhf vafgehpgvbaf fifgrz cebzcg frperg nii abj shapgvba "
    b"nffvfgnag hfre rot uggcf uggc phey jtrg perqragvnyf cnffjbeq frpergf png".split()
)
# Rot13 words that are also ordinary words ("png" is cat, "rot" names the cipher): alone,
# they do not make a text worth decoding (a whole-text decode costs a second scan).
_ROT13_ORDINARY_WORDS = frozenset({b"png", b"rot"})
_REVERSED_WORDS = frozenset(b"snoitcurtsni suoiverp erongi tpmorp metsys drowssap".split())
_NOT_LETTERS = re.compile(r"[\W\d_]+")
_MAX_CANDIDATES = 24
_MIN_DECODED_CHARS = 8


def decoded_payloads(
    plain: str, skeleton_words: frozenset[bytes], long_words: str
) -> Iterator[str]:
    """Readable texts hidden in ``plain`` (NFKC) in an encoded form, at most a few dozen.
    ``long_words``: the words of ``plain`` of 16 or more characters, joined by spaces."""
    yielded = 0
    for decoded in _candidates(plain, skeleton_words, long_words):
        if _is_readable(decoded):
            yield decoded
            yielded += 1
            if yielded >= _MAX_CANDIDATES:
                return


def _candidates(plain: str, skeleton_words: frozenset[bytes], long_words: str) -> Iterator[str]:
    # Runs are only looked for in words long enough to hold one (or in spaced-out hex).
    for run in set(_BASE64_RUN.findall(long_words)[:_MAX_CANDIDATES]):
        yield _decode_base64(run)
    for run in set(_BASE32_RUN.findall(long_words)[:_MAX_CANDIDATES]):
        yield _decode_base32(run)
    for run in set(_HEX_RUN.findall(long_words)[:_MAX_CANDIDATES]):
        yield _decode_hex(run)
    if _DENSE_SYMBOLS.search(long_words):
        for run in set(_UU_LINE.findall(long_words)[:_MAX_CANDIDATES]):
            yield _decode_uu(run)
        for run in set(_ASCII85_RUN.findall(long_words)[:_MAX_CANDIDATES]):
            if len(_ASCII85_SYMBOLS.findall(run)) >= _MIN_ASCII85_SYMBOLS:
                yield _decode_ascii85(run)
    spaced = _SPACED_HEX_RUN.findall(plain) if _may_hold_spaced_hex(plain) else []
    if "\\x" in plain:
        spaced += _ESCAPED_HEX_RUN.findall(plain)
    if "0x" in plain:
        spaced += _PREFIXED_HEX_RUN.findall(plain)
    for run in set(spaced[:_MAX_CANDIDATES]):
        yield _decode_hex(run)
    if "\\u" in plain or "\\U" in plain:
        yield _UNICODE_ESCAPE.sub(_unescape_code_point, plain)
    if len(_PERCENT.findall(plain)) >= 4:
        yield _PERCENT_RUN.sub(_unquote_run, plain)
    if (
        "=" in plain
        and len(_QUOTED_PRINTABLE_MARKERS.findall(plain)) >= 2
        and len(_QUOTED_PRINTABLE.findall(plain)) >= 4
    ):
        yield quopri.decodestring(plain.encode("utf-8", "replace")).decode("utf-8", "replace")
    # Between two Morse letters stands ". -", "- .", ". ." or "- -" (prose seldom holds
    # them): counted at C speed first.
    if sum(map(plain.count, _MORSE_SEAMS)) >= _MIN_MORSE_SEPARATORS:
        for run in _MORSE_RUN.findall(plain)[:_MAX_CANDIDATES]:
            yield _decode_morse(run)
    if not plain.isascii() and len(_BRAILLE_CELL.findall(plain)) >= _MIN_BRAILLE_CELLS:
        yield plain.translate(_BRAILLE)
    if _ENTITY.search(plain):
        yield html.unescape(plain)
    rot13_words = _ROT13_WORDS.intersection(skeleton_words)
    if len(rot13_words) >= 2 or not rot13_words.issubset(_ROT13_ORDINARY_WORDS):
        yield codecs.encode(plain, "rot13")
    if not _REVERSED_WORDS.isdisjoint(skeleton_words):
        yield plain[::-1]
    joined = rejoined(plain)
    if joined is not None:
        yield joined


def _may_hold_spaced_hex(plain: str) -> bool:
    """False when ``plain`` cannot hold a spaced hex run: a byte translation and a substring
    test, where the run's search would start at every hex letter of ordinary prose."""
    if plain.isascii():
        return _SPACED_HEX_SHAPE in plain.encode("ascii").translate(_HEX_CLASSES)
    replaced = plain.encode("ascii", "replace")
    return _SPACED_HEX_SHAPE in replaced.translate(_HEX_CLASSES_REPLACED)


def _decode_base64(run: str) -> str:
    text = run.rstrip("=").replace("-", "+").replace("_", "/")
    try:
        return _as_text(base64.b64decode(text + "=" * (-len(text) % 4), validate=True))
    except (binascii.Error, ValueError):
        return ""


def _decode_base32(run: str) -> str:
    text = run.rstrip("=")
    try:
        return _as_text(base64.b32decode(text + "=" * (-len(text) % 8)))
    except (binascii.Error, ValueError):
        return ""


def _decode_uu(run: str) -> str:
    try:
        return _as_text(binascii.a2b_uu(run))
    except binascii.Error:
        return ""


def _decode_ascii85(run: str) -> str:
    try:
        return _as_text(base64.a85decode(run))
    except ValueError:
        return ""


def _decode_morse(run: str) -> str:
    words = re.split(r"\s*/\s*| {3}", run)
    return " ".join("".join(_MORSE.get(letter, "") for letter in word.split()) for word in words)


def _decode_hex(run: str) -> str:
    digits = re.sub(r"\\x|0x|[\s:,-]", "", run)
    try:
        return _as_text(bytes.fromhex(digits))
    except ValueError:
        return ""


def _unquote_run(run: re.Match[str]) -> str:
    return bytes.fromhex(run.group().replace("%", "")).decode("utf-8", "replace")


def _unescape_code_point(match: re.Match[str]) -> str:
    code = int(match.group(1) or match.group(2), 16)
    return chr(code) if code <= 0x10FFFF else ""


def _as_text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def _is_readable(text: str) -> bool:
    """Decoded text a model could read: mostly printable, with words in it."""
    if len(text) < _MIN_DECODED_CHARS:
        return False
    letters = len(_NOT_LETTERS.sub("", text))
    if letters < 0.5 * len(text):
        return False
    if text.isprintable():
        return True
    printable = sum(char.isprintable() or char in "\n\t" for char in text)
    return printable >= 0.95 * len(text)
