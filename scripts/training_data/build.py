"""Gathers every source, removes duplicates, caps each source's share, writes the files."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import attack_sources as attacks
from . import benign_sources as benign
from . import synthetic, synthetic_benign
from .common import BENIGN, MAX_CHARS, Item, NearDuplicates, Snapshot, normalise

NOT_STATED = "licence not stated"
MEM0_DOCS = r"(AGENTS|CLAUDE|CONTRIBUTING|README)\.md$|^docs/.*\.mdx?$"
ATTACK_SHARE = 0.30
BENIGN_SHARE = 0.25


@dataclass(frozen=True)
class Source:
    """One repository's contribution: how to read it and how many items to take at most."""

    repo: str
    licence: str
    read: Callable[[Snapshot], Iterable[Item]]
    quota: int


Reader = Callable[[Snapshot], Iterable[Item]]


def _both(first: Reader, second: Reader) -> Reader:
    return lambda snapshot: [*first(snapshot), *second(snapshot)]


def _attack_sources() -> list[Source]:
    return [
        Source("HumanCompatibleAI/tensor-trust-data", NOT_STATED, attacks.tensor_trust, 700),
        Source("sherdencooper/GPTFuzz", "MIT", attacks.gptfuzz, 200),
        Source(
            "deadbits/vigil-llm",
            "Apache-2.0",
            _both(attacks.vigil_instruction_bypass, attacks.vigil_role_markers),
            300,
        ),
        Source("cyberark/FuzzyAI", "Apache-2.0", attacks.fuzzyai, 250),
        Source("microsoft/TaskTracker", "MIT", attacks.task_tracker, 700),
        Source("friuns2/BlackFriday-GPTs-Prompts", "MIT", attacks.blackfriday_jailbreaks, 200),
        Source(
            "langgptai/LLM-Jailbreaks",
            "Apache-2.0",
            lambda s: attacks.markdown_code_blocks(s, "README.md"),
            100,
        ),
    ]


def _docs(pattern: str, snippets: bool = False) -> Reader:
    return lambda s: benign.markdown_lines(s, benign.paths_matching(s, pattern), snippets)


def _with_commits(
    read_docs: Callable[[Snapshot], Iterable[Item]], commits: int
) -> Callable[[Snapshot], Iterable[Item]]:
    def read(snapshot: Snapshot) -> Iterator[Item]:
        yield from _sample(list(benign.commit_subjects(snapshot)), commits, snapshot.name)
        yield from read_docs(snapshot)

    return read


def _benign_sources() -> list[Source]:
    return [
        Source(
            "google-research-datasets/Synthetic-Persona-Chat", "CC-BY-4.0", benign.persona_chat, 950
        ),
        Source("snap-research/locomo", NOT_STATED, benign.locomo, 750),
        Source(
            "mem0ai/mem0",
            "Apache-2.0",
            _both(benign.example_memories, _with_commits(_docs(MEM0_DOCS, snippets=True), 250)),
            1000,
        ),
        Source("letta-ai/letta", "Apache-2.0", _with_commits(_docs(r"\.md$"), 350), 450),
        Source(
            "OWASP/CheatSheetSeries",
            "CC-BY-SA-4.0",
            _with_commits(_docs(r"^cheatsheets/.*\.md$"), 150),
            750,
        ),
        Source(
            "OWASP/www-project-top-10-for-large-language-model-applications",
            "CC-BY-SA-4.0",
            _docs(r"^2_0_vulns/LLM\d.*\.md$"),
            350,
        ),
        Source("tldrsec/prompt-injection-defenses", NOT_STATED, _docs(r"README\.md$"), 100),
        Source(
            "github/awesome-copilot", "MIT", _docs(r"^instructions/.*\.md$", snippets=True), 900
        ),
        Source("airbnb/javascript", "MIT", _docs(r"README\.md$", snippets=True), 400),
        Source("thoughtbot/guides", "CC-BY-3.0", _docs(r"\.md$"), 400),
        Source(
            "rust-lang/api-guidelines",
            "MIT OR Apache-2.0",
            _docs(r"^src/.*\.md$", snippets=True),
            250,
        ),
        Source("agentsmd/agents.md", "MIT", _docs(r"\.md$"), 50),
    ]


def _sample(items: list[Item], quota: int, seed_text: str) -> list[Item]:
    rng = random.Random(seed_text)
    items = list(items)
    rng.shuffle(items)
    return items[:quota]


class _Exclusions:
    """What an item may not repeat: the scanner corpus (exactly or nearly) and the items
    taken so far (exactly, once normalised)."""

    def __init__(self, corpus: list[str], key: Callable[[str], str] = normalise) -> None:
        self.key = key
        self.taken = {key(text) for text in corpus}
        self.near_corpus = NearDuplicates(corpus, key)
        self.dropped_near_corpus: Counter[str] = Counter()

    def fresh(self, items: Iterable[Item]) -> list[Item]:
        """Items under the size limit not excluded, each normalised text once."""
        seen: set[str] = set()
        kept = []
        for item in items:
            key = self.key(item.text)
            if not key or key in self.taken or key in seen or len(item.text) > MAX_CHARS:
                continue
            if self.near_corpus.matches(item.text):
                self.dropped_near_corpus[_source_repo(item)] += 1
                continue
            seen.add(key)
            kept.append(item)
        return kept


