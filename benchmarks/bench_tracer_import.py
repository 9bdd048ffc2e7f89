"""Cold-start cost of tracing: import and init of the chat handler module, traced or not.

Run: python benchmarks/bench_tracer_import.py [--repeats N]

Each measurement is a fresh interpreter (a cold start) that times the import of
``functions/chat/app.py`` (its module-level code builds the Tracer) in a Lambda-like
environment (``LAMBDA_TASK_ROOT`` set), with ``POWERTOOLS_TRACE_DISABLED`` false (the X-Ray SDK
is imported and botocore patched) or true (a no-op provider: the SDK is never imported). The
two modes alternate; the medians and their ratio are printed, for the whole import and for
the Tracer's module alone (imported after the handler's other dependencies, botocore among
them, so it shows what tracing adds). Interpreter start-up is not counted. Figures only, no
assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys, time
started = time.perf_counter()
import agent_memory.http, agent_memory.service  # what the handler needs besides the Tracer
dependencies = time.perf_counter()
import agent_memory.telemetry.tracing  # builds the Tracer
tracing = time.perf_counter()
from agent_memory_tools.local.functions import function_module
module = function_module("chat")
finished = time.perf_counter()
import botocore.client
print(json.dumps({
    "seconds": finished - started,
    "tracer_seconds": tracing - dependencies,
    "xray_sdk_imported": "aws_xray_sdk.core" in sys.modules,
    "botocore_patched": hasattr(botocore.client, "_xray_enabled"),
    "provider": type(module.tracer.provider).__name__,
}))
"""


def measure(*, traced: bool, task_root: str) -> dict[str, object]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("_X_AMZN")}
    env.update(
        {
            "LAMBDA_TASK_ROOT": task_root,
            "POWERTOOLS_TRACE_DISABLED": "false" if traced else "true",
            "AWS_REGION": env.get("AWS_REGION", "us-east-1"),
            "AGENT_MEMORY_ROOT": str(ROOT),
        }
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=11, help="cold starts per mode")
    args = parser.parse_args()

    samples: dict[bool, list[dict[str, object]]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as task_root:
        measure(traced=False, task_root=task_root)  # warm the OS file cache, not counted
        for _ in range(args.repeats):
            for traced in (False, True):
                samples[traced].append(measure(traced=traced, task_root=task_root))

    def median(traced: bool, key: str) -> float:
        return statistics.median(float(str(sample[key])) for sample in samples[traced])

    for traced, label in ((True, "tracing enabled "), (False, "tracing disabled")):
        last = samples[traced][-1]
        print(
            f"chat handler import, {label}: median {median(traced, 'seconds') * 1000:6.1f} ms, "
            f"of which the Tracer {median(traced, 'tracer_seconds') * 1000:5.1f} ms "
            f"(X-Ray SDK imported: {last['xray_sdk_imported']}, "
            f"botocore patched: {last['botocore_patched']}, provider: {last['provider']})"
        )
    total = median(True, "seconds") / median(False, "seconds")
    tracer = median(True, "tracer_seconds") / median(False, "tracer_seconds")
    print(
        f"enabled/disabled ratio over {args.repeats} cold starts each: "
        f"handler import {total:.2f}, Tracer alone {tracer:.1f}"
    )


if __name__ == "__main__":
    main()
