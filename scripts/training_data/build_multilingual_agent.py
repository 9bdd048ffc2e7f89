"""The third batch of training data (training/multilingual_agent_*.jsonl): injections and
harmful requests outside English, agent task hijacks, and the benign side they are confused
with (confidences and questions to an assistant in the same languages, tasks given to agents,
documentation that tells its reader what to do), from sources the first two builds did not
use, kept apart from every text already in training/ and the scanner corpus.

    python3 -m scripts.training_data.build_multilingual_agent --mirror /work/.mirror \
        --out training --held-out-filter /tmp/ml/dedupe.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from . import agent_task_sources as agents
from . import benign_sources as benign
from . import jailbreak_template_sources as templates
from . import multilingual_sources as multilingual
from .build import (
    Source,
    _collect,
    _Exclusions,
    run,
    texts_of,
    write_batch,
)
from .common import Item, Snapshot, normalise_any_script

SHARE = 0.40
ATTACKS = "multilingual_agent_attacks.jsonl"
BENIGN_FILE = "multilingual_agent_benign.jsonl"
# the git cheat sheets in the languages the classifier reads (see multilingual_sources)
TRAINING_KIT_DOCS = (
    r"^(git-guides/[^/]+|downloads/[^/]+|downloads/(de|es_ES|fr|it|pt_BR|pt_PT|tr|id|pl|"
    r"sk|az)/[^/]+)\.md$"
)
RUST_BOOK_DOCS = r"^src/(ch\d\d|appendix).*\.md$"


def _attack_sources() -> list[Source]:
    return [
        Source(
            "Jarviswang94/Multilingual_safety_benchmark",
            "Apache-2.0",
            multilingual.xsafety_attacks,
            380,
        ),
        Source(
            "DAMO-NLP-SG/multilingual-safety-for-LLMs", "MIT", multilingual.multijail_requests, 250
        ),
        Source("Zhang-Henry/AIOS_agent", "MIT", agents.asb_attack_instructions, 200),
        Source(
            "AI-secure/DecodingTrust", "CC-BY-SA-4.0", templates.decodingtrust_system_prompts, 100
        ),
    ]


def _benign_sources() -> list[Source]:
    return [
        Source(
            "Jarviswang94/Multilingual_safety_benchmark",
            "Apache-2.0",
            multilingual.xsafety_benign,
            550,
        ),
        Source("github/training-kit", "CC-BY-4.0", _docs(TRAINING_KIT_DOCS, imperative=False), 450),
        Source("rust-lang/book", "MIT OR Apache-2.0", _docs(RUST_BOOK_DOCS, imperative=True), 450),
        Source("Zhang-Henry/AIOS_agent", "MIT", agents.asb_user_tasks, 150),
    ]


def _docs(pattern: str, imperative: bool) -> Callable[[Snapshot], Iterable[Item]]:
    def read(snapshot: Snapshot) -> Iterable[Item]:
        paths = benign.paths_matching(snapshot, pattern)
        if imperative:
            return agents.imperative_lines(snapshot, paths)
        return benign.markdown_lines(snapshot, paths, snippets=True)

    return read


def build(mirror: Path, out: Path, corpus: Path, held_out_filter: Path | None) -> None:
    others = sorted(p for p in out.glob("*.jsonl") if p.name not in {ATTACKS, BENIGN_FILE})
    earlier = [text for path in others for text in texts_of(path)]
    # every earlier file is excluded as the corpus is, exactly and nearly, by the words of
    # any script (the first builds' a-z words would make every Russian text the same)
    exclusions = _Exclusions([*texts_of(corpus), *earlier], key=normalise_any_script)
    attack_items = _collect(mirror, _attack_sources(), [], exclusions)
    benign_items = _collect(mirror, _benign_sources(), [], exclusions)
    for repo, count in exclusions.dropped_near_corpus.most_common():
        print(f"  near duplicates of the corpus or earlier files dropped: {count} from {repo}")
    write_batch(out, [(ATTACKS, attack_items), (BENIGN_FILE, benign_items)], SHARE, held_out_filter)


if __name__ == "__main__":
    run(build, __doc__ or "")