def _collect(
    mirror: Path, sources: list[Source], extra: Iterable[Item], exclusions: _Exclusions
) -> list[Item]:
    chosen: list[Item] = []
    for source in sources:
        snapshot = Snapshot(mirror, source.repo, source.licence)
        if not snapshot.exists():
            print(f"skipped (no snapshot): {source.repo}")
            continue
        picked = _sample(exclusions.fresh(source.read(snapshot)), source.quota, source.repo)
        chosen.extend(picked)
        exclusions.taken.update(exclusions.key(item.text) for item in picked)
    picked = exclusions.fresh(extra)
    exclusions.taken.update(exclusions.key(item.text) for item in picked)
    return chosen + picked


def _source_repo(item: Item) -> str:
    return item.source.split(" ", 1)[0]


def _cap_shares(items: list[Item], share: float) -> list[Item]:
    """Trims the largest sources until none holds more than the share of the whole."""
    items = list(items)
    while True:
        counts = Counter(_source_repo(item) for item in items)
        repo, count = counts.most_common(1)[0]
        allowed = int(share * len(items))
        if count <= allowed:
            return items
        own = [item for item in items if _source_repo(item) == repo]
        drop = {id(item) for item in random.Random(repo).sample(own, count - allowed)}
        items = [item for item in items if id(item) not in drop]


def _write(path: Path, items: list[Item]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for item in items:
            out.write(json.dumps(item.as_json(), ensure_ascii=False) + "\n")


def _held_out_filter(items: list[Item], script: Path, work: Path, name: str) -> list[Item]:
    """The items the team's held-out filter keeps (it reads the held-out sets, we do not)."""
    raw, kept = work / f"{name}.raw.jsonl", work / f"{name}.kept.jsonl"
    _write(raw, items)
    subprocess.run(["python3", str(script), str(raw), str(kept)], check=True)  # noqa: S603, S607
    texts = {json.loads(line)["text"] for line in kept.open(encoding="utf-8")}
    dropped = Counter(_source_repo(item) for item in items if item.text not in texts)
    for repo, count in dropped.most_common():
        print(f"  {name}: held-out filter dropped {count} from {repo}")
    return [item for item in items if item.text in texts]


def texts_of(path: Path) -> list[str]:
    """The texts of a JSON-lines file of items."""
    return [json.loads(line)["text"] for line in path.open(encoding="utf-8")]


def write_batch(
    out: Path, files: Sequence[tuple[str, list[Item]]], share: float, held_out_filter: Path | None
) -> None:
    """A later batch's last steps: the held-out filter (when given), each source capped at
    ``share`` of its file, the files written under ``out`` and a count per source printed."""
    if held_out_filter is not None:
        with tempfile.TemporaryDirectory() as work:
            files = [
                (name, _held_out_filter(items, held_out_filter, Path(work), kind))
                for (name, items), kind in zip(files, ("attacks", "benign"), strict=True)
            ]
    for name, items in files:
        items = _cap_shares(items, share)
        _write(out / name, items)
        print(name, len(items))
        counts = Counter((_source_repo(item), item.label) for item in items)
        for (repo, label), count in sorted(counts.items()):
            print(f"  {count:5d}  {label:20s} {repo}")


def run(build_batch: Callable[[Path, Path, Path, Path | None], None], description: str) -> None:
    """The command line every build shares: ``--mirror``, ``--out``, ``--corpus``,
    ``--held-out-filter``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--mirror", type=Path, required=True, help="directory of fetched snapshots")
    parser.add_argument("--out", type=Path, default=Path("training"))
    parser.add_argument("--corpus", type=Path, default=Path("tests/corpus/scanner_corpus.jsonl"))
    parser.add_argument(
        "--held-out-filter",
        type=Path,
        help="the team's dedupe.py: drops near duplicates of the held-out sets before capping",
    )
    args = parser.parse_args()
    build_batch(args.mirror, args.out, args.corpus, args.held_out_filter)


def build(mirror: Path, out: Path, corpus: Path, held_out_filter: Path | None) -> None:
    exclusions = _Exclusions([json.loads(line)["text"] for line in corpus.open(encoding="utf-8")])
    attack_items = _collect(mirror, _attack_sources(), synthetic.attacks(), exclusions)
    project_benign = [*synthetic_benign.benign(), *synthetic_benign.hard_negatives()]
    benign_items = _collect(mirror, _benign_sources(), project_benign, exclusions)
    for repo, count in exclusions.dropped_near_corpus.most_common():
        print(f"  near duplicates of the scanner corpus dropped: {count} from {repo}")
    out.mkdir(parents=True, exist_ok=True)
    if held_out_filter is not None:
        with tempfile.TemporaryDirectory() as work:
            attack_items = _held_out_filter(attack_items, held_out_filter, Path(work), "attacks")
            benign_items = _held_out_filter(benign_items, held_out_filter, Path(work), "benign")
    attack_items = _cap_shares(attack_items, ATTACK_SHARE)
    benign_items = _cap_shares(benign_items, BENIGN_SHARE)
    _write(out / "attacks.jsonl", attack_items)
    _write(out / "benign.jsonl", [item for item in benign_items if item.label == BENIGN])
    for name, items in (("attacks", attack_items), ("benign", benign_items)):
        print(name, len(items))
        counts = Counter((_source_repo(item), item.label) for item in items)
        for (repo, label), count in sorted(counts.items()):
            print(f"  {count:5d}  {label:20s} {repo}")
