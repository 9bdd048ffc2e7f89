"""The second batch of training data (training/*_more.jsonl): sources the first build did not
use, kept apart from every text already in training/ and the scanner corpus.

    python3 -m scripts.training_data.build_more --mirror /work/.mirror --out training \
        --held-out-filter /tmp/ml/dedupe.py
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from . import benign_sources as benign
from . import payload_sources as payloads
from . import request_sources as requests
from .build import (
    NOT_STATED,
    Source,
    _collect,
    _Exclusions,
    run,
    texts_of,
    write_batch,
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


def build_more(mirror: Path, out: Path, corpus: Path, held_out_filter: Path | None) -> None:
    first = [text for name in FIRST_BATCH if (out / name).exists() for text in texts_of(out / name)]
    # the first batch is excluded as the corpus is: exactly and nearly
    exclusions = _Exclusions([*texts_of(corpus), *first])
    attack_items = _collect(mirror, _attack_sources(), [], exclusions)
    benign_items = _collect(mirror, _benign_sources(), [], exclusions)
    for repo, count in exclusions.dropped_near_corpus.most_common():
        print(f"  near duplicates of the corpus or first batch dropped: {count} from {repo}")
    write_batch(
        out,
        [("attacks_more.jsonl", attack_items), ("benign_more.jsonl", benign_items)],
        MORE_SHARE,
        held_out_filter,
    )


if __name__ == "__main__":
    run(build_more, __doc__ or "")
