"""The PNG chart of a run: the latency distribution and the outcomes over time.

matplotlib is a development dependency only (never in the Lambda layer): it is imported
here, lazily, and a run without it says so and writes no chart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

STATUS_COLOURS = {
    "committed": "#2e7d32",
    "unchanged": "#90a4ae",
    "cancelled": "#f9a825",
    "conflict": "#c62828",
    "expired": "#6a1b9a",
    "error": "#b71c1c",
    "unavailable": "#795548",
    "disabled": "#455a64",
}
# Answers without a memory status, by their first character: 4xx, 5xx, "no answer".
PREFIX_COLOURS = {"4": "#ef6c00", "5": "#4e342e", "n": "#000000", "h": "#ff00ff"}


def matplotlib_missing() -> str | None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "matplotlib is not installed (pip install -r requirements/dev.lock): no chart"
    return None


def write_chart(report: Mapping[str, Any], latencies_ms: list[float], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    summary = report["summary"]
    figure, (histogram, timeline) = plt.subplots(2, 1, figsize=(10, 8))
    figure.suptitle(
        f"agent-memory loadtest {report['run_id']}: {summary['turns']} turns,"
        f" {summary['turns_per_second']:.1f} turns/s"
    )
    _latency(histogram, latencies_ms, summary["latency_ms"])
    _outcomes(timeline, summary["timeline"])
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def _latency(axes: Any, latencies_ms: list[float], figures: Mapping[str, float]) -> None:
    if latencies_ms:
        low = max(min(latencies_ms), 0.1)
        high = max(max(latencies_ms), low * 1.01)
        axes.hist(latencies_ms, bins=log_spaced(low, high, 40), color="#1565c0")
        axes.set_xscale("log")
        for name, style in (("p50", "-"), ("p95", "--"), ("p99", ":")):
            axes.axvline(
                figures[name],
                color="black",
                linestyle=style,
                label=f"{name} {figures[name]:.0f} ms",
            )
        axes.legend()
    axes.set_title("turn latency (log scale)")
    axes.set_xlabel("milliseconds")
    axes.set_ylabel("turns")


def _outcomes(axes: Any, timeline: Mapping[str, Any]) -> None:
    buckets = timeline["buckets"]
    width = float(timeline["bucket_seconds"])
    statuses = sorted({status for bucket in buckets for status in bucket}, key=_order)
    starts = [i * width for i in range(len(buckets))]
    bottom = [0] * len(buckets)
    for status in statuses:
        values = [bucket.get(status, 0) for bucket in buckets]
        axes.bar(
            starts,
            values,
            width=width * 0.9,
            bottom=bottom,
            align="edge",
            label=status,
            color=STATUS_COLOURS.get(status, PREFIX_COLOURS.get(status[:1])),
        )
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    axes.set_title(f"outcomes over time ({width:g} s buckets)")
    axes.set_xlabel("seconds since the start")
    axes.set_ylabel("turns finished")
    if statuses:
        axes.legend(fontsize="small", ncol=min(4, len(statuses)))


def _order(status: str) -> tuple[int, str]:
    known = list(STATUS_COLOURS)
    return (known.index(status) if status in known else len(known), status)


def log_spaced(low: float, high: float, count: int) -> list[float]:
    return [low * math.pow(high / low, i / count) for i in range(count + 1)]
