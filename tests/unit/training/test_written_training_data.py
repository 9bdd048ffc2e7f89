"""The written notes (training/written_*.jsonl): attacks and hard negatives written for this
project in the shape of memory notes; the promises training/README.md makes about them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import training_files as files

from agent_memory.domain import ThreatCategory

_key = files.normalised_any_script  # words of any script
ROOT = Path(__file__).resolve().parents[3]
TRAINING = ROOT / "training"
ATTACKS = TRAINING / "written_attacks.jsonl"
BENIGN = TRAINING / "written_benign.jsonl"
WRITTEN = (ATTACKS, BENIGN)
MAX_CHARS = 2200
# Categories a reader of words judges: the structural ones (keys, invisible characters,
# encodings) are the scanner's code, not the classifier's.
STRUCTURAL = {
    ThreatCategory.CREDENTIAL,
    ThreatCategory.INVISIBLE_UNICODE,
    ThreatCategory.ENCODED_PAYLOAD,
}


@pytest.mark.parametrize("path", WRITTEN, ids=lambda path: path.name)
def test_every_item_is_well_formed_and_labelled_by_its_file(path: Path) -> None:
    items = files.items(path)
    assert len(items) >= 500
    for item in items:
        assert set(item) == {"text", "label", "source"}, item
        assert 0 < len(item["text"]) <= MAX_CHARS
        assert item["source"].endswith("[project-authored]")
    labels = {item["label"] for item in items}
    if path is BENIGN:
        assert labels == {"benign"}
    else:
        assert labels <= {category.value for category in set(ThreatCategory) - STRUCTURAL}


def test_the_written_attacks_cover_every_category_a_reader_of_words_judges() -> None:
    counts = Counter(item["label"] for item in files.items(ATTACKS))
    assert set(counts) == {category.value for category in set(ThreatCategory) - STRUCTURAL}
    assert min(counts.values()) >= 20, counts


def test_there_are_about_as_many_hard_negatives_as_attacks() -> None:
    # (the filters dropped a few of either)
    assert len(files.items(BENIGN)) >= 0.98 * len(files.items(ATTACKS))


def test_no_written_text_repeats_another_or_any_other_training_text_or_the_corpus() -> None:
    written = [_key(item["text"]) for path in WRITTEN for item in files.items(path)]
    assert len(set(written)) == len(written)
    others = {
        _key(item["text"])
        for path in [ROOT / "tests/corpus/scanner_corpus.jsonl", *TRAINING.glob("*.jsonl")]
        if path not in WRITTEN
        for item in files.items(path)
    }
    assert not [text for text in written if text in others][:5]
