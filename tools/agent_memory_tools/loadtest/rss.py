"""Peak resident memory of this process (the load test's and each worker's)."""

from __future__ import annotations

import resource
import sys


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB.

    Linux: ``VmHWM`` (``ru_maxrss`` survives ``exec``, so a spawned worker would report its
    parent's peak); elsewhere ``ru_maxrss`` (macOS counts bytes)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
