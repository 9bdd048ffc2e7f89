"""Reading the training files in their tests: items, their source repository, and texts
normalised to compare them (by a-z words as the first builds did, or by words of any
script)."""

from __future__ import annotations

import json
import re
from pathlib import Path


def items(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.open(encoding="utf-8")]


def repo(item: dict[str, str]) -> str:
    return item["source"].split(" ", 1)[0]


def normalised(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def normalised_any_script(text: str) -> str:
    """Words of any script: a-z alone would make every Russian or Japanese text the same."""
    return " ".join(re.findall(r"[^\W_]+", text.lower()))
