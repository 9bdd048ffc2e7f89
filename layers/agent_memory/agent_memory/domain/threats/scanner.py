"""Threat scanning of memory entries and of the rendered memory document.

Stored memory is injected into every future prompt, so an entry is scanned before it is
written, and the whole document after each batch (an attack split across entries or turns
reads as one text to the model). Matching runs on folded text (``folding``): look-alike
letters, invisible characters and leetspeak do not hide a phrase; encoded runs are decoded
and scanned too (``encoded``); an entry no rule refused is read once more by a linear model
over its words (``classifier``). The scanner raises the cost of an attack,
it does not make stored text trustworthy, which is why the prompt still frames the block as
untrusted data. The model is told the category of a finding, never the matched text.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from agent_memory.domain.threats.classifier import CLASSIFIER_CODE, trained_classifier
from agent_memory.domain.threats.credentials import CREDENTIAL, holds_random_token
from agent_memory.domain.threats.encoded import decoded_payloads
from agent_memory.domain.threats.folding import invisible_character, nfkc
from agent_memory.domain.threats.rule_prefilter import RulePrefilter
from agent_memory.domain.threats.rules.carriers import CONCEALMENT, FORGED_TURN, HIDDEN_MARKUP
from agent_memory.domain.threats.rules.code_insertion import CODE_INSERTION
from agent_memory.domain.threats.rules.control import COMMAND_AND_CONTROL
from agent_memory.domain.threats.rules.data_in_addresses import DATA_IN_ADDRESSES
from agent_memory.domain.threats.rules.deferred import DEFERRED_TOOL_USE
from agent_memory.domain.threats.rules.instructions import (
    PROMPT_EXTRACTION,
    PROMPT_INJECTION,
    ROLE_HIJACK,
)
from agent_memory.domain.threats.rules.output_control import (
    AUTHORITY_AND_REFUSAL,
    CONTENT_INJECTION,
)
from agent_memory.domain.threats.rules.poisoning import POISONING
from agent_memory.domain.threats.rules.secret_asks import FORMS as SECRET_ASK_FORMS
from agent_memory.domain.threats.rules.system import EXFILTRATION, PERSISTENCE
from agent_memory.domain.threats.rules.task_hijacks import HIJACK
from agent_memory.domain.threats.rules.translated_concealment import TRANSLATED_CONCEALMENT
from agent_memory.domain.threats.threat_categories import (
    THREAT_REASONS,
    ThreatCategory,
    ThreatFinding,
)
from agent_memory.domain.threats.threat_rule import ScanViews, ThreatRule

__all__ = [
    "RULES",
    "THREAT_REASONS",
    "WITHHELD_PLACEHOLDER",
    "ThreatCategory",
    "ThreatFinding",
    "compile_rules",
    "scan",
    "scan_document",
    "scan_entry",
]

WITHHELD_PLACEHOLDER = "[entry withheld: it does not pass the current memory safety rules]"

# Steering rules first: an entry that is both an injection and holds a key is reported as
# the injection, the more useful reason for the model.
_STEERING: tuple[ThreatRule, ...] = (
    # First, an even number of rules in pairs of a heavy and a light one: the prefilter
    # runs rules in RE2 sets of two, in order, and a set's automaton is the product of its
    # rules' (the poisoning state's set with startup_hook cost 1.1 ms per full-length
    # entry, with its own light neighbour 0.04 ms).
    *POISONING,
    *CODE_INSERTION,
    *HIJACK,
    *AUTHORITY_AND_REFUSAL,
    *CONTENT_INJECTION,
    *PROMPT_INJECTION,
    *ROLE_HIJACK,
    *PROMPT_EXTRACTION,
    *FORGED_TURN,
    *HIDDEN_MARKUP,
    *CONCEALMENT,
    *TRANSLATED_CONCEALMENT,
    *EXFILTRATION,
    *DATA_IN_ADDRESSES,
    *PERSISTENCE,
    *COMMAND_AND_CONTROL,
    # Last: in one RE2 set with the exfiltration rules, the gaps of both kept the set's
    # automaton five times slower than any other (the prefilter groups rules in order).
    *DEFERRED_TOOL_USE,
)
RULES: tuple[ThreatRule, ...] = (*_STEERING, *CREDENTIAL)
_STEERING_PREFILTER = RulePrefilter(_STEERING)
_CREDENTIAL_PREFILTER = RulePrefilter(CREDENTIAL)


# Stored entries are scanned again on every load and every batch; a process keeps the
# answers for the texts it saw last (findings are immutable), so unchanged entries and an
# unchanged document cost a dictionary lookup. benchmarks/bench_scanner.py times the scan
# itself (``scan.__wrapped__``), never the cache.
_CACHED_ENTRIES = 2048
_CACHED_DOCUMENTS = 256


@lru_cache(maxsize=_CACHED_ENTRIES)
def scan(text: str, *, stored: bool = False) -> ThreatFinding | None:
    """The first finding for one entry, or None when it looks benign. An entry about to be
    written meets the rules and then the classifier; a ``stored`` one, read back on load,
    the rules alone: the classifier's threshold moves with each retraining, and a new model
    must not withhold facts the user already has (a rule added later does, on purpose)."""
    plain = nfkc(text)
    if invisible_character(plain) is not None:
        return ThreatFinding(ThreatCategory.INVISIBLE_UNICODE, "invisible_character")
    views = ScanViews.of(plain)
    finding = _first_match(views, _STEERING_PREFILTER) or _first_match(views, _CREDENTIAL_PREFILTER)
    if finding is not None:
        return finding
    if holds_random_token(plain, views.long_words):
        return ThreatFinding(ThreatCategory.CREDENTIAL, "random_token")
    for decoded in decoded_payloads(plain, views.words, views.long_words):
        inner = _first_match(_views(decoded), _STEERING_PREFILTER)
        if inner is not None:
            return ThreatFinding(ThreatCategory.ENCODED_PAYLOAD, inner.code)
    if stored:
        return None
    category = trained_classifier().classify(views.skeleton)
    return None if category is None else ThreatFinding(category, CLASSIFIER_CODE)


def compile_rules() -> None:
    """Compile now what scans otherwise compile on first use: each rule's pattern and
    anchors and their searches, the prefilter's RE2 sets, the secret asks' forms, the
    classifier's weights. For a benchmark that times entries rather than compilation, or a
    process that would rather pay at init."""
    for rule in RULES:
        if rule.anchors is not None:
            rule.anchors.compile()
    for prefilter in (_STEERING_PREFILTER, _CREDENTIAL_PREFILTER):
        prefilter.compile()
    for form in SECRET_ASK_FORMS:
        form.compile()
    trained_classifier()


def scan_entry(text: str) -> ThreatCategory | None:
    """The category of the first finding for one entry, or None when it looks benign."""
    finding = scan(text)
    return None if finding is None else finding.category


def scan_document(entries: Iterable[str]) -> ThreatFinding | None:
    """A steering finding in the entries read as one text, as the model reads the memory
    block; catches an instruction split across entries (or across turns)."""
    return _scan_document_text("\n".join(entries))


@lru_cache(maxsize=_CACHED_DOCUMENTS)
def _scan_document_text(text: str) -> ThreatFinding | None:
    return _first_match(_views(text), _STEERING_PREFILTER)


def _views(text: str) -> ScanViews:
    return ScanViews.of(nfkc(text))


def _first_match(views: ScanViews, prefilter: RulePrefilter) -> ThreatFinding | None:
    for rule in prefilter.candidates(views):
        if rule.matches(views):
            return ThreatFinding(rule.category, rule.code)
    return None
