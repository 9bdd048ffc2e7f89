"""The memory scanner: recall and false positives per category on the labelled corpus
(tests/corpus/scanner_corpus.jsonl), throughput on full-length entries, and the slowest of
a set of adversarial 2,200-character entries.

Run: python benchmarks/bench_scanner.py [--seconds S]

Goals (issue 11): recall >= 0.95 and false positives <= 0.02 per category; >= 5,000
full-length entries per second; an adversarial 2,200-character entry under 10 ms. Times
are printed as CPU time of this process (the figure the code controls; a shared machine
inflates wall time) and as wall time. Prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from agent_memory.domain import LIMITS
from agent_memory.domain.threats import RULES, scan_document, scanner
from agent_memory.domain.threats import scan as cached_scan

# The scan itself: the process-wide cache of answers per text would time dictionary lookups.
scan = cached_scan.__wrapped__

CORPUS = Path(__file__).resolve().parents[1] / "tests/corpus/scanner_corpus.jsonl"
ENTRY_CHARS = LIMITS["memory"]
# Inputs that make a backtracking matcher work hard: trigger words of every family repeated
# without ever completing a match, long unbroken runs, unclosed markup, near-miss encodings.
ADVERSARIAL_SEEDS = (
    "ignore ",
    "ignore all previous ",
    "when you read the tool ",
    "send secrets conversation ",
    "curl wget | ",
    "password is ",
    "<!-- a b ",
    "![x](http://a?",
    "you are now a ",
    "A1b2",
    "a",
    "do not tell ",
    "<system> ",
    "register yourself heartbeat ",
    "1gn0r3 pr3v10us ",
    "&#105;",
    "%69",
    "\\x69",
    "69 ",
    "SGVsbG8g",
    "аbс ",  # Cyrillic look-alikes
    "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo",  # one long base64-ish run
    "QUJDREVGR0hJSktMTU5PUFFS ",
    "deadbeef0123456789",
    "de ad be ef ",
    "0x41 ",
    "іgnоrе аll рrеvіоus ",  # look-alike letters throughout
    "<div><span style='",  # nested, unclosed markup
    "&#105;&amp;",
    "\\u0069",
    "a1",  # one 2,200-character leetspeak word
    "System:\n",
    "a: ",
    '"ignore previous" ',
    " ",
    "12 ",
    "a@b.",
    "https://a.b/",
    "![a](http://x/",
    "[//]: # ",
    "[[[[",
    "password=",
    "token is ",
    "aB3",
)


def adversarial_entries() -> list[tuple[str, str]]:
    """The seeds above, and for every rule each example cut short by its last word (a near
    match), each repeated to the full length."""
    seeds = list(ADVERSARIAL_SEEDS)
    for rule in RULES:
        for example in rule.examples:
            words = example.split()
            seeds.append(" ".join(words[:-1]) + " x " if len(words) > 1 else example[:-1] + " ")
    return [(seed, (seed * (ENTRY_CHARS // len(seed) + 1))[:ENTRY_CHARS]) for seed in seeds]


def load_corpus() -> list[dict[str, str]]:
    return [json.loads(line) for line in CORPUS.open(encoding="utf-8")]


def print_quality(corpus: list[dict[str, str]]) -> None:
    totals: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    for item in corpus:
        totals[item["label"]] += 1
        flagged[item["label"]] += scan(item["text"]) is not None
    print(f"{'category':<22}{'items':>7}{'recall':>9}   (goal >= 0.95, floor 0.90)")
    for label in sorted(totals):
        if label != "benign":
            print(f"{label:<22}{totals[label]:>7}{flagged[label] / totals[label]:>9.3f}")
    kinds: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for item in corpus:
        if item["label"] == "benign":
            kind = item["source"].rsplit("(", 1)[-1].rstrip(")")
            kinds[kind] += 1
            refused[kind] += scan(item["text"]) is not None
    print(f"\n{'benign kind':<22}{'items':>7}{'false pos.':>11}   (goal <= 0.02, ceiling 0.05)")
    for kind in sorted(kinds):
        print(f"{kind:<22}{kinds[kind]:>7}{refused[kind] / kinds[kind]:>11.3f}")
    benign = totals["benign"]
    print(f"{'all benign':<22}{benign:>7}{flagged['benign'] / benign:>11.3f}")
    attacks = sum(count for label, count in totals.items() if label != "benign")
    caught = sum(count for label, count in flagged.items() if label != "benign")
    print(f"{'all attacks':<22}{attacks:>7}{caught / attacks:>9.3f} recall")


def benign_documents(corpus: list[dict[str, str]], count: int) -> list[list[str]]:
    """Whole memories of benign facts: the corpus's, shuffled, as many as both stores hold."""
    facts = [item["text"] for item in corpus if item["label"] == "benign"]
    capacity = sum(LIMITS.values())
    documents = []
    for seed in range(count):
        random.Random(seed).shuffle(facts)
        document: list[str] = []
        for fact in facts:
            if sum(map(len, document)) + len(document) + len(fact) > capacity:
                break
            document.append(fact)
        documents.append(document)
    return documents


