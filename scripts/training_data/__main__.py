"""Command line: python3 -m scripts.training_data --mirror DIR [--held-out-filter dedupe.py]."""

from __future__ import annotations

import argparse
from pathlib import Path

from .build import build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mirror", type=Path, required=True, help="directory of fetched snapshots")
    parser.add_argument("--out", type=Path, default=Path("training"))
    parser.add_argument("--corpus", type=Path, default=Path("tests/corpus/scanner_corpus.jsonl"))
    parser.add_argument(
        "--held-out-filter",
        type=Path,
        help="the team's dedupe.py: drops near duplicates of the held-out sets before capping",
    )
    args = parser.parse_args()
    build(args.mirror, args.out, args.corpus, args.held_out_filter)


if __name__ == "__main__":
    main()
