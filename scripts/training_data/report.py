"""Prints the sources table of training/README.md from the committed files.

Usage: python3 -m scripts.training_data.report training
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path


def table(directory: Path) -> str:
    rows = ["| file | source | licence | labels | items | share |", "|---|---|---|---|---:|---:|"]
    for name in ("attacks", "benign"):
        items = [json.loads(line) for line in (directory / f"{name}.jsonl").open(encoding="utf-8")]
        by_source: Counter[str] = Counter()
        labels: dict[str, Counter[str]] = {}
        licences: dict[str, str] = {}
        for item in items:
            repo = item["source"].split(" ", 1)[0]
            by_source[repo] += 1
            labels.setdefault(repo, Counter())[item["label"]] += 1
            licences[repo] = item["source"].rsplit("[", 1)[-1].rstrip("]")
        for repo, count in by_source.most_common():
            spread = ", ".join(f"{label} {n}" for label, n in labels[repo].most_common())
            share = 100 * count / len(items)
            rows.append(
                f"| {name} | {repo} | {licences[repo]} | {spread} | {count} | {share:.1f}% |"
            )
        rows.append(f"| {name} | **total** | | | **{len(items)}** | |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table(Path(sys.argv[1] if len(sys.argv) > 1 else "training")))
