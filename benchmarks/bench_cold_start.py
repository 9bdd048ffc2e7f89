"""Cold start: each function's import-and-init time, as a Lambda loads the built layer.

The layer is built for this machine's architecture with the same Makefile `sam build` uses
(`layers/agent_memory/Makefile`: pinned wheels, the package, unchecked-hash .pyc), into a
temporary folder. Each measurement is a fresh interpreter started as Lambda's is: no site
packages (``-S``), no bytecode written (``-B``: /opt is read-only), ``sys.path`` = the
function's folder then the layer. It loads one handler module the way the Lambda runtime
does (functions/<name>/app.py, module-level code included) and times just that, so
interpreter start-up, the same for all, is left out. The environment is Lambda's as far
as init is concerned (LAMBDA_TASK_ROOT set, so the Powertools Tracer is on and imports the
X-Ray SDK; tables, issuer and flags as template.yaml sets them).

The reference is a minimal handler that imports boto3 (from the same layer, with its
bytecode) and creates a DynamoDB client; a second one, "frameworks only", is the frameworks
the HTTP functions use without any of our code (the floor of their ratios). Modules are
measured round-robin and the median is printed, so machine noise hits all of them alike.
Each load is timed twice: wall clock (what a cold start costs on an idle machine) and the
process's CPU time, which a loaded machine inflates far less (on a shared machine, read the
CPU ratios). A further column loads the same layer with its .pyc removed (how the layer
shipped before it carried bytecode).

The handlers build their AWS clients on first use, so init leaves them to the first request,
where the minimal handler builds its one at init: a last figure times, after chat's init,
the clients its first turn builds, so that part of a cold start is printed too.

Sizes: the layer this run built (this machine's architecture), and when .aws-sam/build
exists (`make sam-build`; arm64) each function's folder and the shared layer, unzipped and
zipped (deflate, as `sam package`). Figures only, no assertions.

    python benchmarks/bench_cold_start.py [--repeats 7] [--cold-repeats 3]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUNCTIONS = ("authorizer", "chat", "memory_api", "eval", "cleanup", "websocket")
BASELINE = "minimal boto3 handler"
# The ratios issue 13 asks for (both sides with bytecode); None: no target.
TARGETS = {"authorizer": 0.7, "chat": 1.3, "memory_api": 1.3, "cleanup": 1.1}
BUILD = ROOT / ".aws-sam" / "build"
LAMBDA_UNZIPPED_LIMIT_MB = 250
HOST_ARCHITECTURE = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "arm64", "arm64": "arm64"}

MINIMAL_HANDLER = """\
import boto3

client = boto3.client("dynamodb")


def lambda_handler(event, context):
    return {"statusCode": 200}
"""

# A second reference: what the HTTP functions' frameworks cost with none of our code, as
# they use them (Powertools' Logger, Metrics, a Tracer patching botocore, the HTTP resolver
# validating a pydantic body; botocore's session imported). A function's ratio cannot go below
# this one's while it keeps these frameworks.
FRAMEWORKS = "frameworks only"
FRAMEWORKS_HANDLER = """\
from typing import Annotated

import botocore.session
from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.event_handler.openapi.params import Header
from aws_lambda_powertools.logging import correlation_paths
from botocore.config import Config
from pydantic import BaseModel, ConfigDict

logger = Logger(service="frameworks")
metrics = Metrics(namespace="Frameworks", service="frameworks")
tracer = Tracer(service="frameworks", patch_modules=("botocore",))
app = APIGatewayHttpResolver(enable_validation=True)


class Body(BaseModel):
    model_config = ConfigDict(defer_build=True)
    message: str


@app.post("/chat")
def chat(body: Body, key: Annotated[str | None, Header(alias="idempotency-key")] = None) -> dict:
    return {}


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics
def lambda_handler(event, context):
    return app.resolve(event, context)
