"""The deterministic ``rules`` model of the local stack and the tests (DESIGN.md, "Local stack").

Directives are lines that start with a marker; they act in order, other lines are chat:

- ``remember: <fact>`` adds to ``memory``; ``about me: <fact>`` adds to ``user``;
- ``forget: <text>`` removes, ``update: <match> => <new entry>`` replaces, in the store whose
  section of the prompt's ``<persistent_memory_data>`` block (or an earlier directive of the
  same message) contains the text, ``memory`` by default;
- ``memory_update: <JSON object>`` calls the tool with exactly that object. Text that is not a
  JSON object still makes a call, with ``{"__raw__": <text>}`` (RAW_ARGUMENTS_KEY), so the
  tool's rejection path can be exercised;
- ``simulate: sleep <seconds>`` (capped) and ``simulate: fail`` act at their position.

Consecutive tool directives form one model response with one tool call each. The position in
the script is derived from the conversation (tool-call rounds after the last user message), so
one instance serves concurrent conversations. Without the memory tool in ``tools`` memory
directives are ignored and the reply says memory is off; ``simulate:`` still acts, since it
describes the model, not memory.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from agent_memory.models.base import (
    AssistantMessage,
    Message,
    ModelResponse,
    ToolResultsMessage,
    ToolSpec,
    UserMessage,
    arguments_from_json,
)
from agent_memory.models.budget import CallBudget
from agent_memory.models.exceptions import ModelError
from agent_memory.models.stream import (
    BlockStop,
    StopEvent,
    StreamEvent,
    TextDelta,
    ToolArgumentsDelta,
    ToolCallStart,
    UsageEvent,
    accumulate,
)

DEFAULT_MAX_SLEEP_SECONDS = 900.0

_BLOCK = re.compile(r"<persistent_memory_data>(.*?)</persistent_memory_data>", re.DOTALL)
_SECTION_HEADERS = {"USER PROFILE": "user", "AGENT MEMORY": "memory"}


@dataclass(frozen=True)
class _Sleep:
    seconds: float


@dataclass(frozen=True)
class _Fail:
    pass


_ToolGroup = tuple[dict[str, Any], ...]
_Step = _ToolGroup | _Sleep | _Fail


@dataclass(frozen=True)
class _Script:
    steps: tuple[_Step, ...]
    memory_directives: int


class RulesModel:
    """A deterministic ``ModelProvider`` that follows directives in the last user message."""

    def __init__(
        self,
        *,
        name: str = "rules",
        tool_name: str = "memory_update",
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        max_sleep_seconds: float = DEFAULT_MAX_SLEEP_SECONDS,
        simulate: bool = True,
    ) -> None:
        self.name = name
        self._tool_name = tool_name
        self._sleep = sleep
        self._clock = clock
        self._max_sleep_seconds = max_sleep_seconds
        # A local fallback model ignores ``simulate:`` so that it can succeed where the
        # primary was told to fail.
        self._simulate = simulate

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        return accumulate(
            self.stream(
                system=system, messages=messages, tools=tools, budget_seconds=budget_seconds
            )
        )

    def stream(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> Iterator[StreamEvent]:
        """The answer as stream events: the reply word by word; ``simulate:`` steps act where
        they stand, while the stream is consumed (a sleep between events, a failure after the
        events before it)."""
        budget = None
        if budget_seconds is not None:
            budget = CallBudget.start(budget_seconds, budget_seconds, clock=self._clock)
        last_user = _last_user_index(messages)
        if last_user is None:
            yield from _text_events("Nothing to remember.")
            return
        index, user_message = last_user
        after = messages[index + 1 :]
        rounds_done = sum(1 for m in after if isinstance(m, AssistantMessage) and m.tool_calls)
        memory_on = any(tool.name == self._tool_name for tool in tools)
        script = self._parse(user_message.text, system, memory_on=memory_on)

        rounds_seen = 0
        for step in script.steps:
            if isinstance(step, tuple):
                if rounds_seen == rounds_done:
                    yield from self._tool_use(step, rounds_done)
                    return
                rounds_seen += 1
            elif rounds_seen < rounds_done:
                continue  # acted on in an earlier call of this turn
            elif isinstance(step, _Sleep):
                self._slow_down(step.seconds, budget)
            else:
                raise ModelError(
                    "The rules model failed as the message asked (simulate: fail).",
                    code="simulated_failure",
                    retryable=True,
                )
        yield from _text_events(_reply(after, script, memory_on))

    def _slow_down(self, seconds: float, budget: CallBudget | None) -> None:
        """Sleep as asked, but like a real provider never past the call's budget."""
        left = seconds if budget is None else max(budget.remaining(), 0.0)
        if seconds <= left or budget is None:
            self._sleep(seconds)
            return
        self._sleep(left)
        raise budget.expired()

    def _tool_use(self, group: _ToolGroup, round_index: int) -> Iterator[StreamEvent]:
        for i, arguments in enumerate(group):
            yield ToolCallStart(i, f"rules-{round_index}-{i}", self._tool_name)
            yield ToolArgumentsDelta(i, json.dumps(arguments))  # parses back to the same dict
            yield BlockStop(i)
        yield StopEvent("tool_use")
        yield UsageEvent()

    def _parse(self, text: str, system: str, *, memory_on: bool) -> _Script:
        sections = _memory_sections(system)
        steps: list[_Step] = []
        group: list[dict[str, Any]] = []
        memory_directives = 0

        def flush() -> None:
            if group:
                steps.append(tuple(group))
                group.clear()

        for line in text.splitlines():
            stripped = line.strip()
            marker, colon, rest = stripped.partition(":")
            if not colon:
                continue  # "about me" without a colon is chat, not a directive
            marker = marker.strip().lower()
            rest = rest.strip()
            if marker == "simulate":
                step = self._simulate_step(rest)
                if step is not None:
                    flush()
                    steps.append(step)
                continue
            arguments = _tool_arguments(marker, rest, sections)
            if arguments is None:
                continue
            memory_directives += 1
            if memory_on:
                group.append(arguments)
        flush()
        return _Script(steps=tuple(steps), memory_directives=memory_directives)

    def _simulate_step(self, rest: str) -> _Sleep | _Fail | None:
        if not self._simulate:
            return None
        words = rest.lower().split()
        if words[:1] == ["fail"]:
            return _Fail()
        if words[:1] == ["sleep"] and len(words) > 1:
            try:
                seconds = float(words[1])
            except ValueError:
                return None
            if math.isnan(seconds):
                return None
            return _Sleep(min(max(seconds, 0.0), self._max_sleep_seconds))
        return None


