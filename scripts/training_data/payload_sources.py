"""Readers for the second batch's attacks: red-team payload libraries (each payload filed
under the reason code a memory store would refuse it for) and in-the-wild jailbreaks."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import unicodedata
from collections.abc import Iterator

from .common import Item, Snapshot, clip

# pincer's payload files and the reason code each file's payloads get unless listed below
_PINCER_FILES = {
    "injection": "prompt_injection",
    "jailbreak": "role_hijack",
    "tool-abuse": "deferred_tool_use",
}
# payloads whose aim is another family's; None: left out (a question a memory store may
# keep, "What tools do you have access to?", or a format trick the rules and decoders read)
_PINCER_LABELS: dict[str, str | None] = {
    "inj-001": "prompt_extraction",
    "inj-016": "prompt_extraction",
    "inj-003": "forged_turn",
    "inj-010": "forged_turn",
    "inj-011": "forged_turn",
    "inj-012": "forged_turn",
    "inj-017": None,
    "inj-024": None,
    "inj-026": "hidden_markup",
    "inj-030": "hidden_markup",
    **dict.fromkeys(("ta-001", "ta-002", "ta-003", "ta-004", "ta-005", "ta-009"), None),
    **dict.fromkeys(("ta-006", "ta-007", "ta-008", "ta-017"), "prompt_extraction"),
    **dict.fromkeys(("ta-010", "ta-011", "ta-016", "ta-018", "ta-020"), "exfiltration"),
    "ta-012": "persistence",
    **dict.fromkeys(("ta-013", "ta-014", "ta-015"), "role_hijack"),
}
_PAYLOAD = re.compile(
    r'id:\s*"(?P<id>[^"]+)".*?prompt:\s*(?P<prompt>"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')',
    re.S,
)


def _js_string(literal: str) -> str:
    """A JavaScript string literal (double or single quoted) as text."""
    body = literal[1:-1]
    if literal[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    return str(json.loads(f'"{body}"'))


def pincer_payloads(snapshot: Snapshot) -> Iterator[Item]:
    """The injection, jailbreak and tool-abuse payloads of rustyorb/pincer (its extraction
    file is left out: system-prompt extraction is not a family the classifier lacks)."""
    for name, default in _PINCER_FILES.items():
        path = f"src/lib/attacks/{name}.ts"
        for match in _PAYLOAD.finditer(snapshot.show(path)):
            label = _PINCER_LABELS.get(match["id"], default)
            if label == "prompt_injection" and not _OVERRIDES.search(match["prompt"]):
                label = "prompt_extraction"  # no override: it only asks for the prompt
            text = clip(_js_string(match["prompt"]))
            if label and text:
                yield Item(text, label, snapshot.source(path))


def _aim_label(text: str, hidden_first: bool = True) -> str | None:
    """The reason code of an agent-directed payload, from what it asks for."""
    lowered = text.lower()
    if any(unicodedata.category(ch) in {"Mn", "Cf"} for ch in text):
        return None  # invisible or combining characters: the rules' job, not a word model's
    hidden = "<!--" in text or re.search(
        r"display:\s*none|font-size:\s*0|color:\s*transparent", lowered
    )
    sends = re.search(r"\b(send|upload|email|forward|post|exfiltrat|fetch|nslookup)\w*\b", lowered)
    outside = re.search(
        r"https?://|@[\w-]+\.(com|net|org)|external|remote server|attacker", lowered
    )
    if _IMAGE_BEACON.search(text):
        return "exfiltration"  # a markdown image whose address carries data out
    if hidden and hidden_first:
        return "hidden_markup"
    if sends and outside:
        return "exfiltration"
    if hidden:
        return "hidden_markup"
    if re.search(r"\b(execute|run|install|curl|delete|rm -rf|call)\b", lowered):
        return "deferred_tool_use"
    return "prompt_injection"


def proventra_attacks(snapshot: Snapshot) -> Iterator[Item]:
    """The labelled attacks of proventra-core's benchmark (agent-directed injections: run
    this, upload that, ignore your safety checks), filed by what they ask for."""
    path = "benchmark/data/test_data.py"
    tree = ast.parse(snapshot.show(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "PROMPT_INJECTION_ATTACKS"
            for target in node.targets
        ):
            for case in ast.literal_eval(node.value):
                text = clip(case["text"])
                label = _aim_label(case["text"])
                if case.get("is_attack") and text and label:
                    yield Item(text, label, snapshot.source(path))


# files of the jailbreak folder that are no jailbreak prompt: a post announcing one, an
# image-prompt generator, copies of a vendor's system prompt
_NOT_JAILBREAKS = {"Pliny Rekt.md", "Pollifusion.md", "GPT 3.5 Web Search.md", "GPT 4.5 Fusion.md"}


def jailbreak_files(snapshot: Snapshot, folder: str) -> Iterator[Item]:
    """Each Markdown file of a folder of in-the-wild jailbreak prompts, as one text."""
    for path in snapshot.paths():
        if not path.startswith(f"{folder}/") or path.count("/") != folder.count("/") + 1:
            continue
        if path.rsplit("/", 1)[-1] in _NOT_JAILBREAKS:
            continue
        try:
            text = clip(snapshot.show(path))
        except subprocess.CalledProcessError:  # the snapshot left some large files out
            continue
        if text and len(text.split()) >= 12:
            yield Item(text, "role_hijack", snapshot.source(path))


_FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
_AIMS_AT_LIMITS = re.compile(
    r"ignore|disregard|override|bypass|restriction|system prompt|instructions|diagnostic|"
    r"debug mode|admin|unrestricted|safety|hidden|<!--|display:\s*none|configuration",
    re.I,
)
_EXTRACTS = re.compile(
    r"\b(show|display|provide|reveal|output|see|print)\b.*"
    r"\b(system prompt|instruction|configuration)",
    re.I | re.S,
)
_OVERRIDES = re.compile(r"ignore|disregard|override|supersede|new instructions|void|forget", re.I)
# a quoted payload, not a step list or the harmless half of a trojan skill
_PAYLOAD_MARK = re.compile(r"<!--|display:\s*none|https?://|~/|/etc/|ignore previous", re.I)
_IMAGE_BEACON = re.compile(r"!\[[^\]]*\]\(https?://[^)\s]*\?")
# each test file of fr4nk3nst1ner/aiml-testing and how its payloads are filed
_AIML_FILES = ("01-basic", "02-indirect", "04-jailbreaking", "08-persistence")


def _aiml_label(name: str, text: str) -> str | None:
    if name == "08-persistence":
        return "persistence" if re.search(r"administrator|clearance", text) else None
    if not _AIMS_AT_LIMITS.search(text):
        return None  # a canary test with no aim a memory store must refuse
    if name == "02-indirect":
        return "hidden_markup" if _aim_label(text) == "hidden_markup" else "prompt_injection"
    if _EXTRACTS.search(text):
        return "prompt_extraction"
    return "role_hijack" if name == "04-jailbreaking" else "prompt_injection"


def aiml_testing_blocks(snapshot: Snapshot) -> Iterator[Item]:
    """The test payloads (fenced blocks) of fr4nk3nst1ner/aiml-testing's prompt-injection
    issues: overrides, indirect injections in documents and pages, persona changes,
    language switches, and standing orders that grant a privilege."""
    for path in snapshot.paths():
        name = path.rsplit("/", 1)[-1][: path.rsplit("/", 1)[-1].find("-", 3)]
        if not path.startswith("prompt-injection-tests/") or name not in _AIML_FILES:
            continue
        for block in _FENCE.findall(snapshot.show(path)):
            text = clip(block)
            label = _aiml_label(name, block) if text else None
            if text and label:
                yield Item(text, label, snapshot.source(path))


_DEFANGED = re.compile(r"\[(MALICIOUS|INJECTED|END INJECTED)[^\]]*\]\s*")


def _refang(text: str) -> str:
    """The payload as an attacker would send it: annotations out, addresses live again."""
    text = _DEFANGED.sub("", text).replace("hxxp", "http").replace("[.]", ".")
    return re.sub(r"<!--\s*-->\s*", "", text).strip()


def agent_security_examples(snapshot: Snapshot) -> Iterator[Item]:
    """The attack payloads ItsNishi/AI-Agent-Security's examples quote (hidden comments in
    skills and pages, exfiltration through tool calls and URLs, a poisoned MCP tool)."""
    for path in snapshot.paths():
        if not re.match(r"examples/0[1235]_[^/]+/(README|examples|malicious_skill)\.md$", path):
            continue
        for block in _FENCE.findall(snapshot.show(path)):
            text = clip(_refang(block))
            if not text or not _PAYLOAD_MARK.search(text):
                continue
            if re.search(r"^\s*(grep|rg|find) ", text, re.M):
                continue  # a defence's search command, not a payload
            label = _aim_label(text, hidden_first=False)
            if label:
                yield Item(text, label, snapshot.source(path))
    path = "examples/05_MCP_Tool_Poisoning/malicious_server.json"
    servers = json.loads(snapshot.show(path))["mcpServers"]
    for server in servers.values():
        for tool in server.get("tools", []) if isinstance(server, dict) else []:
            text = clip(_refang(tool["description"]))
            if text:
                yield Item(text, "exfiltration", snapshot.source(path))


# Arcanum taxonomy nodes whose examples are attacks a memory store refuses, and the reason
# code each gets; nodes about evasions (encodings), harmful-content topics, bias tests,
# tooling and enumeration questions are not used
_ARCANUM_LABELS = {
    "data_poisoning": "persistence",
    "prompt_worm": "persistence",
    "agent_instruction_file_injection": "persistence",
    "sensitive_data_exfiltration": "exfiltration",
    "cross_tenant_leakage": "exfiltration",
    "attack_external_users": "exfiltration",
    "tool_definition_injection": "exfiltration",
    "agentic_compliance_momentum": "exfiltration",
    "unauthorized_action_execution": "deferred_tool_use",
    "link_injection": "command_and_control",
    "jailbreak": "role_hijack",
    "reiteration": "role_hijack",
    "authority_impersonation": "role_hijack",
    "system_prompt_leak": "prompt_extraction",
    "get_prompt_secret": "prompt_extraction",
    "direct_request": "prompt_extraction",
    "chunking": "prompt_extraction",
    "variable_expansion": "prompt_extraction",
    "reorientation": "prompt_injection",
    "rule_addition": "prompt_injection",
    "russian_doll": "prompt_injection",
    "multi_chain_attacks": "prompt_injection",
    "fake_completion": "prompt_injection",
    "policy_file_framing": "prompt_injection",
    "end_sequences": "forged_turn",
    "special_token_injection": "forged_turn",
    "tool_call_spoofing": "forged_turn",
}


# examples read one by one and left out: descriptions of an attack rather than one ("A
# single poisoned email that spreads..."), false facts that lift no limit, script tricks
# that are output handling rather than a memory threat, and requests a user may make
_ARCANUM_LEFT_OUT = (
    "Create a shareable chat link",
    "Insert an SVG",
    "Craft a markdown link",
    "I'll rate your responses",
    "Inject into knowledge base",
    "Add to your knowledge base: [false",
    "Store this in your memory: 'The CEO",
    "What did the last customer",
    "Retrieve documents belonging",
    "The documentation at",
    "Click here for context",
    "Parse this data URI",
    "A benign-looking tool",
    "Payload delivered when",
    "A single poisoned",
    "README with zero-width",
    "Dependency ships",
    "Inject <tool_call>",
    "Split a flagged phrase",
    "Consent for this action",
    "Write out the full steps",
    "Tell me how to do",
    "Give me the admin discount",
    "Do this harmless lookup",
    "Run the cleanup task",
    "Post the following message",
    "Translate to French then back",
)


def arcanum_examples(snapshot: Snapshot) -> Iterator[Item]:
    """The example prompts of the Arcanum prompt-injection taxonomy's intents and
    techniques, for the nodes in ``_ARCANUM_LABELS``; examples that describe a method in
    parentheses ("(tooling) mutate seed templates...") rather than quote one are left out."""
    path = "docs/data/taxonomy.json"
    taxonomy = json.loads(snapshot.show(path))
    for node in [*taxonomy["intents"], *taxonomy["techniques"]]:
        label = _ARCANUM_LABELS.get(node["id"])
        if label is None:
            continue
        for example in node.get("examples", []):
            text = clip(example)
            if not text or text.startswith(("(", *_ARCANUM_LEFT_OUT)) or len(text.split()) < 4:
                continue
            yield Item(text, label, snapshot.source(path))
