"""Word lists the instruction rule families share (``rules.instructions``, ``rules.pivots``)."""

from __future__ import annotations

from agent_memory.domain.threats.threat_rule import words

WORD = r"(?:\s+[\w'’-]+)"  # one more word
OVERRIDE_VERBS = words(
    "ignore", "ignoring", "disregard", "disregarding", "forget", "override", "overrule",
    "ingore", "ignroe", "igonre", "ignor", "disreguard", "disregad", "dsiregard", "forgt",
    "bypass", "abandon", "discard", "dismiss", "neglect", "set aside", "throw out", "erase",
    "nullify", "void", "scrap", "ditch", "put aside", "pay no attention to", "unlearn",
    "stop following", "no longer follow", "do not follow", "don'?t follow", "never follow",
    "do not obey", "don'?t obey", "stop obeying", "cease following", "skip",
    "pay no heed to", "take no notice of", "do not listen to", "don'?t listen to",
    "stop listening to", "never ?mind", "regardless of", "irrespective of",
)  # fmt: skip
EARLIER = words(
    "previous", "previously", "prior", "preceding", "above", "earlier", "foregoing", "allprevious",
    "allprior",
    "original", "initial", "system", "developer", "your", "all", "any", "every", "existing",
    "safety", "ethical", "moral", "content", "built-in", "internal", "programmed", "given",
    "preset", "hidden", "core", "those", "these",
)  # fmt: skip
DIRECTIVES = (
    r"(?:instructions?|prompts?|rules|directives?|guidelines|guidance|guardrails|constraints|"
    r"commands|orders|polic(?:y|ies)|restrictions|limitations|programming|training|"
    r"conditioning|safeguards|filters|ethics|principles|system\s+messages?|context|directions|"
    r"(?:security|safety)\s+(?:measures|protocols)|protocols|intructions?|instuctions?|insructions?|"
    r"instrucions?|instrutions?|instrucitons?|instrctions?|intsructions?|instructons?|"
    r"isntructions?|insturctions?|instuctoins?|promts?)\b"
)
# What a jailbroken persona is said to produce (``rules.roleplay``, ``rules.persona_upkeep``).
HARMFUL = (
    r"(?:illegal|unethical|immoral|harmful|dangerous|offensive|derogatory|nsfw|explicit|"
    r"inappropriate|violent|racist|sexist|hateful|vulgar|obscene|amoral|unsafe|malicious|"
    r"disgusting|controversial|graphic|sexual|prohibited|forbidden|unlawful|criminal)"
)
HARMFUL_LIST = rf"{HARMFUL}(?:\s*(?:,|and|or|/)\s*(?:or\s+|and\s+)?{HARMFUL}){{0,4}}"
