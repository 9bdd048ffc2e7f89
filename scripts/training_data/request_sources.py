"""Readers for ordinary requests addressed to an assistant: the benign side the classifier
confused most ("Tell me about ...", "Can you make ...?"), taken from public chat, intent and
instruction data sets."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator

from .common import BENIGN, Item, Snapshot, clip

_SHORT = 300
_INSTRUCTION_WITH_INPUT = 600


def clinc_queries(snapshot: Snapshot) -> Iterator[Item]:
    """User queries to a task assistant, in 150 intents and out of scope ("how do i find the
    area of a circle"), from every split of CLINC150's full set."""
    path = "data/data_full.json"
    splits: dict[str, list[list[str]]] = json.loads(snapshot.show(path))
    for pairs in splits.values():
        for text, _intent in pairs:
            if len(text.split()) >= 3:
                yield Item(text.strip(), BENIGN, snapshot.source(path))


def schema_guided_openings(snapshot: Snapshot, files: int = 40) -> Iterator[Item]:
    """The user's turns of Schema-Guided Dialogue conversations (requests to a virtual
    assistant: "I would like to find a place to eat."), from a fixed sample of train files."""
    paths = sorted(p for p in snapshot.paths() if p.startswith("train/dialogues_"))
    for path in random.Random(snapshot.name).sample(paths, min(files, len(paths))):
        try:
            dialogues = json.loads(snapshot.show(path))
        except subprocess.CalledProcessError:  # the snapshot left some large files out
            continue
        for dialogue in dialogues:
            for turn in dialogue["turns"]:
                text = turn["utterance"].strip()
                if turn["speaker"] == "USER" and len(text.split()) >= 5 and len(text) <= _SHORT:
                    yield Item(text, BENIGN, snapshot.source(path))


def self_instruct_tasks(snapshot: Snapshot) -> Iterator[Item]:
    """The human-written seed tasks and user-oriented instructions of Self-Instruct, with the
    input of their first instance when there is one and the whole stays short."""
    for path in ("data/seed_tasks.jsonl", "human_eval/user_oriented_instructions.jsonl"):
        for line in snapshot.show(path).splitlines():
            task = json.loads(line)
            instruction = task["instruction"].strip()
            instances = task.get("instances") or [{}]
            given = str(instances[0].get("input", "")).strip()
            joined = f"{instruction}\n{given}" if given else instruction
            text = joined if len(joined) <= _INSTRUCTION_WITH_INPUT else clip(instruction)
            if text:
                yield Item(text, BENIGN, snapshot.source(path))