"""

PROBE = """\
import importlib.util, sys, time
path = sys.argv[1]
started, cpu = time.perf_counter(), time.process_time()
spec = importlib.util.spec_from_file_location("app", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print((time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000)
"""

# What init leaves to the first request: a handler builds its AWS clients on first use, where
# the minimal handler builds its one at init. A chat turn builds the default and the
# transaction DynamoDB clients and a Bedrock Runtime client per call budget (two calls here).
FIRST_TURN_CLIENTS_PROBE = """\
import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("app", sys.argv[1])
spec.loader.exec_module(importlib.util.module_from_spec(spec))
from agent_memory.models.bedrock_clients import BedrockClients
from agent_memory.repository import get_client, get_transaction_client
started, cpu = time.perf_counter(), time.process_time()
get_client()
get_transaction_client()
bedrock = BedrockClients(region=None, max_read_timeout=60.0)
bedrock.for_budget(28.0)
bedrock.for_budget(25.0)
print((time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000)
"""
FIRST_TURN_FUNCTION = "chat"

LAMBDA_LIKE_ENV = {
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench",
    "AWS_EXECUTION_ENV": "AWS_Lambda_python3.13",
    "MEMORY_TABLE_NAME": "bench-memory",
    "TURN_LEDGER_TABLE_NAME": "bench-ledger",
    "MEMORY_ENABLED": "true",
    "MODEL_PROVIDER": "bedrock",
    "MODEL_ID": "anthropic.claude-3-5-haiku-20241022-v1:0",
    "ISSUER_URL": "https://issuer.example.com",
    "AUDIENCE": "agent-memory",
    "POWERTOOLS_SERVICE_NAME": "agent-memory",
    "WEBSOCKET_CALLBACK_URL": "https://example.execute-api.us-east-1.amazonaws.com/dev",
}


def build_layer(into: Path) -> Path:
    """The layer for this machine, built as `sam build` builds it; its python folder."""
    architecture = HOST_ARCHITECTURE[platform.machine().lower()]
    subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-C",
            str(ROOT / "layers" / "agent_memory"),
            "build-SharedLayer",
            f"ARTIFACTS_DIR={into}",
            f"LAYER_ARCHITECTURE={architecture}",
            f"LAYER_PYTHON={sys.executable}",
        ],
        check=True,
    )
    return into / "python"


def without_bytecode(layer: Path, into: Path) -> Path:
    shutil.copytree(layer, into, ignore=shutil.ignore_patterns("__pycache__"))
    return into


def measure_once(path: Path, layer: Path, probe: str = PROBE) -> tuple[float, float]:
    """One fresh interpreter, as Lambda starts one: only the function and the layer.
    Returns (wall ms, CPU ms) of what ``probe`` times (by default loading the handler)."""
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG")}
    env.update(LAMBDA_LIKE_ENV)
    env["PYTHONPATH"] = f"{path.parent}:{layer}"
    env["LAMBDA_TASK_ROOT"] = str(path.parent)
    env["AWS_LAMBDA_FUNCTION_NAME"] = path.parent.name
    done = subprocess.run(
        [sys.executable, "-S", "-B", "-c", probe, str(path)],
        env=env,
        cwd=path.parent,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{path} failed to load:\n{done.stderr[-2000:]}")
    wall, cpu = done.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


Timings = dict[str, list[tuple[float, float]]]


def cold_starts(
    repeats: int, cold_repeats: int
) -> tuple[Timings, Timings, list[tuple[float, float]], Path, Path]:
    """(with the layer's .pyc, without), by module; the first turn's clients; the temporary
    folder; the layer built."""
    folder = Path(tempfile.mkdtemp(prefix="bench-cold-start-"))
    minimal = folder / "minimal" / "app.py"
    minimal.parent.mkdir()
    minimal.write_text(MINIMAL_HANDLER, encoding="utf-8")
    frameworks = folder / "frameworks" / "app.py"
    frameworks.parent.mkdir()
    frameworks.write_text(FRAMEWORKS_HANDLER, encoding="utf-8")
    paths = {BASELINE: minimal, FRAMEWORKS: frameworks}
    paths.update(
        {
            name: ROOT / "functions" / name / "app.py"
            for name in FUNCTIONS
            if (ROOT / "functions" / name / "app.py").is_file()
        }
    )
    layer = build_layer(folder / "layer")
    bare = without_bytecode(layer, folder / "layer-without-pyc")
    # One unmeasured round fills the OS file cache.
    for path in paths.values():
        measure_once(path, layer)
        measure_once(path, bare)
    warm: Timings = {name: [] for name in paths}
    cold: Timings = {name: [] for name in paths}
    first_turn: list[tuple[float, float]] = []
    for round_ in range(max(repeats, cold_repeats)):
        for name, path in paths.items():
            if round_ < repeats:
                warm[name].append(measure_once(path, layer))
            if round_ < cold_repeats:
                cold[name].append(measure_once(path, bare))
        if round_ < repeats and FIRST_TURN_FUNCTION in paths:
            first_turn.append(
                measure_once(paths[FIRST_TURN_FUNCTION], layer, FIRST_TURN_CLIENTS_PROBE)
            )
    return warm, cold, first_turn, folder, layer


def _median(timings: list[tuple[float, float]], column: int) -> float:
    return statistics.median(timing[column] for timing in timings)


def _verdict(name: str, ratio: float) -> str:
    target = TARGETS.get(name)
    return "" if target is None else f"<={target:.1f}" + (" ok" if ratio <= target else " !!")


def print_cold_starts(warm: Timings, cold: Timings) -> None:
    repeats, cold_repeats = len(warm[BASELINE]), len(cold[BASELINE])
    print(
        "import + init of each handler from the built layer, median of fresh interpreters"
        f" ({repeats} with the layer's .pyc, {cold_repeats} without)\n"
    )
    header = (
        f"{'module':<22} {'wall ms':>8} {'x minimal':>9} {'target':>9}"
        f" {'CPU ms':>7} {'x minimal':>9} {'target':>9}"
        f" {'no .pyc ms':>10} {'x minimal':>9}"
    )
    print(header)
    print("-" * len(header))
    wall_reference, cpu_reference = _median(warm[BASELINE], 0), _median(warm[BASELINE], 1)
    cold_reference = _median(cold[BASELINE], 0)
    for name in warm:
        wall, cpu, no_pyc = _median(warm[name], 0), _median(warm[name], 1), _median(cold[name], 0)
        wall_ratio, cpu_ratio = wall / wall_reference, cpu / cpu_reference
        print(
            f"{name:<22} {wall:>8.0f} {wall_ratio:>9.2f} {_verdict(name, wall_ratio):>9}"
            f" {cpu:>7.0f} {cpu_ratio:>9.2f} {_verdict(name, cpu_ratio):>9}"
            f" {no_pyc:>10.0f} {no_pyc / cold_reference:>9.2f}"
        )


def print_first_turn(first_turn: list[tuple[float, float]]) -> None:
    if not first_turn:
        return
    print(
        f"\n{FIRST_TURN_FUNCTION}'s first turn then builds its AWS clients (DynamoDB default and"
        " transaction, Bedrock Runtime for two call budgets), which the figures above leave out"
        f" (the minimal handler's one client is in its own): {_median(first_turn, 0):.0f} ms"
        f" wall, {_median(first_turn, 1):.0f} ms CPU"
    )


def folder_sizes(folder: Path) -> tuple[int, int, int]:
    """(files, bytes unzipped, bytes zipped with deflate)."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    unzipped = sum(p.stat().st_size for p in files)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in files:
            archive.write(path, path.relative_to(folder))
    return len(files), unzipped, buffer.tell()


def print_layer_built(layer: Path) -> None:
    files, unzipped, zipped = folder_sizes(layer)
    pyc = sum(p.stat().st_size for p in layer.rglob("*.pyc"))
    print(
        f"\nthe layer this run built ({HOST_ARCHITECTURE[platform.machine().lower()]}):"
        f" {files} files, {_size(unzipped)} unzipped, {_size(zipped)} zipped"
        f" (.pyc: {_size(pyc)})"
    )


def print_sizes() -> None:
    print()
    if not BUILD.is_dir():
        print("artefact sizes: no .aws-sam/build here; build it with `make sam-build`")
        return
    built = time.strftime("%Y-%m-%d %H:%M", time.localtime(BUILD.stat().st_mtime))
    print(f"built artefacts in .aws-sam/build (built {built})\n")
    header = f"{'artefact':<22} {'files':>6} {'unzipped':>11} {'zipped':>11}"
    print(header)
    print("-" * len(header))
    layer_unzipped = 0
    for folder in sorted(p for p in BUILD.iterdir() if p.is_dir()):
        files, unzipped, zipped = folder_sizes(folder)
        if folder.name.endswith("Layer"):
            layer_unzipped += unzipped
            pyc = sum(p.stat().st_size for p in folder.rglob("*.pyc"))
            print(
                f"{folder.name:<22} {files:>6} {_size(unzipped):>11} {_size(zipped):>11}"
                f"  (.pyc: {_size(pyc)})"
            )
            continue
        print(f"{folder.name:<22} {files:>6} {_size(unzipped):>11} {_size(zipped):>11}")
    print(
        f"\nA function plus the layer unpacks to about {_size(layer_unzipped)} of Lambda's"
        f" {LAMBDA_UNZIPPED_LIMIT_MB} MB limit."
    )


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:.1f} MB"
    return f"{n / 1024:.1f} KB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeats", type=int, default=7, help="fresh interpreters per module, with .pyc"
    )
    parser.add_argument(
        "--cold-repeats", type=int, default=3, help="fresh interpreters per module, without .pyc"
    )
    args = parser.parse_args(argv)
    warm, cold, first_turn, folder, layer = cold_starts(args.repeats, args.cold_repeats)
    try:
        print_cold_starts(warm, cold)
        print_first_turn(first_turn)
        print_layer_built(layer)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print_sizes()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
