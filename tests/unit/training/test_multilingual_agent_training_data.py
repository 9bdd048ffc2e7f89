"""The third batch of training data (training/multilingual_agent_*.jsonl, built by
scripts/training_data/build_multilingual_agent.py): the promises training/README.md makes
about it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import training_files as files

from agent_memory.domain import ThreatCategory
from agent_memory.domain.threats.classifier import features
from agent_memory.domain.threats.folding import nfkc
from agent_memory.domain.threats.threat_rule import ScanViews

_key = files.normalised_any_script  # words of any script
ROOT = Path(__file__).resolve().parents[3]
TRAINING = ROOT / "training"
ATTACKS = TRAINING / "multilingual_agent_attacks.jsonl"
BENIGN = TRAINING / "multilingual_agent_benign.jsonl"
BATCH = (ATTACKS, BENIGN)
MAX_CHARS = 2200
SHARE = 0.40


def _language(item: dict[str, str]) -> str:
    path = item["source"].split(" ")[1]
    if "MultiJail.csv:" in path:
        return path.rsplit(":", 1)[1]
    return path.split("/", 1)[0]


def test_the_batch_holds_hundreds_of_attacks_and_at_least_as_many_benign_texts() -> None:
    attacks, benign = files.items(ATTACKS), files.items(BENIGN)
    assert 400 <= len(attacks) <= 900
    assert len(benign) >= len(attacks)


@pytest.mark.parametrize("path", BATCH, ids=lambda path: path.name)
def test_every_item_is_well_formed_and_labelled_by_its_file(path: Path) -> None:
    items = files.items(path)
    for item in items:
        assert set(item) == {"text", "label", "source"}, item
        assert 0 < len(item["text"]) <= MAX_CHARS, item["source"]
        assert re.fullmatch(r"\S+ .+ \[[^\]]+\]", item["source"]), item["source"]
    labels = {item["label"] for item in items}
    if path == BENIGN:
        assert labels == {"benign"}
    else:
        assert labels <= set(ThreatCategory) - {"benign"}


@pytest.mark.parametrize("path", BATCH, ids=lambda path: path.name)
def test_no_source_holds_more_than_two_fifths_of_a_file(path: Path) -> None:
    items = files.items(path)
    repo, count = Counter(files.repo(item) for item in items).most_common(1)[0]
    assert count <= SHARE * len(items), f"{repo}: {count}/{len(items)}"


def test_languages_other_than_english_are_on_both_sides() -> None:
    # GIVEN the multilingual sources' items WHEN their languages are counted THEN German,
    # French and Spanish appear among attacks and benign texts alike, so that the classifier
    # cannot learn a language as a sign of attack
    xsafety = "Jarviswang94/Multilingual_safety_benchmark"
    for path in BATCH:
        languages = Counter(
            _language(item) for item in files.items(path) if files.repo(item) == xsafety
        )
        assert {"de", "fr", "sp"} <= {lang for lang, count in languages.items() if count >= 30}


@pytest.mark.parametrize("path", BATCH, ids=lambda path: path.name)
def test_every_text_gives_the_classifier_words_to_read(path: Path) -> None:
    # GIVEN the batch WHEN the classifier's features are read from each text's skeleton THEN
    # (nearly) every text has enough words to judge: the trainer skips the others
    unread = [
        item["text"]
        for item in files.items(path)
        if features(ScanViews.of(nfkc(item["text"])).skeleton) is None
    ]
    assert len(unread) <= 0.01 * len(files.items(path)), unread[:5]


def test_no_text_repeats_another_training_file_or_the_scanner_corpus() -> None:
    others = [p for p in sorted(TRAINING.glob("*.jsonl")) if p not in BATCH]
    earlier = {_key(item["text"]) for path in others for item in files.items(path)}
    corpus_items = files.items(ROOT / "tests/corpus/scanner_corpus.jsonl")
    corpus = {_key(item["text"]) for item in corpus_items}
    batch = [_key(item["text"]) for path in BATCH for item in files.items(path)]
    repeated = [key for key, count in Counter(batch).items() if count > 1]
    assert not repeated, repeated[:5]
    assert not [key for key in batch if key in earlier or key in corpus]
