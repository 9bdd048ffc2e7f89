"""Cold start: each function's import-and-init time as a ratio to a minimal boto3 handler,
and the size of the built artefacts.

Every measurement is a fresh interpreter (python -c) that loads one handler module the way
the Lambda runtime does (functions/<name>/app.py, module-level code included) and times
just that, so interpreter start-up, the same for all, is left out. The reference is a
minimal handler that imports only boto3 and creates a DynamoDB client. Modules are
measured round-robin, REPEATS times each, and the median is printed, so machine noise hits
all of them alike. The environment is Lambda's as far as init is concerned
(LAMBDA_TASK_ROOT set, so the Powertools Tracer is on and imports the X-Ray SDK; tables,
issuer and flags as template.yaml sets them).

Two columns: with the bytecode cache warm (.pyc files present, as on a developer machine),
and without bytecode for any third-party or project module (the standard library keeps
its .pyc): that is how the layer ships (`sam build` writes no .pyc and /opt is read-only),
so it is closer to a real Lambda cold start. The minimal handler is measured the same way,
as if it bundled boto3 too.

The code is loaded from this checkout's virtual environment (the same code the layer holds):
the built layer is arm64 and its native wheels do not load on another architecture.

Sizes come from .aws-sam/build (`make sam-build` builds it; arm64, no Docker): each
function's folder and the shared layer, unzipped and zipped (deflate, as `sam package`).
Figures only, no assertions.

    python benchmarks/bench_cold_start.py [--repeats 5] [--cold-repeats 3]
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FUNCTIONS = ("authorizer", "chat", "memory_api", "eval", "cleanup")
BASELINE = "boto3 + DynamoDB client"
BUILD = ROOT / ".aws-sam" / "build"
LAMBDA_UNZIPPED_LIMIT_MB = 250

MINIMAL_HANDLER = """\
import boto3

client = boto3.client("dynamodb")


def lambda_handler(event, context):
    return {"statusCode": 200}
"""

PROBE = """\
import importlib.util, sys, time
path = sys.argv[1]
started = time.perf_counter()
spec = importlib.util.spec_from_file_location("app", path)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print((time.perf_counter() - started) * 1000)
"""

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
}


def module_paths(minimal: Path) -> dict[str, Path]:
    paths = {BASELINE: minimal}
    paths.update({name: ROOT / "functions" / name / "app.py" for name in FUNCTIONS})
    return paths


def measure_once(path: Path, cache: Path | None = None, *, write_cache: bool = False) -> float:
    """One fresh interpreter; ``cache`` is a bytecode cache folder (PYTHONPYCACHEPREFIX)
    that is only read unless ``write_cache``."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("AWS_", "POWERTOOLS_", "DYNAMODB_", "PYTHONPYCACHE"))
    }
    env.update(LAMBDA_LIKE_ENV)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is not None:
        env["PYTHONPYCACHEPREFIX"] = str(cache)
        if not write_cache:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["LAMBDA_TASK_ROOT"] = str(path.parent)
    env["AWS_LAMBDA_FUNCTION_NAME"] = path.parent.name
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)],
        env=env,
        cwd=path.parent,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{path} failed to load:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


Timings = dict[str, list[float]]


def cold_starts(repeats: int, cold_repeats: int) -> tuple[Timings, Timings]:
    """(with .pyc, without .pyc outside the standard library), by module."""
    with tempfile.TemporaryDirectory(prefix="bench-cold-start-") as folder:
        minimal = Path(folder) / "minimal" / "app.py"
        minimal.parent.mkdir()
        minimal.write_text(MINIMAL_HANDLER, encoding="utf-8")
        paths = module_paths(minimal)
        stdlib_only = Path(folder) / "pycache"
        # One unmeasured round: fills the OS file cache, and a bytecode cache from which
        # everything but the standard library's is then removed.
        for path in paths.values():
            measure_once(path)
            measure_once(path, stdlib_only, write_cache=True)
        for tree in {Path(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")} | {
            ROOT,
            minimal.parent,
        }:
            shutil.rmtree(stdlib_only / tree.relative_to(tree.anchor), ignore_errors=True)
        warm: Timings = {name: [] for name in paths}
        cold: Timings = {name: [] for name in paths}
        for round_ in range(max(repeats, cold_repeats)):
            for name, path in paths.items():
                if round_ < repeats:
                    warm[name].append(measure_once(path))
                if round_ < cold_repeats:
                    cold[name].append(measure_once(path, stdlib_only))
    return warm, cold


def print_cold_starts(warm: Timings, cold: Timings) -> None:
    repeats, cold_repeats = len(warm[BASELINE]), len(cold[BASELINE])
    print(
        "import + init of each handler module, median of fresh interpreters"
        f" ({repeats} with .pyc, {cold_repeats} without)\n"
    )
    header = (
        f"{'module':<24} {'with .pyc ms':>12} {'x minimal':>9}"
        f" {'without .pyc ms':>15} {'x minimal':>9}"
    )
    print(header)
    print("-" * len(header))
    warm_reference = statistics.median(warm[BASELINE])
    cold_reference = statistics.median(cold[BASELINE])
    for name in warm:
        warm_median, cold_median = statistics.median(warm[name]), statistics.median(cold[name])
        print(
            f"{name:<24} {warm_median:>12.0f} {warm_median / warm_reference:>9.2f}"
            f" {cold_median:>15.0f} {cold_median / cold_reference:>9.2f}"
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
        "--repeats", type=int, default=5, help="fresh interpreters per module, with .pyc"
    )
    parser.add_argument(
        "--cold-repeats", type=int, default=3, help="fresh interpreters per module, without .pyc"
    )
    args = parser.parse_args(argv)
    print_cold_starts(*cold_starts(args.repeats, args.cold_repeats))
    print_sizes()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
