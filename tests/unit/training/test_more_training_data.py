"""The second batch of training data (training/*_more.jsonl, built by
scripts/training_data/build_more.py): the promises training/README.md makes about it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import training_files as files

from agent_memory.domain import ThreatCategory

ROOT = Path(__file__).resolve().parents[3]
TRAINING = ROOT / "training"
MORE = sorted(TRAINING.glob("*_more.jsonl"))
MAX_CHARS = 2200
MORE_SHARE = 0.40


def test_the_second_batch_is_there() -> None:
    assert MORE
    assert all(len(files.items(path)) >= 200 for path in MORE)


@pytest.mark.parametrize("path", MORE, ids=lambda path: path.name)
def test_every_item_is_well_formed_and_labelled_by_its_file(path: Path) -> None:
    items = files.items(path)
    for item in items:
        assert set(item) == {"text", "label", "source"}, item
        assert 0 < len(item["text"]) <= MAX_CHARS, item["source"]
        assert re.fullmatch(r"\S+ .+ \[[^\]]+\]", item["source"]), item["source"]
    labels = {item["label"] for item in items}
    if path.name.startswith("benign"):
        assert labels == {"benign"}
    else:
        assert labels <= set(ThreatCategory)


@pytest.mark.parametrize("path", MORE, ids=lambda path: path.name)
def test_no_source_holds_more_than_two_fifths_of_a_file(path: Path) -> None:
    items = files.items(path)
    repo, count = Counter(files.repo(item) for item in items).most_common(1)[0]
    assert count <= MORE_SHARE * len(items), f"{repo}: {count}/{len(items)}"


def test_no_text_repeats_another_training_file_or_the_scanner_corpus() -> None:
    every_file = sorted(TRAINING.glob("*.jsonl"))
    keys = [files.normalised(item["text"]) for path in every_file for item in files.items(path)]
    corpus_items = files.items(ROOT / "tests/corpus/scanner_corpus.jsonl")
    corpus = {files.normalised(item["text"]) for item in corpus_items}
    more = [files.normalised(item["text"]) for path in MORE for item in files.items(path)]
    repeated = [key for key, count in Counter(keys).items() if count > 1 and key in set(more)]
    assert not repeated, repeated[:5]
    assert not [key for key in more if key in corpus]
