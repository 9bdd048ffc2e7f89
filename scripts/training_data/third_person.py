"""Persona facts rewritten in the third person, as a memory store holds them.

    python3 -m scripts.training_data.third_person \
        training/benign.jsonl training/benign_third_person.jsonl

A model saves "The user has two brothers", not "I have two brothers"; the public attack
data says "the user" far more often than the public benign data does (688 of 2,552
attacks, 75 of 6,868 benign texts), so a classifier trained on it read "the user" itself as
a threat. Each first-person persona fact whose sentences all start with a form below is
rewritten (others are left out), its source named as derived from the original's.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

_SUBJECTS = ("The user", "User", "She", "He")
_IRREGULAR = {"am": "is", "have": "has", "was": "was", "do": "does", "go": "goes"}
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")
_FIRST_PERSON = re.compile(r"(?:i|I) ([a-z]+)\b(.*)", re.S)
_POSSESSIVE = re.compile(r"\bmy\b", re.I)
_ME = re.compile(r"\bme\b")
_MYSELF = re.compile(r"\bmyself\b")
_I = re.compile(r"\bi\b")
# Adverbs that may stand between "I" and the verb ("I just got", "I also like").
_ADVERBS = frozenset(
    [
        "just",
        "also",
        "never",
        "always",
        "really",
        "still",
        "usually",
        "often",
        "sometimes",
        "only",
        "even",
        "recently",
        "currently",
        "mostly",
        "rarely",
        "actually",
        "already",
    ]
)
_LEFT_OVER = re.compile(r"\b(?:am|i'm|im|i've|i'd|i'll|was growing)\b", re.I)
# Modal verbs and irregular past tenses read the same in the third person.
_UNCHANGED = frozenset(
    [
        "can",
        "will",
        "would",
        "could",
        "should",
        "might",
        "must",
        "had",
        "got",
        "went",
        "did",
        "made",
        "took",
        "grew",
        "lost",
        "won",
        "met",
        "saw",
        "left",
        "bought",
        "became",
        "began",
        "broke",
        "came",
        "fell",
        "felt",
        "found",
        "gave",
        "knew",
        "read",
        "ran",
        "said",
        "sold",
        "spent",
        "told",
        "thought",
        "wrote",
    ]
)
_SUBJECT_PRONOUN = {"The user": "the user", "She": "she", "He": "he"}


def _third_person(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("s", "sh", "ch", "x")):
        return f"{verb}es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return f"{verb[:-1]}ies"
    if verb.endswith("ed") or verb in _UNCHANGED:
        return verb
    return f"{verb}s"


def rewrite(text: str) -> str | None:
    """``text`` in the third person, or None when a sentence does not start with "I" or "My"."""
    subject = _SUBJECTS[hashlib.sha256(text.encode()).digest()[0] % len(_SUBJECTS)]
    pronoun = {"She": "her", "He": "his"}.get(subject, "their")
    out = []
    for sentence in (s.strip() for s in _SENTENCE.findall(text)):
        if not sentence:
            continue
        if sentence.lower().startswith("my "):
            rest = sentence[3:]
            owner = "The user's" if subject in {"The user", "User"} else pronoun.capitalize()
            rewritten = f"{owner} {rest}"
        else:
            match = _FIRST_PERSON.fullmatch(sentence)
            if match is None:
                return None
            verb, rest = match.groups()
            adverb = ""
            if verb in _ADVERBS:
                following = re.match(r" ([a-z]+)\b(.*)", rest, re.S)
                if following is None:
                    return None
                adverb, (verb, rest) = f" {verb}", following.groups()
            rewritten = f"{subject}{adverb} {_third_person(verb)}{rest}"
        rewritten = _POSSESSIVE.sub(pronoun, rewritten)
        rewritten = _MYSELF.sub("themselves" if pronoun == "their" else f"{pronoun}self", rewritten)
        rewritten = _ME.sub("them" if pronoun == "their" else pronoun, rewritten)
        rewritten = _I.sub(_SUBJECT_PRONOUN.get(subject, "they"), rewritten)
        if _LEFT_OVER.search(rewritten):
            return None  # a first-person form this rewrite does not know
        out.append(rewritten)
    return " ".join(out) if out else None


def main(source: Path, target: Path) -> int:
    written = 0
    with target.open("w", encoding="utf-8") as out:
        for line in source.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if "Synthetic-Persona-Chat" not in item["source"]:
                continue
            text = rewrite(item["text"])
            if text is None:
                continue
            derived = {
                "text": text,
                "label": "benign",
                "source": f"third-person rewrite of {item['source']}",
            }
            out.write(json.dumps(derived, ensure_ascii=False) + "\n")
            written += 1
    print(f"wrote {written} facts to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]), Path(sys.argv[2])))
