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

__all__ = [
    "RAW_ARGUMENTS_KEY",
    "AssistantMessage",
    "BedrockClients",
    "BedrockConverseModel",
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
    "RulesModel",
    "StopReason",
    "ToolCall",
    "ToolResult",
    "ToolResultsMessage",
    "ToolSpec",
    "UserMessage",
    "bedrock_clients",
    "build_fallback_model",
    "build_model",
]
