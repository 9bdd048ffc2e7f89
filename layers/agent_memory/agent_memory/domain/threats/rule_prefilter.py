"""The prefilter: the rules that may match a text, found for all of them in one native pass.

Running forty Python patterns over a 2,200-character entry (and the folding they need) was
most of a scan's cost, though an ordinary entry matches none. Each rule's pattern, widened
so that it matches wherever the rule can (``re2_superset``), goes into RE2 sets
(google-re2), and one call per set and view says which of its patterns match anywhere in
the text. Only the rules named are run in Python, with their real patterns, which decide:
the prefilter can only spare work, never change a finding.

A set of many patterns has one automaton, whose states RE2 builds as texts come. Each
rule's unbounded gaps add states that stay live to the end of a line, and a set's states
are the combinations of its rules': a set of eight built thousands of new states for
every unseen full-length entry (about 2 ms, where the same entry seen again costs 0.2 ms).
Pairs keep the combinations few: more passes over the text, but unseen entries cost
about a quarter as much (benchmarks/bench_scanner.py times only unseen ones). Each set
also holds a pattern that matches every text: if RE2 could not run a set to its end (its
automaton out of memory), that pattern is missing from the answer and every rule of the
set is run instead.

The rewritten patterns are generated ahead (``prefilter_sources``, by
scripts/generate_prefilter_sources.py), since rewriting them costs a cold start more than
compiling them; a rule whose pattern changed since is rewritten when the prefilter is made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property

import re2  # type: ignore[import-untyped]

from agent_memory.domain.threats.folding import LEET_READINGS
from agent_memory.domain.threats.prefilter_sources import SOURCES
from agent_memory.domain.threats.re2_superset import UntranslatableError, superset_source
from agent_memory.domain.threats.threat_rule import ScanViews, ThreatRule
from agent_memory.domain.threats.trigger_index import TriggerIndex

__all__ = ["RulePrefilter", "fingerprint", "translated"]

_RULES_PER_SET = 2
# Bytes per set, most of it the automaton's cache (flushed when full): a ceiling on what
# the prefilter holds, some 35 sets in all, in a process that meets unseen text for hours.
# A pair whose program alone outgrows it (the largest rules) gets the next budget.
_SET_MEMORY = (2 << 20, 8 << 20, 32 << 20)
_MATCHES_EVERY_TEXT = 0  # the index of the empty pattern in each set


class _RuleSet:
    """The widened patterns of some rules of one view, in one RE2 set, compiled when a
    text first triggers one of its rules: most processes never need the sets of the
    largest rules (the secret asks' alone took 55 ms to compile)."""

    def __init__(self, view: str, members: Sequence[tuple[int, str]]) -> None:
        self.view = view
        self.rules = tuple(index for index, _ in members)
        self._sources = tuple(source for _, source in members)

    @cached_property
    def _set(self) -> re2.Set | None:
        """None if even the largest budget cannot hold it (a test fails then): its rules
        are all run."""
        for budget in _SET_MEMORY:
            try:
                return _compiled(self._sources, budget)
            except re2.error:
                continue
        return None

    def matching(self, text: bytes) -> tuple[int, ...]:
        """The indexes (into the prefilter's rules) whose widened pattern matches ``text``."""
        compiled = self._set
        found = () if compiled is None else compiled.Match(text) or ()
        if _MATCHES_EVERY_TEXT not in found:
            return self.rules  # the set did not run to the end: no answer, run them all
        return tuple(self.rules[position - 1] for position in found if position)


def _compiled(sources: Sequence[str], budget: int) -> re2.Set:
    options = re2.Options()
    options.max_mem = budget
    options.log_errors = False
    compiled = re2.Set.SearchSet(options)
    compiled.Add("")
    for source in sources:
        compiled.Add(source)
    compiled.Compile()
    return compiled


class RulePrefilter:
    """For a sequence of rules, the ones that may match a text (``candidates``)."""

    def __init__(self, rules: Sequence[ThreatRule]) -> None:
        self.rules = tuple(rules)
        by_view: dict[str, list[tuple[int, str]]] = {}
        always: list[int] = []
        for index, rule in enumerate(self.rules):
            source = _source(rule)
            if source is None:
                always.append(index)
            else:
                by_view.setdefault(rule.view, []).append((index, source))
        self._always = tuple(always)
        self._triggers = TriggerIndex(self.rules)
        self._sets = tuple(
            _RuleSet(view, members[start : start + _RULES_PER_SET])
            for view, members in by_view.items()
            for start in range(0, len(members), _RULES_PER_SET)
        )

    def compile(self) -> None:
        """Compile every set now, rather than when a text first triggers one of its rules."""
        for rule_set in self._sets:
            _ = rule_set._set

    def candidates(self, views: ScanViews) -> list[ThreatRule]:
        """The rules that may match ``views``, in the order of the rules. A rule whose
        triggers are absent cannot match (``ThreatRule.matches``), so a set none of whose
        rules is triggered is not run: a short entry triggers a few of the rules."""
        triggered = self._triggers.triggered(views)
        found = {index for index in self._always if triggered[index]}
        for rule_set in self._sets:
            live = [index for index in rule_set.rules if triggered[index]]
            if live:
                passed = rule_set.matching(views.prefilter_text(rule_set.view))
                found.update(index for index in live if index in passed)
        return [self.rules[index] for index in sorted(found)]


def fingerprint(rule: ThreatRule) -> str:
    """What the rewriting of ``rule`` depends on, in a few characters."""
    text = f"{rule.view}\x00{rule.flags}\x00{_read_source(rule)}"
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def translated(rule: ThreatRule) -> str | None:
    """The rule's pattern rewritten for the prefilter, or None when it cannot be."""
    try:
        return superset_source(
            _read_source(rule),
            rule.flags,
            leet=rule.view == "skeleton",
            leet_readings=LEET_READINGS,
        )
    except UntranslatableError:
        return None


def _source(rule: ThreatRule) -> str | None:
    stored = SOURCES.get(rule.code)
    if stored is not None and stored[0] == fingerprint(rule):
        return stored[1]
    return translated(rule)


def _read_source(rule: ThreatRule) -> str:
    return rule.source if rule.prefilter_source is None else rule.prefilter_source
