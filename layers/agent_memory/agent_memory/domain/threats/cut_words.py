"""Words cut into pieces that a reader, and a model, joins again: "sys-tem pro-mpt",
"Ig.no.re th.e ru.les", "[dis][re][gard] [safe][ty]", "h t t p s : / / x . e x a m p l e".

``rejoined`` hands back the text with the pieces joined, for the scanner to read as it reads
a decoded payload. A text is rejoined only when three or more of its words are cut so (a
hyphenated word, a version number or one spaced-out heading is not a disguise), or when
it holds a run of single characters long enough to spell a word.
"""

from __future__ import annotations

import re

__all__ = ["rejoined"]

# A word in pieces of at most five letters between hyphens or dots: "ver-ba-tim", "th.e".
_CUT_WORD = re.compile(r"(?<![\w.-])[^\W\d_]{1,5}(?:[-.][^\W\d_]{1,5}){1,8}(?![\w-]|\.\w)")
_SEPARATOR = re.compile(r"[-.]")
# Pieces in brackets side by side: "[dis][re][gard]".
_BRACKETED_PIECES = re.compile(r"\[([^\[\]\s]{1,6})\](?=\[)|(?<=\])\[([^\[\]\s]{1,6})\]")
# Single characters between single spaces, at least six of them: "h t t p s : / /".
_SPACED_RUN = re.compile(r"(?<!\S)\S(?: \S){5,}(?!\S)")
_MIN_CUT_WORDS = 3
_MIN_BRACKETED = 3


def rejoined(plain: str) -> str | None:
    """``plain`` with its cut words joined, or None when it holds too few to be a disguise."""
    text = plain
    if plain.count("-") + plain.count(".") >= _MIN_CUT_WORDS:
        cut = _CUT_WORD.findall(plain)
        if len(cut) >= _MIN_CUT_WORDS:
            text = _CUT_WORD.sub(lambda word: _SEPARATOR.sub("", word.group()), text)
    if text.count("][") >= _MIN_BRACKETED - 1:
        text = _BRACKETED_PIECES.sub(lambda piece: piece.group(1) or piece.group(2), text)
    text = _SPACED_RUN.sub(lambda run: run.group().replace(" ", ""), text)
    return None if text == plain else text
