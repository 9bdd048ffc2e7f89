"""The second batch of training data (training/*_more.jsonl): sources the first build did not
use, kept apart from every text already in training/ and the scanner corpus.

    python3 -m scripts.training_data.build_more --mirror /work/.mirror --out training \
        --held-out-filter /tmp/ml/dedupe.py
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from . import benign_sources as benign
from . import payload_sources as payloads
from . import request_sources as requests
from .build import (
    NOT_STATED,
    Source,
    _cap_shares,
    _collect,
    _Exclusions,
    _held_out_filter,
    _source_repo,
    _write,
)
from .common import Item, Snapshot

MORE_SHARE = 0.40
DEEPTEAM_DOCS = (
    r"^docs/content/(guides/|blog/|docs/\((agentic|security|owasp|concepts|guards)\)/).*\.mdx?$"
)
NEMO_DOCS = r"^docs/(security|user_guides|getting_started|architecture).*\.md$"
FIRST_BATCH = ("attacks.jsonl", "benign.jsonl", "benign_third_person.jsonl")


def _benign_sources() -> list[Source]:
    return [
        Source("clinc/oos-eval", "CC-BY-3.0", requests.clinc_queries, 800),
        Source(
            "google-research-datasets/dstc8-schema-guided-dialogue",
            "CC-BY-SA-4.0",
            requests.schema_guided_openings,
            500,
        ),
        Source("yizhongw/self-instruct", "Apache-2.0", requests.self_instruct_tasks, 500),
        Source("NVIDIA/NeMo-Guardrails", "Apache-2.0", _docs(NEMO_DOCS), 350),
        Source("confident-ai/deepteam", "Apache-2.0", _docs(DEEPTEAM_DOCS), 400),
    ]


def _attack_sources() -> list[Source]:
    return [
        Source("rustyorb/pincer", "MIT", payloads.pincer_payloads, 200),
        Source("proventra/proventra-core", "MIT", payloads.proventra_attacks, 200),
        Source("Arcanum-Sec/arc_pi_taxonomy", "CC-BY-4.0", payloads.arcanum_examples, 200),
        Source("fr4nk3nst1ner/aiml-testing", "MIT", payloads.aiml_testing_blocks, 200),
        Source("ItsNishi/AI-Agent-Security", NOT_STATED, payloads.agent_security_examples, 200),
        Source(
            "CyberAlbSecOP/Awesome_GPT_Super_Prompting",
            "GPL-3.0",
            lambda s: payloads.jailbreak_files(s, "Latest Jailbreaks"),
            200,
        ),
    ]


def _docs(pattern: str) -> Callable[[Snapshot], Iterable[Item]]:
    return lambda s: benign.markdown_lines(s, benign.paths_matching(s, pattern))


def _texts(path: Path) -> list[str]:
    return [json.loads(line)["text"] for line in path.open(encoding="utf-8")]


def build_more(mirror: Path, out: Path, corpus: Path, held_out_filter: Path | None) -> None:
    first = [text for name in FIRST_BATCH if (out / name).exists() for text in _texts(out / name)]
    # the first batch is excluded as the corpus is: exactly and nearly
    exclusions = _Exclusions([*_texts(corpus), *first])
    attack_items = _collect(mirror, _attack_sources(), [], exclusions)
    benign_items = _collect(mirror, _benign_sources(), [], exclusions)
    for repo, count in exclusions.dropped_near_corpus.most_common():
        print(f"  near duplicates of the corpus or first batch dropped: {count} from {repo}")
    if held_out_filter is not None:
        with tempfile.TemporaryDirectory() as work:
            attack_items = _held_out_filter(attack_items, held_out_filter, Path(work), "attacks")
            benign_items = _held_out_filter(benign_items, held_out_filter, Path(work), "benign")
    for name, items in (("attacks_more", attack_items), ("benign_more", benign_items)):
        items = _cap_shares(items, MORE_SHARE)
        _write(out / f"{name}.jsonl", items)
        print(name, len(items))
        counts = Counter((_source_repo(item), item.label) for item in items)
        for (repo, label), count in sorted(counts.items()):
            print(f"  {count:5d}  {label:20s} {repo}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mirror", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=Path("training"))
    parser.add_argument("--corpus", type=Path, default=Path("tests/corpus/scanner_corpus.jsonl"))
    parser.add_argument("--held-out-filter", type=Path)
    args = parser.parse_args()
    build_more(args.mirror, args.out, args.corpus, args.held_out_filter)


if __name__ == "__main__":
    main()
