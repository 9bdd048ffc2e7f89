"""What the scanner can find: the categories the model is told, and the rule codes behind
them (for tests and docs; neither ever carries the matched text)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class ThreatCategory(StrEnum):
    PROMPT_INJECTION = "prompt_injection"
    ROLE_HIJACK = "role_hijack"
    PROMPT_EXTRACTION = "prompt_extraction"
    FORGED_TURN = "forged_turn"
    HIDDEN_MARKUP = "hidden_markup"
    CONCEALMENT = "concealment"
    DEFERRED_TOOL_USE = "deferred_tool_use"
    EXFILTRATION = "exfiltration"
    PERSISTENCE = "persistence"
    COMMAND_AND_CONTROL = "command_and_control"
    CREDENTIAL = "credential"
    INVISIBLE_UNICODE = "invisible_unicode"
    ENCODED_PAYLOAD = "encoded_payload"


THREAT_REASONS: Mapping[ThreatCategory, str] = MappingProxyType(
    {
        ThreatCategory.PROMPT_INJECTION: (
            "it reads as an instruction to ignore or override earlier instructions"
        ),
        ThreatCategory.ROLE_HIJACK: (
            "it tries to change the assistant's role, persona or safety behaviour"
        ),
        ThreatCategory.PROMPT_EXTRACTION: (
            "it asks to reveal the system prompt or hidden instructions"
        ),
        ThreatCategory.FORGED_TURN: (
            "it imitates a conversation turn or a role marker of the prompt"
        ),
        ThreatCategory.HIDDEN_MARKUP: (
            "it hides text from the user in markup (a comment or an invisible element)"
        ),
        ThreatCategory.CONCEALMENT: (
            "it tells the assistant to hide something from the user or to deny keeping notes"
        ),
        ThreatCategory.DEFERRED_TOOL_USE: (
            "it tells the assistant to call a tool or run something when memory is read"
        ),
        ThreatCategory.EXFILTRATION: (
            "it asks to read secrets or send conversation data to an outside destination"
        ),
        ThreatCategory.PERSISTENCE: (
            "it asks to plant something that survives the session (keys, shell start-up "
            "files, scheduled jobs, agent configuration, or a standing order in memory that "
            "lifts a safeguard, grants a privilege or sets rules for other users)"
        ),
        ThreatCategory.COMMAND_AND_CONTROL: (
            "it reads as remote-control tasking (check in with a controller, pull commands)"
        ),
        ThreatCategory.CREDENTIAL: (
            "it looks like a secret or credential, and memory must never hold secrets"
        ),
        ThreatCategory.INVISIBLE_UNICODE: (
            "it contains invisible or format Unicode characters that can hide text"
        ),
        ThreatCategory.ENCODED_PAYLOAD: (
            "it holds encoded text (base64, base32, hex, rot13 or escapes) that decodes to "
            "an unsafe instruction"
        ),
    }
)


@dataclass(frozen=True)
class ThreatFinding:
    """Why an entry was refused: the category (told to the model) and the rule's code."""

    category: ThreatCategory
    code: str
