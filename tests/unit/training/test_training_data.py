"""The classifier's training data (training/*.jsonl, built by scripts/training_data): the
shape every item must have, and the promises training/README.md makes about the files."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from agent_memory.domain import ThreatCategory

ROOT = Path(__file__).resolve().parents[3]


def _items(pattern: str) -> list[dict[str, str]]:
    return [
        json.loads(line)
        for path in sorted((ROOT / "training").glob(pattern))
        for line in path.open(encoding="utf-8")
    ]


ATTACKS = _items("attacks*.jsonl")
BENIGN = _items("benign*.jsonl")  # benign_third_person.jsonl too
CORPUS = [
    json.loads(line) for line in (ROOT / "tests/corpus/scanner_corpus.jsonl").open(encoding="utf-8")
]
MAX_CHARS = 2200


def _normalised(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _repo(item: dict[str, str]) -> str:
    return item["source"].split(" ", 1)[0]


def test_the_files_are_as_large_as_the_readme_promises() -> None:
    assert len(ATTACKS) >= 2000
    assert len(BENIGN) >= 3000


@pytest.mark.parametrize(("name", "items"), [("attacks", ATTACKS), ("benign", BENIGN)])
def test_every_item_has_a_text_a_label_and_a_source_with_its_licence(
    name: str, items: list[dict[str, str]]
) -> None:
    for item in items:
        assert set(item) == {"text", "label", "source"}, item
        assert 0 < len(item["text"]) <= MAX_CHARS, item["source"]
        assert re.fullmatch(r"\S+ .+ \[[^\]]+\]", item["source"]), item["source"]


def test_attack_labels_are_reason_codes_and_benign_labels_are_benign() -> None:
    assert {item["label"] for item in ATTACKS} <= set(ThreatCategory)
    assert {item["label"] for item in BENIGN} == {"benign"}


def test_no_text_is_repeated_within_or_across_the_files() -> None:
    keys = [_normalised(item["text"]) for item in ATTACKS + BENIGN]
    repeated = [key for key, count in Counter(keys).items() if count > 1]
    assert not repeated, repeated[:5]


def test_no_training_text_repeats_a_scanner_corpus_text() -> None:
    corpus = {_normalised(item["text"]) for item in CORPUS}
    overlap = [item["text"] for item in ATTACKS + BENIGN if _normalised(item["text"]) in corpus]
    assert not overlap, overlap[:5]


@pytest.mark.parametrize(
    ("items", "share"), [(ATTACKS, 0.30), (BENIGN, 0.25)], ids=["attacks", "benign"]
)
def test_no_source_holds_more_than_its_share(items: list[dict[str, str]], share: float) -> None:
    repo, count = Counter(_repo(item) for item in items).most_common(1)[0]
    assert count <= share * len(items), f"{repo}: {count}/{len(items)}"


def test_attacks_cover_the_memory_store_families() -> None:
    labels = Counter(item["label"] for item in ATTACKS)
    families = set(ThreatCategory) - {
        ThreatCategory.CREDENTIAL,
        ThreatCategory.INVISIBLE_UNICODE,
        ThreatCategory.ENCODED_PAYLOAD,
    }
    assert all(labels[family] >= 50 for family in families), labels
