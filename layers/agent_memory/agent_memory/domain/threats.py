"""Threat scanning of memory entries.

Stored memory is injected into every future prompt, so an entry is scanned before it is
written. Matching runs on the NFKC form (fullwidth and compatibility look-alikes fold to
ASCII). This is a pattern scanner: it raises the cost of an attack, it does not make stored
text trustworthy, which is why the prompt still frames the block as untrusted data.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping
from enum import StrEnum
from itertools import pairwise
from types import MappingProxyType


class ThreatCategory(StrEnum):
    PROMPT_INJECTION = "prompt_injection"
    ROLE_HIJACK = "role_hijack"
    EXFILTRATION = "exfiltration"
    CREDENTIAL = "credential"
    INVISIBLE_UNICODE = "invisible_unicode"


THREAT_REASONS: Mapping[ThreatCategory, str] = MappingProxyType(
    {
        ThreatCategory.PROMPT_INJECTION: (
            "it reads as an instruction to ignore or override earlier instructions"
        ),
        ThreatCategory.ROLE_HIJACK: (
            "it tries to change the assistant's role or to forge or reveal a system prompt"
        ),
        ThreatCategory.EXFILTRATION: (
            "it asks to send conversation data or secrets to an outside destination"
        ),
        ThreatCategory.CREDENTIAL: (
            "it looks like a secret or credential, and memory must never hold secrets"
        ),
        ThreatCategory.INVISIBLE_UNICODE: (
            "it contains invisible or bidirectional-control Unicode characters"
        ),
    }
)

WITHHELD_PLACEHOLDER = "[entry withheld: it does not pass the current memory safety rules]"

_ZERO_WIDTH_JOINERS = frozenset({"\u200c", "\u200d"})
# Invisible characters outside the Cf category that are used to smuggle text.
_INVISIBLE_FILLERS = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0"})
_VARIATION_SELECTORS_SUPPLEMENT = range(0xE0100, 0xE01F0)

_I = re.IGNORECASE

_OVERRIDE = r"(?:ignore|disregard|forget|override|overrule|bypass|skip|abandon)"
_EARLIER = r"(?:previous|prior|preceding|above|earlier|foregoing|original|initial|system|developer)"
_DIRECTIVES = (
    r"(?:instructions?|prompts?|rules|directives?|guidelines|guardrails|constraints|commands)"
)

_PROMPT_INJECTION = (
    re.compile(
        rf"\b{_OVERRIDE}\b[\w\s,'-]{{0,40}}?\b{_EARLIER}\s+(?:\w+\s+){{0,2}}?{_DIRECTIVES}\b", _I
    ),
    re.compile(
        rf"\b{_OVERRIDE}\s+(?:all\s+)?(?:of\s+)?your\s+(?:\w+\s+){{0,2}}?"
        rf"(?:{_DIRECTIVES}|programming|training)\b",
        _I,
    ),
    re.compile(rf"\b{_OVERRIDE}\s+(?:all|any)\s+(?:other\s+)?(?:instructions|guidelines)\b", _I),
    re.compile(r"\bdo\s+not\s+(?:follow|obey)\s+(?:the\s+|your\s+|any\s+)?" + _EARLIER, _I),
    re.compile(r"\b(?:new|updated|real|actual|true)\s+instructions\s*:", _I),
)

_ROLE_HIJACK = (
    re.compile(r"\byou\s+are\s+(?:now|no\s+longer)\b", _I),
    re.compile(r"\bfrom\s+now\s+on\s*,?\s+you\s+(?:are|will\s+be|shall\s+be|must\s+act)\b", _I),
    re.compile(r"\bpretend\s+(?:to\s+be|that\s+you\s+are|you\s+are)\b", _I),
    re.compile(r"\byour\s+(?:new\s+|real\s+|true\s+)?(?:role|persona|identity)\s+is\b", _I),
    re.compile(
        r"\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?"
        r"(?:unrestricted|unfiltered|uncensored|jailbroken)\b",
        _I,
    ),
    re.compile(
        r"\b(?:enable|enter|activate|switch\s+to|turn\s+on)\s+(?:the\s+)?"
        r"(?:dan|god|jailbreak|unrestricted|unfiltered)\s+mode\b",
        _I,
    ),
    re.compile(
        r"\b(?:new|updated|override|replacement)\s+system\s+(?:prompt|message|instructions)\b", _I
    ),
    re.compile(
        r"\b(?:reveal|print|show|output|repeat|leak|dump)\s+(?:me\s+)?(?:your|the)\s+"
        r"(?:full\s+|entire\s+|hidden\s+)?(?:system\s+prompt|system\s+message|"
        r"hidden\s+instructions|initial\s+instructions)\b",
        _I,
    ),
    # Chat-template and role markers that could make the model see a new conversation turn.
    re.compile(
        r"<\|\s*(?:im_start|im_end|system|assistant|user|endoftext|start_header_id|"
        r"end_header_id|eot_id)\s*\|>|\[/?INST\]|<</?SYS>>|<\s*/?\s*(?:system|assistant|developer)\s*>",
        _I,
    ),
    re.compile(r"^\s*#{1,6}\s*(?:system(?:\s+prompt)?|instructions?)\s*:?\s*$", _I | re.MULTILINE),
)

_SEND = r"(?:send|post|upload|forward|transmit|exfiltrate|leak|e-?mail|pipe|submit)"
_SENSITIVE = (
    r"(?:conversations?|chats?|chat\s+history|transcripts?|messages|secrets?|credentials?|"
    r"api[\s_-]?keys?|tokens?|passwords?|memor(?:y|ies)|system\s+prompt|"
    r"environment(?:\s+variables)?|env(?:\s+vars?)?|personal\s+data|user\s+data)"
)
_DESTINATION = (
    r"(?:https?://|ftp://|www\.|webhook|pastebin|ngrok|requestbin|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
)
_SECRET_VARIABLE = r"\$\{?\w*(?:key|token|secret|pass(?:word)?|credential|auth)\w*\}?"

_EXFILTRATION = (
    re.compile(
        rf"\b{_SEND}\b[^\n]{{0,80}}?\b{_SENSITIVE}\b[^\n]{{0,80}}?"
        rf"(?:\bto\b|\binto\b|\bvia\b|\bat\b|=>|->)[^\n]{{0,40}}?{_DESTINATION}",
        _I,
    ),
    re.compile(
        r"\b(?:curl|wget|invoke-webrequest|invoke-restmethod|iwr|irm|nc|ncat|netcat)\b"
        rf"[^\n]{{0,200}}?(?:{_SECRET_VARIABLE}|\$\(\s*(?:env|printenv|cat|set)\b|"
        r"`\s*(?:env|printenv|cat)\b|~/\.aws|~/\.ssh|\.env\b|/etc/(?:passwd|shadow)|"
        r"\bid_rsa\b|\bcredentials\b)",
        _I,
    ),
    # A markdown image whose URL carries a query string leaks data when a client renders it.
    re.compile(r"!\[[^\]\n]*\]\(\s*https?://[^)\s]*\?[^)\s]*=", _I),
)

_SECRET_NAME = (
    r"(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|"
    r"secret[_-]?key|client[_-]?secret|private[_-]?key)"
)
# A value that is a reference (${VAR}, <placeholder>, %s, ***) or a plain number is no secret.
_NOT_A_PLACEHOLDER = r"(?![$<{%*])(?!\d+\b)"

_CREDENTIAL = (
    re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"),
    re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"),
    re.compile(r"\bbearer\s+[A-Za-z0-9\-._~+/]{16,}=*", _I),
    re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s/:@]+:[^\s/@]+@", _I),
    re.compile(
        r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}"
        r"|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|sk_(?:live|test)_[A-Za-z0-9]{16,}"
        r"|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})"
    ),
    re.compile(rf"{_SECRET_NAME}['\"]?\s*=\s*['\"]?{_NOT_A_PLACEHOLDER}[^\s'\"]{{4,}}", _I),
    # A colon is also ordinary prose ("password: at least 12 characters"), so a colon
    # assignment counts only when the value looks machine-made (holds a digit or symbol).
    re.compile(
        rf"{_SECRET_NAME}['\"]?\s*:\s*['\"]?{_NOT_A_PLACEHOLDER}"
        r"(?=[^\s'\"]*[\d_\-+/=!@#%^&])[^\s'\"]{6,}",
        _I,
    ),
)

_TOKEN_CANDIDATE = re.compile(r"[A-Za-z0-9+/=_-]{32,}")
_MIN_TOKEN_ENTROPY_BITS = 4.0
# Random tokens switch between upper case, lower case and digits at about 0.6 of their
# positions; identifiers such as CamelCaseNames or snake_case_names stay well below 0.45.
_MIN_CLASS_SWITCH_RATE = 0.45

_PATTERNS: tuple[tuple[ThreatCategory, tuple[re.Pattern[str], ...]], ...] = (
    (ThreatCategory.PROMPT_INJECTION, _PROMPT_INJECTION),
    (ThreatCategory.ROLE_HIJACK, _ROLE_HIJACK),
    (ThreatCategory.EXFILTRATION, _EXFILTRATION),
    (ThreatCategory.CREDENTIAL, _CREDENTIAL),
)


def scan_entry(text: str) -> ThreatCategory | None:
    """The first threat category the entry falls into, or None when it looks benign."""
    folded = unicodedata.normalize("NFKC", text)
    if _has_invisible_character(folded):
        return ThreatCategory.INVISIBLE_UNICODE
    for category, patterns in _PATTERNS:
        if any(pattern.search(folded) for pattern in patterns):
            return category
    if any(_looks_random(token) for token in _TOKEN_CANDIDATE.findall(folded)):
        return ThreatCategory.CREDENTIAL
    return None


def _has_invisible_character(text: str) -> bool:
    if text.isascii():  # every invisible or format character lies outside ASCII
        return False
    for index, char in enumerate(text):
        if char in _ZERO_WIDTH_JOINERS:
            if not _is_script_joiner(text, index):
                return True
        elif (
            unicodedata.category(char) == "Cf"
            or char in _INVISIBLE_FILLERS
            or ord(char) in _VARIATION_SELECTORS_SUPPLEMENT
        ):
            return True
    return False


def _is_script_joiner(text: str, index: int) -> bool:
    """ZWJ/ZWNJ are needed in emoji sequences and in scripts such as Persian or Devanagari.
    Next to an ASCII character on both sides they only hide data; and since an allowed
    joiner always touches a non-ASCII character, it cannot split an ASCII keyword."""
    if index == 0 or index == len(text) - 1:
        return False
    before, after = text[index - 1], text[index + 1]
    if before.isascii() and after.isascii():
        return False
    return _is_joinable(before) and _is_joinable(after)


def _is_joinable(char: str) -> bool:
    category = unicodedata.category(char)
    return category[0] in "LM" or category in ("So", "Sk")


def _looks_random(token: str) -> bool:
    alphanumeric = [char for char in token if char.isalnum()]
    classes = [_character_class(char) for char in alphanumeric]
    if len(set(classes)) < 3:
        return False
    switches = sum(a != b for a, b in pairwise(classes))
    if switches / (len(classes) - 1) < _MIN_CLASS_SWITCH_RATE:
        return False
    counts = Counter(token)
    entropy = -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())
    return entropy >= _MIN_TOKEN_ENTROPY_BITS


def _character_class(char: str) -> str:
    if char.isdigit():
        return "digit"
    return "upper" if char.isupper() else "lower"
