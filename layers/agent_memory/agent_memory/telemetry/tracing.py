"""The Tracer of the traced functions: X-Ray with only botocore patched, or nothing at all.

Where tracing is on (in Lambda, unless ``POWERTOOLS_TRACE_DISABLED``), Powertools' Tracer
patches botocore only, so DynamoDB and Bedrock calls get subsegments, and every entity leaves
through the redacting emitter (``trace_redaction``). Handlers pass
``capture_response=False, capture_error=False`` explicitly, so that no environment variable can
make the Tracer copy a response or an exception into the trace.

Where tracing is off (outside Lambda, SAM local, ``POWERTOOLS_TRACE_DISABLED=true``), the
X-Ray SDK is never imported: Powertools 3.x imports ``aws_xray_sdk.core`` (and with it
botocore) when a Tracer is built, even a disabled one, unless it is given a provider. It gets a
no-op provider here. ``benchmarks/bench_tracer_import.py`` measures the difference.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from aws_lambda_powertools import Tracer
from aws_lambda_powertools.tracing.base import BaseProvider, BaseSegment

from agent_memory.telemetry.powertools import SERVICE
from agent_memory.telemetry.trace_redaction import install_trace_redaction

PATCHED_MODULES = ("botocore",)
_TRUTHY = frozenset({"1", "y", "yes", "t", "true", "on"})


def tracing_disabled(environ: Mapping[str, str] | None = None) -> bool:
    """Powertools' rule: disabled by ``POWERTOOLS_TRACE_DISABLED``, outside Lambda
    (no ``LAMBDA_TASK_ROOT``) and under SAM local or Chalice local."""
    env = os.environ if environ is None else environ
    if env.get("POWERTOOLS_TRACE_DISABLED", "false").strip().lower() in _TRUTHY:
        return True
    emulated = bool(env.get("AWS_SAM_LOCAL") or env.get("AWS_CHALICE_CLI_MODE"))
    return not env.get("LAMBDA_TASK_ROOT") or emulated


class _NoSegment(BaseSegment):
    def close(self, end_time: int | None = None) -> None:
        pass

    def add_subsegment(self, subsegment: Any) -> None:
        pass

    def remove_subsegment(self, subsegment: Any) -> None:
        pass

    def put_annotation(self, key: str, value: Any) -> None:
        pass

    def put_metadata(self, key: str, value: Any, namespace: str = "default") -> None:
        pass

    def add_exception(self, exception: BaseException, stack: Any, remote: bool = False) -> None:
        pass


class NoTracing(BaseProvider):
    """The provider of a disabled Tracer: records nothing and imports nothing."""

    @contextmanager
    def in_subsegment(self, name: str | None = None, **kwargs: Any) -> Iterator[BaseSegment]:
        yield _NoSegment()

    @asynccontextmanager
    async def in_subsegment_async(
        self, name: str | None = None, **kwargs: Any
    ) -> AsyncIterator[BaseSegment]:
        yield _NoSegment()

    def put_annotation(self, key: str, value: Any) -> None:
        pass

    def put_metadata(self, key: str, value: Any, namespace: str = "default") -> None:
        pass

    def patch(self, modules: Sequence[str]) -> None:
        pass

    def patch_all(self) -> None:
        pass


def build_tracer() -> Tracer:
    """The Tracer for this environment (built once per process, when this module loads)."""
    if tracing_disabled():
        return Tracer(service=SERVICE, disabled=True, provider=NoTracing())
    tracer = Tracer(service=SERVICE, patch_modules=PATCHED_MODULES)
    install_trace_redaction(tracer.provider)
    return tracer


tracer = build_tracer()
