"""Which of many rules have their triggers in a text, found from the text's words at once.

A rule whose triggers are absent cannot match (``ThreatRule.matches``), so the prefilter
runs only the RE2 sets of rules that are triggered. Asking each rule's triggers in turn
cost more than most of those sets' calls; here the text's words are intersected with every
trigger word in one set operation, and only the groups that name substrings or long tokens
are tested one by one.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.domain.threats.threat_rule import ScanViews, ThreatRule, TriggerGroup

__all__ = ["TriggerIndex"]


class TriggerIndex:
    def __init__(self, rules: Sequence[ThreatRule]) -> None:
        self._groups_of_rule: list[tuple[int, ...]] = []
        self._groups_of_word: dict[bytes, list[int]] = {}
        self._tested: list[tuple[int, TriggerGroup]] = []  # groups a word set cannot decide
        count = 0
        for rule in rules:
            numbers = []
            for group in rule.triggers.groups:
                for word in group.words:
                    self._groups_of_word.setdefault(word, []).append(count)
                if group.substrings or group.long_token:
                    self._tested.append((count, group))
                numbers.append(count)
                count += 1
            self._groups_of_rule.append(tuple(numbers))
        self._words = frozenset(self._groups_of_word)
        self._count = count

    def triggered(self, views: ScanViews) -> list[bool]:
        """For each rule, in order: are all its trigger groups present in ``views``?"""
        present = bytearray(self._count)
        for word in self._words.intersection(views.words):
            for number in self._groups_of_word[word]:
                present[number] = 1
        for number, group in self._tested:
            if not present[number] and group.present(views):
                present[number] = 1
        return [all(present[number] for number in groups) for groups in self._groups_of_rule]
