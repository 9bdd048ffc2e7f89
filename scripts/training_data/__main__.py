"""Command line: python3 -m scripts.training_data --mirror DIR [--held-out-filter dedupe.py]."""

from __future__ import annotations

from .build import build, run

if __name__ == "__main__":
    run(build, __doc__ or "")
