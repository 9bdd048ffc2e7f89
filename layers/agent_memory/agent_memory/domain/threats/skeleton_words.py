"""Words of any language written into a rule as the skeleton reads them, for the rule
tables that spell one phrase in many languages (``rules.translated_overrides``,
``rules.translated_concealment``): a table keeps each language's own spelling, and these
turn it into pattern text and triggers that see what the text becomes."""

from __future__ import annotations

import re

from agent_memory.domain.threats.folding import skeleton

__all__ = ["CLAUSE_GAP", "alternatives", "skeleton_source", "trigger"]

# Up to forty characters within one clause, in spaced and unspaced scripts alike.
CLAUSE_GAP = r"[^.!?\n。！？]{0,40}?"


def skeleton_source(text: str) -> str:
    """``text`` as a pattern of its skeleton, a space as any spaces."""
    return r"\s+".join(re.escape(skeleton(part)) for part in text.split())


def alternatives(words: str) -> str:
    """``|``-separated words as one group of alternatives (``skeleton_source`` each)."""
    return "(?:" + "|".join(skeleton_source(word) for word in words.split("|")) + ")"


def trigger(word: str) -> str:
    """A trigger for ``word``: a word of the skeleton when it is ASCII there, else a
    substring (which is searched only in a skeleton that is not ASCII)."""
    folded = skeleton(word)
    return folded if folded.isascii() and folded.isalpha() else f"~{folded}"
