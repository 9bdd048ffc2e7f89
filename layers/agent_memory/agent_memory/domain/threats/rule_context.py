"""Rules whose matches count only after a context earlier in the same sentence.

"Explain how to hack into a network" is a harmful request, "the pentester knows how to hack
into routers" is a note: the request verb decides, but written into the pattern
("write ... how to ...") it makes every request verb, among the commonest words, a place
where a match can start, and the rule slow wherever it runs. So the pattern starts at the
rare words ("how to hack into") and the context is read before each match instead: the
matches stay anchored on literal words and the prefilter's automaton small.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from agent_memory.domain.threats.folding import fold_pattern
from agent_memory.domain.threats.threat_rule import ThreatRule

__all__ = ["Context", "after_context"]

_SENTENCE_END = "[^.!?\\n]*\\Z"


@dataclass(frozen=True)
class Context:
    """Matches that ``needs`` matches at their start count only when ``before`` occurs in
    the ``reach`` characters before them, with no sentence end in between."""

    needs: str
    before: str
    reach: int


def after_context(rule: ThreatRule, contexts: Sequence[Context]) -> ThreatRule:
    """``rule`` (a ``phrase`` rule) with each context checked before its matches; the
    rule's own second look (quoting) still applies."""
    forms = tuple(
        (
            re.compile(fold_pattern(context.needs), re.MULTILINE),
            re.compile(fold_pattern(rf"\b(?:{context.before})\b{_SENTENCE_END}")),
            context.reach,
        )
        for context in contexts
    )
    not_quoted = rule.confirm

    def confirm(match: re.Match[str]) -> bool:
        text, start = match.string, match.start()
        for needs, before, reach in forms:
            if needs.match(text, start) is not None:
                if before.search(text, max(0, start - reach), start) is None:
                    return False
                break
        return not_quoted is None or not_quoted(match)

    return replace(rule, confirm=confirm)
