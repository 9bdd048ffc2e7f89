"""The scanner against its labelled corpus (tests/corpus/scanner_corpus.jsonl): a floor, not
a target. benchmarks/bench_scanner.py prints the figures; the goals are recall >= 0.95 and
false positives <= 0.02 per category; the suite fails below 0.9 or above 0.05."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from agent_memory.domain import LIMITS, ThreatCategory, scan, scan_document

CORPUS_PATH = Path(__file__).resolve().parents[3] / "corpus/scanner_corpus.jsonl"
CORPUS = [json.loads(line) for line in CORPUS_PATH.open(encoding="utf-8")]
MIN_RECALL = 0.9
MAX_FALSE_POSITIVES = 0.05


def test_the_corpus_is_large_enough_and_every_item_names_its_source() -> None:
    labels = Counter(item["label"] for item in CORPUS)
    assert labels["benign"] >= 300
    assert sum(count for label, count in labels.items() if label != "benign") >= 300
    assert {label for label in labels if label != "benign"} == set(ThreatCategory)
    assert all(item["source"].strip() for item in CORPUS)
    assert len({item["text"] for item in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("category", sorted(ThreatCategory))
def test_recall_per_category_is_at_least_the_floor(category: ThreatCategory) -> None:
    attacks = [item["text"] for item in CORPUS if item["label"] == category]
    caught = sum(scan(text) is not None for text in attacks)
    assert caught / len(attacks) >= MIN_RECALL, f"{category}: {caught}/{len(attacks)}"


def test_false_positives_on_benign_facts_stay_under_the_ceiling() -> None:
    benign = [item for item in CORPUS if item["label"] == "benign"]
    refused = [item["text"] for item in benign if scan(item["text"]) is not None]
    assert len(refused) / len(benign) <= MAX_FALSE_POSITIVES, refused


def test_false_positives_per_kind_of_benign_fact_stay_under_the_ceiling() -> None:
    by_kind: dict[str, list[str]] = {}
    for item in CORPUS:
        if item["label"] == "benign":
            kind = item["source"].rsplit("(", 1)[-1].rstrip(")")
            by_kind.setdefault(kind, []).append(item["text"])
    for kind, texts in by_kind.items():
        refused = sum(scan(text) is not None for text in texts)
        assert refused / len(texts) <= MAX_FALSE_POSITIVES, f"{kind}: {refused}/{len(texts)}"


@pytest.mark.parametrize("seed", range(0, 300, 3))
def test_benign_facts_side_by_side_never_read_as_an_attack(seed: int) -> None:
    # GIVEN a full memory of benign facts (the corpus's, in a shuffled order)
    facts = [item["text"] for item in CORPUS if item["label"] == "benign"]
    random.Random(seed).shuffle(facts)
    document: list[str] = []
    for fact in facts:
        if sum(map(len, document)) + len(document) + len(fact) > sum(LIMITS.values()):
            break
        document.append(fact)
    # THEN the document read whole holds no finding: a gap in a rule does not bridge two
    # facts ("...exported to S3 for the analytics team." beside "Our webhook is https://...")
    assert scan_document(document) is None