def print_documents(corpus: list[dict[str, str]]) -> None:
    documents = benign_documents(corpus, 300)
    flagged = sum(scan_document(document) is not None for document in documents)
    print(
        f"\nbenign memory documents (the benign facts shuffled, {sum(LIMITS.values()):,} "
        f"characters each), read whole: {flagged} of {len(documents)} flagged"
    )


def full_length_entries(corpus: list[dict[str, str]], count: int = 600, seed: int = 0) -> list[str]:
    """Distinct benign entries of the store's full length: the corpus's benign facts,
    shuffled, as many as fit. Distinct, because RE2 builds its automata's states as texts
    come: timing the same few entries again and again times states already built, which
    an unseen entry does not find (about a sixth of the real cost, measured)."""
    facts = [item["text"] for item in corpus if item["label"] == "benign"]
    entries: list[str] = []
    shuffled = random.Random(seed)
    while len(entries) < count:
        shuffled.shuffle(facts)
        current = ""
        for fact in facts:
            if len(current) + len(fact) + 1 > ENTRY_CHARS:
                entries.append(current.ljust(ENTRY_CHARS, "."))
                current = ""
            current = f"{current} {fact}".strip()
    return entries[:count]


def measure(seconds: float, work: Callable[[], object]) -> tuple[int, float, float]:
    runs, cpu_start, wall_start = 0, time.process_time(), time.perf_counter()
    while time.perf_counter() - wall_start < seconds:
        work()
        runs += 1
    return runs, time.process_time() - cpu_start, time.perf_counter() - wall_start


def measure_once_each(texts: list[str]) -> tuple[int, float, float]:
    """Each text scanned once, in order (none seen before by this process's automata)."""
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    for text in texts:
        scan(text)
    return len(texts), time.process_time() - cpu_start, time.perf_counter() - wall_start


def print_speed(corpus: list[dict[str, str]], seconds: float) -> None:
    entries = full_length_entries(corpus, count=max(100, int(600 * seconds / 2)))
    warm_up = full_length_entries(corpus, count=100, seed=1)  # a process's first texts cost more
    measure_once_each(warm_up)
    runs, cpu, wall = measure_once_each(entries)
    print(
        f"\nthroughput, {ENTRY_CHARS}-character benign entries, each unseen: {runs / cpu:,.0f}/s "
        f"CPU, {runs / wall:,.0f}/s wall   (goal >= 5,000/s)"
    )
    runs, cpu, wall = measure(seconds / 2, lambda: scan(entries[0]))
    print(f"  (the same entry again and again: {runs / cpu:,.0f}/s CPU, a figure to not quote)")
    facts = [item["text"] for item in corpus if item["label"] == "benign"]
    pairs = random.Random(2)
    short = [f"{pairs.choice(facts)} {pairs.choice(facts)}" for _ in range(int(20_000 * seconds))]
    runs, cpu, wall = measure_once_each(short)
    average = sum(map(len, short)) / len(short)
    print(
        f"throughput, two of the corpus's benign facts joined ({average:.0f} characters on "
        f"average), each unseen: {runs / cpu:,.0f}/s CPU, {runs / wall:,.0f}/s wall"
    )
    timed = []
    adversarial = adversarial_entries()
    scanner.compile_rules()  # compiled on first use, once per process: not a cost of the entry
    for seed, entry in adversarial:
        first = time.process_time()
        scan(entry)  # its first scan: the automata meet it unseen
        first = time.process_time() - first
        runs, cpu, wall = measure(min(seconds, 0.05), lambda entry=entry: scan(entry))
        timed.append((max(first, cpu / runs), cpu / runs, seed))
    timed.sort(reverse=True)
    print(f"\n{len(adversarial)} adversarial {ENTRY_CHARS}-character entries, the slowest:")
    for worst, again, seed in timed[:3]:
        print(
            f"  {worst * 1000:6.2f} ms CPU unseen, {again * 1000:6.2f} ms again   "
            f"{seed[:40]!r} repeated"
        )
    print(f"  (goal < 10 ms; median {timed[len(timed) // 2][0] * 1000:.2f} ms CPU unseen)")
    print_slowest_rules(adversarial)


def print_slowest_rules(adversarial: list[tuple[str, str]]) -> None:
    """A scan stops at its first finding, so a rule after it is not timed above: each rule
    the prefilter passes, on each adversarial entry, as if no earlier rule had matched."""
    slowest: list[tuple[float, str, str]] = []
    prefilters = (scanner._STEERING_PREFILTER, scanner._CREDENTIAL_PREFILTER)
    for seed, entry in adversarial:
        views = scanner._views(entry)
        for rule in [rule for prefilter in prefilters for rule in prefilter.candidates(views)]:
            start = time.process_time()
            rule.matches(views)
            slowest.append((time.process_time() - start, rule.code, seed))
    slowest.sort(reverse=True)
    print("  the slowest rules on them, each run as if no earlier rule had matched:")
    for cpu, code, seed in slowest[:3]:
        print(f"  {cpu * 1000:6.2f} ms CPU  {code:<30}{seed[:40]!r} repeated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    corpus = load_corpus()
    print_quality(corpus)
    print_documents(corpus)
    print_speed(corpus, args.seconds)


if __name__ == "__main__":
    main()