def _text_events(reply: str) -> Iterator[StreamEvent]:
    """The reply word by word (each word with the space after it), then the stop."""
    for word in re.findall(r"\S+\s*", reply):
        yield TextDelta(0, word)
    yield StopEvent("end_turn")
    yield UsageEvent()


def _tool_arguments(marker: str, rest: str, sections: dict[str, str]) -> dict[str, Any] | None:
    """The tool arguments of one directive (``sections`` learns what it adds), or None."""
    if marker == "remember":
        sections["memory"] += "\n" + rest
        return _operation(target="memory", action="add", content=rest)
    if marker == "about me":
        sections["user"] += "\n" + rest
        return _operation(target="user", action="add", content=rest)
    if marker == "forget":
        return _operation(target=_store_of(rest, sections), action="remove", match=rest)
    if marker == "update":
        match, arrow, new_entry = rest.partition("=>")
        match = match.strip()
        target = _store_of(match, sections)
        if not arrow:  # no new entry: the tool rejects a replace without content
            return _operation(target=target, action="replace", match=match)
        sections[target] += "\n" + new_entry.strip()
        return _operation(target=target, action="replace", match=match, content=new_entry.strip())
    if marker == "memory_update":
        return arguments_from_json(rest)
    return None


def _operation(**fields: str) -> dict[str, Any]:
    return {"operations": [fields]}


def _store_of(text: str, sections: dict[str, str]) -> str:
    if text and text in sections["user"] and text not in sections["memory"]:
        return "user"
    return "memory"


def _memory_sections(system: str) -> dict[str, str]:
    sections = {"user": "", "memory": ""}
    block = _BLOCK.search(system)
    if block is None:
        return sections
    current: str | None = None
    for line in block.group(1).splitlines():
        header = next((t for h, t in _SECTION_HEADERS.items() if line.startswith(h)), None)
        if header is not None:
            current = header
        elif current is not None:
            sections[current] += "\n" + line
    return sections


def _last_user_index(messages: Sequence[Message]) -> tuple[int, UserMessage] | None:
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, UserMessage):
            return index, message
    return None


def _reply(after: Sequence[Message], script: _Script, memory_on: bool) -> str:
    if not memory_on:
        if script.memory_directives:
            return "Memory is off here, so I did not note anything."
        return "Nothing to remember."
    results = [r for m in after if isinstance(m, ToolResultsMessage) for r in m.results]
    rejected = sum(1 for r in results if r.is_error)
    noted = len(results) - rejected
    if not results:
        return "Nothing to remember."
    if not rejected:
        return f"Noted {_updates(noted)}."
    if not noted:
        return f"No memory updates noted; {_were(rejected)} rejected."
    return f"Noted {_updates(noted)}; {_were(rejected)} rejected."


def _updates(count: int) -> str:
    return f"{count} memory update" + ("" if count == 1 else "s")


def _were(count: int) -> str:
    return f"{count} " + ("was" if count == 1 else "were")
