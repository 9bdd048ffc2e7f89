"""Model providers behind one provider-neutral conversation: rules (local), Bedrock Converse,
OpenAI-compatible chat completions."""

from __future__ import annotations

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
from agent_memory.models.factory import (
    ModelSettings,
    bedrock_clients,
    build_fallback_model,
    build_model,
)
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
