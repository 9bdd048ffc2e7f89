"""Model providers behind one provider-neutral conversation: rules (local), Bedrock Converse,
OpenAI-compatible chat completions.

Names are imported on first use, so a function loads only the provider it runs (Bedrock,
an OpenAI-compatible server or the local rules), and a function that calls no model none.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent_memory.models.base import (
        RAW_ARGUMENTS_KEY,
        AssistantMessage,
        Message,
        ModelProvider,
        ModelResponse,
        Reasoning,
        StopReason,
        ToolCall,
        ToolResult,
        ToolResultsMessage,
        ToolSpec,
        UserMessage,
    )
    from agent_memory.models.bedrock import BedrockConverseModel
    from agent_memory.models.bedrock_clients import BedrockClients
    from agent_memory.models.exceptions import (
        ModelConfigurationError,
        ModelDeadlineError,
        ModelError,
        ModelTimeoutError,
    )
    from agent_memory.models.factory import ModelSettings, build_fallback_model, build_model
    from agent_memory.models.openai import OpenAICompatibleModel
    from agent_memory.models.rules import RulesModel
    from agent_memory.models.stream import (
        BlockStop,
        ReasoningDelta,
        StopEvent,
        StreamAccumulator,
        StreamEvent,
        TextDelta,
        ToolArgumentsDelta,
        ToolCallStart,
        UsageEvent,
        accumulate,
        events_of,
        stream_of,
    )

# ``bedrock_clients`` names a submodule and factory's function: the submodule is loaded first,
# so that the package attribute stays the function (loading a submodule later rebinds it).
import agent_memory.models.bedrock_clients as _bedrock_clients_module  # noqa: F401
from agent_memory.models.factory import bedrock_clients

_MODULES: dict[str, tuple[str, ...]] = {
    "agent_memory.models.base": (
        "RAW_ARGUMENTS_KEY",
        "AssistantMessage",
        "Message",
        "ModelProvider",
        "ModelResponse",
        "Reasoning",
        "StopReason",
        "ToolCall",
        "ToolResult",
        "ToolResultsMessage",
        "ToolSpec",
        "UserMessage",
    ),
    "agent_memory.models.bedrock": ("BedrockConverseModel",),
    "agent_memory.models.bedrock_clients": ("BedrockClients",),
    "agent_memory.models.exceptions": (
        "ModelConfigurationError",
        "ModelDeadlineError",
        "ModelError",
        "ModelTimeoutError",
    ),
    "agent_memory.models.factory": (
        "ModelSettings",
        "build_fallback_model",
        "build_model",
    ),
    "agent_memory.models.openai": ("OpenAICompatibleModel",),
    "agent_memory.models.rules": ("RulesModel",),
    "agent_memory.models.stream": (
        "BlockStop",
        "ReasoningDelta",
        "StopEvent",
        "StreamAccumulator",
        "StreamEvent",
        "TextDelta",
        "ToolArgumentsDelta",
        "ToolCallStart",
        "UsageEvent",
        "accumulate",
        "events_of",
        "stream_of",
    ),
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "RAW_ARGUMENTS_KEY",
    "AssistantMessage",
    "BedrockClients",
    "BedrockConverseModel",
    "BlockStop",
    "Message",
    "ModelConfigurationError",
    "ModelDeadlineError",
    "ModelError",
    "ModelProvider",
    "ModelResponse",
    "ModelSettings",
    "ModelTimeoutError",
    "OpenAICompatibleModel",
    "Reasoning",
    "ReasoningDelta",
    "RulesModel",
    "StopEvent",
    "StopReason",
    "StreamAccumulator",
    "StreamEvent",
    "TextDelta",
    "ToolArgumentsDelta",
    "ToolCall",
    "ToolCallStart",
    "ToolResult",
    "ToolResultsMessage",
    "ToolSpec",
    "UsageEvent",
    "UserMessage",
    "accumulate",
    "bedrock_clients",
    "build_fallback_model",
    "build_model",
    "events_of",
    "stream_of",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # found once: later lookups skip this function
    return value
