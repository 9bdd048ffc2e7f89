"""Where a full-length benign entry's scan time goes, stage by stage (the table in
docs/threat-model.md, "Throughput").

Run: python benchmarks/bench_scanner_stages.py [--repeat N]

Each stage is timed alone over entries made as for bench_scanner.py's throughput figure,
with what it reads made beforehand, so the parts do not add up exactly to the whole scan.
The whole scan and the RE2 prefilter are timed on entries this process has not scanned
(RE2 builds its automata's states as texts come); the pure-Python stages on the same
entries again. CPU time of this process, in µs per entry. Prints figures only.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence

from bench_scanner import full_length_entries, load_corpus

from agent_memory.domain.threats import scanner
from agent_memory.domain.threats.credentials import holds_random_token
from agent_memory.domain.threats.encoded import decoded_payloads
from agent_memory.domain.threats.folding import (
    invisible_character,
    nfkc,
    read_leetspeak,
    skeleton_before_leetspeak,
)
from agent_memory.domain.threats.threat_rule import ScanViews

PREFILTERS = (scanner._STEERING_PREFILTER, scanner._CREDENTIAL_PREFILTER)


def per_entry(work: Callable[[], object], entries: int, repeat: int) -> float:
    work()  # compiled patterns are built once per process, not timed
    start = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - start) / repeat / entries * 1e6


def once_per_entry(work: Callable[[], object], entries: int) -> float:
    start = time.process_time()
    work()
    return (time.process_time() - start) / entries * 1e6


def fresh_views(plains: Sequence[str]) -> list[ScanViews]:
    """Views with every text a rule may read already made (their caches empty)."""
    views = [ScanViews.of(plain) for plain in plains]
    for view in views:
        _ = (view.words, view.plain_words, view.long_words_lower)
    return views


def print_stages(repeat: int) -> None:
    corpus = load_corpus()
    entries = full_length_entries(corpus, count=300)
    unseen = [full_length_entries(corpus, count=300, seed=seed) for seed in (1, 2, 3)]
    plains = [nfkc(entry) for entry in entries]
    folded = [skeleton_before_leetspeak(plain) for plain in plains]
    views = fresh_views(plains)
    candidates = [[rule for p in PREFILTERS for rule in p.candidates(v)] for v in views]
    scan = scanner.scan.__wrapped__
    unseen_views = fresh_views([nfkc(entry) for entry in unseen[2]])

    def rules_passed() -> None:
        for view, rules in zip(fresh_views(plains), candidates, strict=True):
            for rule in rules:
                rule.matches(view)

    count = len(entries)
    print(f"{count} benign {len(entries[0]):,}-character entries, µs of CPU per entry:")
    for entry in unseen[0]:  # a process's first texts build the states all texts share
        scan(entry)
    scan_unseen = once_per_entry(lambda: [scan(entry) for entry in unseen[1]], count)
    prefilter = once_per_entry(
        lambda: [p.candidates(v) for v in unseen_views for p in PREFILTERS], count
    )
    print(f"  {'the whole scan, each entry unseen':<48}{scan_unseen:8.1f}")
    print(f"  {'RE2 prefilter, both rule sets, unseen':<48}{prefilter:8.1f}")
    rows = [
        ("NFKC", lambda: [nfkc(entry) for entry in entries]),
        ("invisible-character check", lambda: [invisible_character(p) for p in plains]),
        ("skeleton before leetspeak", lambda: [skeleton_before_leetspeak(p) for p in plains]),
        ("views (skeleton before leetspeak, long words)", lambda: list(map(ScanViews.of, plains))),
        ("leetspeak reading", lambda: [read_leetspeak(text) for text in folded]),
        ("the skeleton's word set", lambda: [ScanViews.of(p).words for p in plains]),
        ("random-token check", lambda: [holds_random_token(v.plain, v.long_words) for v in views]),
        (
            "decoding candidates",
            lambda: [list(decoded_payloads(v.plain, v.words, v.long_words)) for v in views],
        ),
    ]
    for label, work in rows:
        print(f"  {label:<48}{per_entry(work, count, repeat):8.1f}")
    passed = sum(map(len, candidates)) / count
    # made fresh on each run (their anchor caches start empty), so that time is subtracted
    making = per_entry(lambda: fresh_views(plains), count, repeat)
    matching = per_entry(rules_passed, count, repeat) - making
    print(f"  {f'the rules the prefilter passed ({passed:.1f} per entry)':<48}{matching:8.1f}")
    print("  (the skeleton's word set includes its leetspeak reading and the views)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    print_stages(parser.parse_args().repeat)


if __name__ == "__main__":
    main()
