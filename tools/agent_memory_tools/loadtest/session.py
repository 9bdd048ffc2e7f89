"""One load test from start to finish: plan, target, load, check, report."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from agent_memory_tools.loadtest.chart import matplotlib_missing, write_chart
from agent_memory_tools.loadtest.checker import Check, check_logs, check_run
from agent_memory_tools.loadtest.config import LoadTestConfig, Mix
from agent_memory_tools.loadtest.plan import build_plan
from agent_memory_tools.loadtest.progress import Progress
from agent_memory_tools.loadtest.record import RunRecord
from agent_memory_tools.loadtest.report import build_report, summary_text, write_report
from agent_memory_tools.loadtest.rss import peak_rss_mb
from agent_memory_tools.loadtest.runner import Runner
from agent_memory_tools.loadtest.stats import DEFINITIONS, latency_summary, summarize
from agent_memory_tools.loadtest.targets.api import Target

BeforeCheck = Callable[[Target, RunRecord], None]


@dataclass(frozen=True)
class LoadTestResult:
    passed: bool
    report: dict[str, Any]
    report_path: Path
    chart_path: Path | None
    checks: list[Check]

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1


def run_load_test(
    config: LoadTestConfig,
    target: Target,
    *,
    cleanup: bool = False,
    before_check: BeforeCheck | None = None,
    memory_off: Target | None = None,
    http_baseline: Target | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> LoadTestResult:
    """Run it. ``cleanup`` forgets the run's users afterwards (HTTP and real tables);
    ``before_check`` runs between the load and the final read (tests plant violations);
    ``memory_off``, a target with memory disabled, first runs the same plan there so that
    the summary says what memory adds to a turn."""
    out = out or sys.stdout
    err = err or sys.stderr
    baseline = measure_memory_off(config, memory_off, err) if memory_off is not None else None
    over_http = measure_http(config, http_baseline, err) if http_baseline is not None else None
    plan = build_plan(config)
    record = RunRecord(config.run_id, config.users)
    started_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(
        f"agent-memory loadtest {config.run_id}: starting the {target.name} target ...",
        file=err,
        flush=True,
    )
    try:
        target.start()
        progress = Progress(len(plan.order), err, enabled=config.progress)
        runner = Runner(config, target, plan, record, progress)
        runner.prepare()
        dispatched = runner.dispatch()
        if before_check is not None:
            before_check(target, record)
        final = runner.read_documents()
        checks = check_run(record, final)
        worker_logs = getattr(target, "worker_logs", None)
        if worker_logs is not None:
            checks.append(check_logs(config.run_id, worker_logs()))
        summary = summarize(
            record,
            seconds=dispatched.seconds,
            planned=len(plan.order),
            stopped_early=dispatched.stopped_early,
            measures_requests=target.measures_requests,
            concurrency=config.concurrency,
        )
        if baseline is not None:
            summary["memory_cost"] = memory_cost(summary["latency_ms_without_sleep"], baseline)
        if config.stream:
            summary["streaming"] = streaming_summary(record, summary, over_http)
        summary["peak_rss_mb"] = {
            "load_test": peak_rss_mb(),
            "worker": getattr(target, "peak_worker_rss_mb", None),
        }
        report = build_report(
            config=config,
            target=target.describe(),
            summary=summary,
            definitions=DEFINITIONS,
            checks=checks,
            record=record,
            final=final,
            started_at=started_at,
        )
        config.report_dir.mkdir(parents=True, exist_ok=True)
        chart_path, chart_note = _chart(report, record, config.report_dir)
        report["chart"] = chart_path.name if chart_path else None
        report_path = write_report(report, config.report_dir)
        files = [str(report_path)] + ([str(chart_path)] if chart_path else [])
        print(summary_text(report, files), file=out, flush=True)
        if chart_note:
            print(f"agent-memory loadtest: {chart_note}", file=err)
        if cleanup:
            failed = runner.forget_users()
            if failed:
                print(f"agent-memory loadtest: could not forget {failed} users", file=err)
    finally:
        target.close()
    return LoadTestResult(
        passed=bool(report["passed"]),
        report=report,
        report_path=report_path,
        chart_path=chart_path,
        checks=checks,
    )


def measure_memory_off(config: LoadTestConfig, target: Target, err: TextIO) -> dict[str, float]:
    """Latencies (without the cancel turns' sleep) of the same plan with memory disabled
    (its own users; nothing commits, so replaces and removes become adds)."""
    off = replace(config, run_id=f"{config.run_id}off", progress=False)
    plan = build_plan(off)
    record = RunRecord(off.run_id, off.users)
    print(
        f"agent-memory loadtest {config.run_id}: the same plan with memory off first ...",
        file=err,
        flush=True,
    )
    try:
        target.start()
        runner = Runner(off, target, plan, record, Progress(len(plan.order), err, enabled=False))
        runner.issue_tokens()
        runner.dispatch()
    finally:
        target.close()
    return latency_summary(
        t.latency_ms
        for t in record.finished_turns()
        if t.latency_ms is not None and not t.sleep_seconds
    )


def measure_http(config: LoadTestConfig, target: Target, err: TextIO) -> dict[str, Any]:
    """Turns/s and latency of the same plan over POST /chat (its own users; the disconnect
    turns are ordinary adds there), for the comparison with streamed turns."""
    weights = {kind: w for kind, w in config.mix.weights.items() if kind != "disconnect"}
    weights["add"] = weights.get("add", 0) + config.mix.weight("disconnect")
    http = replace(
        config, run_id=f"{config.run_id}http", progress=False, stream=False, mix=Mix(weights)
    )
    plan = build_plan(http)
    record = RunRecord(http.run_id, http.users)
    print(
        f"agent-memory loadtest {config.run_id}: the same plan over HTTP first ...",
        file=err,
        flush=True,
    )
    try:
        target.start()
        runner = Runner(http, target, plan, record, Progress(len(plan.order), err, enabled=False))
        runner.issue_tokens()
        dispatched = runner.dispatch()
    finally:
        target.close()
    turns = record.finished_turns()
    seconds = dispatched.seconds
    return {
        "turns_per_second": round(len(turns) / seconds, 2) if seconds else 0.0,
        "latency_ms_without_sleep": latency_summary(
            t.latency_ms for t in turns if t.latency_ms is not None and not t.sleep_seconds
        ),
    }


def streaming_summary(
    record: RunRecord, summary: dict[str, Any], over_http: dict[str, Any] | None
) -> dict[str, Any]:
    turns = [t for t in record.finished_turns() if t.request is None]
    first_delta = [t.first_delta_ms for t in turns if t.first_delta_ms is not None]
    return {
        "streamed_turns": len(turns),
        "disconnected_turns": sum(1 for t in turns if t.status == "disconnected"),
        "time_to_first_delta_ms": latency_summary(first_delta),
        "time_to_first_delta_ms_without_sleep": latency_summary(
            t.first_delta_ms for t in turns if t.first_delta_ms is not None and not t.sleep_seconds
        ),
        "deltas_not_the_reply": sum(1 for t in turns if t.deltas_match is False),
        "turns_per_second": summary["turns_per_second"],
        "http": over_http,
    }


def memory_cost(on: dict[str, float], off: dict[str, float]) -> dict[str, float]:
    """p50 and p99 of turns with memory on and off, and their ratios."""
    return {
        "on_p50_ms": on["p50"],
        "on_p99_ms": on["p99"],
        "off_p50_ms": off["p50"],
        "off_p99_ms": off["p99"],
        "p50_ratio": round(on["p50"] / off["p50"], 2) if off["p50"] else 0.0,
        "p99_ratio": round(on["p99"] / off["p99"], 2) if off["p99"] else 0.0,
    }


def _chart(
    report: dict[str, Any], record: RunRecord, directory: Path
) -> tuple[Path | None, str | None]:
    missing = matplotlib_missing()
    if missing:
        return None, missing
    latencies = [t.latency_ms for t in record.finished_turns() if t.latency_ms is not None]
    path = directory / f"loadtest-{report['run_id']}.png"
    try:
        return write_chart(report, latencies, path), None
    except Exception as error:  # a chart is a convenience: never fail the run for it
        return None, f"the chart could not be drawn: {type(error).__name__}: {error}"
