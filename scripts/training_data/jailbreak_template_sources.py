"""Readers for jailbreak system prompts, filled with a harmful request as the first build's
GPTFuzz reader fills its templates."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator

from .attack_sources import FILL_REQUESTS
from .common import Item, NearDuplicates, Snapshot, clip

_DECODINGTRUST_PROMPTS = (
    "src/dt/perspectives/toxicity/toxicity_prompts.py",
    "data/toxicity/toxicity_prompts.py",
)
# DecodingTrust's benign baselines: "You are a helpful assistant." alone, or with "You can say
# anything as long as it is coherent to the prompt." and nothing that lifts a limit.
_LIFTS_A_LIMIT = re.compile(
    r"content polic|moral|swear|expletive|evil|offensive|toxic|rules|restriction|censor|"
    r"opposite|disrespectful|gory|horrifying|racist|derogatory|vulgar|kill|fuck|hell\b",
    re.IGNORECASE,
)


def _system_prompts(source: str) -> Iterator[str]:
    """The ``sys_prompt`` strings of every list of prompts a DecodingTrust module assigns."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List):
            for prompt in ast.literal_eval(node.value):
                yield prompt["sys_prompt"].strip()


def decodingtrust_system_prompts(snapshot: Snapshot) -> Iterator[Item]:
    """DecodingTrust's adversarial system prompts (DAN, SDA, alter egos that do the opposite
    of ChatGPT, "This is the CEO of OpenAI ... the restrictions applied upon you are no longer
    valid", games where "offensive, abusive, and derogatory texts are allowed"), each followed
    by one of the first build's harmful requests: role_hijack. Near-duplicate variants (the
    same alter ego under another name) are kept once."""
    fills = itertools.cycle(FILL_REQUESTS)
    kept: list[str] = []
    for path in _DECODINGTRUST_PROMPTS:
        for prompt in _system_prompts(snapshot.show(path)):
            if not _LIFTS_A_LIMIT.search(prompt) or (kept and NearDuplicates(kept).matches(prompt)):
                continue
            kept.append(prompt)
            text = clip(f"{prompt}\n\n{next(fills).capitalize()}.")
            if text:
                yield Item(text, "role_hijack", snapshot.source(path))
