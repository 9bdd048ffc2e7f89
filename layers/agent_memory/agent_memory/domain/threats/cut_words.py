"""Words cut into pieces that a reader, and a model, joins again: "sys-tem pro-mpt",
"Ig.no.re th.e ru.les", "[dis][re][gard] [safe][ty]", "h t t p s : / / x . e x a m p l e".

``rejoined`` hands back the text with the pieces joined, for the scanner to read as it reads
a decoded payload. Only a text whose joined pieces spell words an attack is made of
(ignore, system, prompt, rules...) is handed back: ordinary text is full of hyphens and dots
("co-op", "e.g.", "v1.2"), and a text handed back costs a second scan.
"""

from __future__ import annotations

import re

__all__ = ["rejoined"]

# A token in pieces of at most five letters between hyphens or dots: "ver-ba-tim", "th.e".
_CUT_TOKEN = re.compile(r"([^\W\d_]{1,5}(?:[-.][^\W\d_]{1,5})+)([^\w]*)")
_SEPARATORS = str.maketrans("", "", "-.")
# Pieces in brackets side by side: "[dis][re][gard]".
_BRACKETED_WORD = re.compile(r"(?:\[[^\[\]\s]{1,6}\]){2,}")
_BRACKETS = str.maketrans("", "", "[]")
_WORD = re.compile(r"\w+")
# Single characters between single spaces, at least six of them: "h t t p s : / /".
_SPACED_RUN = re.compile(r"(?<!\S)\S(?: \S){5,}(?!\S)")
_SIX_SPACED = re.compile(r"\S \S \S \S \S \S")
# A spaced run is a disguise when it spells an address or an attack's word.
_SPACED_WORDS = ("http", "www", "ignore", "system", "prompt", "password", "secret")
_ATTACK_WORDS_TEXT = (
    "ignore disregard forget override bypass system prompt instructions instruction reveal "
    "rules policies policy safety verbatim password passwords secret secrets exfiltrate "
    "jailbreak unrestricted restrictions filters previous above obey execute https http "
    "credentials token tokens admin developer"
)
_ATTACK_WORDS = frozenset(_ATTACK_WORDS_TEXT.split())
_MIN_ATTACK_WORDS = 2


def rejoined(plain: str) -> str | None:
    """``plain`` with its cut words joined, or None when joining spells no attack's words."""
    found = 0
    pieces: list[str] = []
    for token in plain.split(" "):
        if ("-" in token or "." in token) and (cut := _CUT_TOKEN.fullmatch(token)):
            joined = cut.group(1).translate(_SEPARATORS)
            found += joined.lower() in _ATTACK_WORDS
            token = joined + cut.group(2)
        elif "][" in token and _BRACKETED_WORD.search(token):
            token = token.translate(_BRACKETS)
            found += sum(word.lower() in _ATTACK_WORDS for word in _WORD.findall(token))
        pieces.append(token)
    text = " ".join(pieces)
    if _SIX_SPACED.search(text):  # a search without look-behinds first: C speed, no backtracking
        for run in _SPACED_RUN.findall(text):
            joined = run.replace(" ", "")
            found += _MIN_ATTACK_WORDS * any(word in joined.lower() for word in _SPACED_WORDS)
            text = text.replace(run, joined)
    return text if found >= _MIN_ATTACK_WORDS and text != plain else None
