"""The threat scanner: what may be written to memory, and what is withheld from the prompt.

``scanner`` is the entry point (``scan``, ``scan_entry``, ``scan_document``), re-exported
here. The rest is its machinery: ``folding`` (and the generated ``confusables_data``) gives
the text the rules read, ``encoded`` the decoded runs, ``credentials`` the secret formats;
``threat_rule`` is one rule, ``threat_categories`` what a finding reports; ``rule_prefilter``
(with ``re2_superset`` and the generated ``prefilter_sources``), ``trigger_index``,
``rule_anchors`` (``pattern_reading``), ``rule_context`` and ``nearby_matches`` keep a scan
cheap without changing a decision; ``rule_vocabulary`` and ``secret_vocabulary`` are word
lists the rule families share. The families themselves are in ``rules/``, one module each.
``classifier`` (with the generated ``classifier_weights``) reads what no rule refused.
"""

from __future__ import annotations

from agent_memory.domain.threats.scanner import (
    RULES,
    THREAT_REASONS,
    WITHHELD_PLACEHOLDER,
    ThreatCategory,
    ThreatFinding,
    compile_rules,
    scan,
    scan_document,
    scan_entry,
)

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
