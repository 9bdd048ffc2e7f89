"""The optional semantic layer: Amazon Bedrock Guardrails ``ApplyGuardrail`` on each staged
batch of memory writes (DESIGN.md "The trust layer"). Off unless a guardrail is configured."""

from __future__ import annotations

from agent_memory.guardrail.bedrock_guardrail import (
    GUARDRAIL_BLOCKED,
    GUARDRAIL_UNAVAILABLE,
    BedrockGuardrail,
    guardrail_from_environment,
)

__all__ = [
    "GUARDRAIL_BLOCKED",
    "GUARDRAIL_UNAVAILABLE",
    "BedrockGuardrail",
    "guardrail_from_environment",
]
