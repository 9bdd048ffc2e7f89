"""The memory rules: pure functions and values, no I/O, no clock, no randomness.

``rules.apply_operations`` is the heart: it decides whether a batch of proposed operations
becomes the next ``Snapshot``. ``prompt`` renders the untrusted memory block, ``tool`` is the
model-facing ``memory_update`` contract, ``threats`` the safety scan.
"""

from __future__ import annotations

from agent_memory.domain.exceptions import (
    AgentMemoryError,
    CapacityExceededError,
    ErrorCode,
    MemoryValidationError,
    ThreatDetectedError,
)
from agent_memory.domain.history import (
    SOURCES,
    UNDO_CONFLICT,
    UNKNOWN_SOURCE,
    Change,
    Provenance,
    Source,
    carry_provenance,
    diff_snapshots,
    undo_changes,
)
from agent_memory.domain.model import (
    ACTIONS,
    DELIMITER,
    LIMITS,
    MAX_OPERATIONS,
    TARGETS,
    Action,
    Operation,
    Snapshot,
    Target,
    Usage,
    normalize_text,
    parse_document,
    render_document,
)
from agent_memory.domain.prompt import (
    POLICY_VERSION,
    MemoryStatus,
    compile_system_prompt,
    entry_for_prompt,
    render_memory_block,
)
from agent_memory.domain.rules import apply_operations, validate_entry, validate_operations
from agent_memory.domain.threats import WITHHELD_PLACEHOLDER, ThreatCategory, scan_entry
from agent_memory.domain.tool import (
    MAX_FAILED_TOOL_CALLS,
    MEMORY_UPDATE_DESCRIPTION,
    MEMORY_UPDATE_TOOL_NAME,
    MemoryToolSession,
    MemoryUpdateArguments,
    OperationArguments,
    ToolCallResult,
    ToolResult,
    failure_result,
    memory_update_json_schema,
    parse_tool_arguments,
    stop_result,
    success_result,
    unavailable_result,
    usage_summary,
)

__all__ = [
    "ACTIONS",
    "DELIMITER",
    "LIMITS",
    "MAX_FAILED_TOOL_CALLS",
    "MAX_OPERATIONS",
    "MEMORY_UPDATE_DESCRIPTION",
    "MEMORY_UPDATE_TOOL_NAME",
    "POLICY_VERSION",
    "SOURCES",
    "TARGETS",
    "UNDO_CONFLICT",
    "UNKNOWN_SOURCE",
    "WITHHELD_PLACEHOLDER",
    "Action",
    "AgentMemoryError",
    "CapacityExceededError",
    "Change",
    "ErrorCode",
    "MemoryStatus",
    "MemoryToolSession",
    "MemoryUpdateArguments",
    "MemoryValidationError",
    "Operation",
    "OperationArguments",
    "Provenance",
    "Snapshot",
    "Source",
    "Target",
    "ThreatCategory",
    "ThreatDetectedError",
    "ToolCallResult",
    "ToolResult",
    "Usage",
    "apply_operations",
    "carry_provenance",
    "compile_system_prompt",
    "diff_snapshots",
    "entry_for_prompt",
    "failure_result",
    "memory_update_json_schema",
    "normalize_text",
    "parse_document",
    "parse_tool_arguments",
    "render_document",
    "render_memory_block",
    "scan_entry",
    "stop_result",
    "success_result",
    "unavailable_result",
    "undo_changes",
    "usage_summary",
    "validate_entry",
    "validate_operations",
]
