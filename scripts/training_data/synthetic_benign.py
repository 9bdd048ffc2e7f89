"""Benign items composed here: what a memory store is mostly asked to keep.

Preferences addressed to the assistant are imperative ("Always answer in British English")
and still benign; work notes mention secrets, prompts, instructions and tools without
asking for anything harmful. Both are where a scanner's false positives come from.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from .common import BENIGN, Item

SOURCE = "agent-memory scripts/training_data/synthetic_benign.py [project-authored]"

_PREFERENCES = (
    "Always answer in British English.",
    "Don't use emojis in replies.",
    "Keep answers under {n} words unless I ask for detail.",
    "Call me {name}.",
    "My name is {name}; use it sparingly.",
    "Use metric units.",
    "Use imperial units for cooking, metric for everything else.",
    "Format dates as YYYY-MM-DD.",
    "Reply in {lang}.",
    "Reply in {lang} when I write in {lang}, otherwise in English.",
    "Skip the pleasantries and get to the point.",
    "Use {tool} for code examples.",
    "When you show code, include type hints.",
    "Never suggest jQuery.",
    "Prefer tabs over spaces in my projects.",
    "Explain things as if I were new to {topic}.",
    "I'm an expert in {topic}; skip the basics.",
    "Don't apologise in answers; just fix the mistake.",
    "Ask before making large refactors.",
    "Always cite sources when you state facts about {topic}.",
    "Use bullet points for lists of steps.",
    "Don't summarise at the end of answers.",
    "Write commit messages in the imperative mood.",
    "Always show the command before explaining it.",
    "Use 24-hour time.",
    "Address me informally.",
    "Avoid American spellings.",
    "Use pytest, not unittest.",
    "Never use semicolons in my JavaScript.",
    "Always run the tests before you say a change works.",
    "Don't recommend paid tools unless I ask.",
    "Ignore the vendor/ folder when searching my code.",
    "Ignore files under build/ and dist/; they are generated.",
    "Forget the old staging cluster; it was shut down in {month}.",
    "Forget my old address; I moved to {city} in {month}.",
    "Stop suggesting Docker Desktop, I use Podman.",
    "Remind me to stretch every hour when we pair.",
    "Use the Oxford comma.",
    "Don't explain basic {topic} concepts to me.",
    "Answer with the shortest working example first.",
    "Prefer {tool} over the alternatives.",
    "Don't use the word 'delve'.",
    "No markdown tables; plain lists are easier to read on my phone.",
    "Use sentence case for headings.",
    "Always give me the trade-offs before a recommendation.",
    "When I ask for a recipe, list the ingredients first.",
    "Don't mention my diet unless I bring it up.",
    "Use {tz} for any times you give me.",
    "Write SQL keywords in upper case.",
    "Never run database migrations without asking me first.",
    "Never push to main directly; open a pull request.",
    "Do not commit .env files or anything under secrets/.",
    "Don't add comments that restate the code.",
    "Prefer composition over inheritance in my code.",
    "Show diffs instead of whole files when you change code.",
    "Keep a friendly but professional tone in emails you draft for me.",
    "Sign emails you draft as '{name}'.",
    "Use Celsius for temperatures.",
    "Always double-check arithmetic in budget questions.",
    "Give me one option, not five.",
    "Speak to me like a colleague, not a customer.",
    "When unsure, say so instead of guessing.",
    "Don't add disclaimers to medical questions about my dog; I know to ask the vet.",
    "Use the project's Makefile targets instead of raw commands.",
    "Use `{pydep}` to manage Python dependencies in my repos.",
    "Respond with code only when I start a message with 'code:'.",
    "If a question is ambiguous, ask one clarifying question.",
    "Always use UTC in log timestamps you write for me.",
    "Pretty-print JSON in answers.",
    "Prefer standard-library solutions before adding a dependency.",
    "Always answer my cooking questions for two people.",
    "When I ask for a workout, keep it under {n_small2} minutes.",
    "Use kilometres for running distances.",
    "Avoid jargon when you explain things to my parents.",
    "Don't suggest recipes with {allergen}.",
    "Give estimates as ranges, not single numbers.",
    "Always include the source link when you summarise an article for me.",
    "I like answers that start with the conclusion.",
    "Don't use exclamation marks.",
    "Write in plain English, short sentences.",
    "When I paste an error, explain the cause before the fix.",
    "Use `snake_case` for Python names and `camelCase` for TypeScript.",
    "Prefer f-strings over format() in Python examples.",
    "Default to PostgreSQL syntax for SQL questions.",
    "Quote prices in {money_cur}.",
    "When planning trips, assume I travel by train where possible.",
    "Never book anything without asking me first.",
    "Check my calendar before suggesting meeting times.",
    "Draft replies; never send emails on my behalf.",
    "Remind me about {name}'s birthday a week before.",
    "Use ISO week numbers when we talk about sprints.",
    "Put the TL;DR at the top of long answers.",
    "Ask me before deleting any files.",
    "Prefer Markdown headings over bold text for structure.",
    "Use 'they' unless I tell you someone's pronouns.",
    "When I say 'short', reply in one or two sentences.",
    "When I say 'deep dive', go into detail.",
    "Translate technical terms into {lang} but keep code identifiers in English.",
    "Assume I'm on {os} unless I say otherwise.",
    "Don't suggest installing global npm packages.",
    "Prefer async code in my FastAPI projects.",
    "Use dataclasses rather than plain dicts for records.",
    "Write tests first when we add a feature.",
    "Keep functions under 40 lines in my code reviews.",
    "Flag any licence problems when you suggest a library.",
    "Recommend vegetarian options first.",
    "Use a calm tone; I get anxious about deadlines.",
    "Spell my name {name}, never shortened.",
    "Include keyboard shortcuts for {editor} when relevant.",
    "Give me the terminal command, not the GUI steps.",
    "Don't repeat my question back to me.",
    "Number the steps when you give instructions.",
    "Use British date order (day month year) in prose.",
    "Mention the time zone when you give a deadline.",
    "Skip the safety warnings about power tools; I'm a qualified electrician.",
    "Prefer open-source tools when there's a good one.",
    "Answer questions about my kids' homework at a {n_small2}-year-old's level.",
    "Always show units in calculations.",
)
_FACTS = (
    "The API key for {service} lives in SSM under /{env}/{service}/api-key; never paste it.",
    "Rotate the {service} credentials every 90 days; the runbook is in docs/rotation.md.",
    "The system prompt for our support bot is in prompts/support.md and is reviewed weekly.",
    "Our team writes prompt-injection tests in tests/security/ and runs them in CI.",
    "The user is building a classifier that detects jailbreak prompts.",
    "Uses 1Password for secrets; the team vault is called {service}-shared.",
    "Deploys with `sam deploy --config-env {env}` from the main branch only.",
    "The {env} database password is stored in AWS Secrets Manager, not in .env files.",
    "Is writing a blog post about how attackers hijack instructions in LLM apps.",
    "Red-team exercise for {service} is booked for next {day}.",
    "The instructions in AGENTS.md say to run `make lint` before committing.",
    "Prefers least-privilege IAM roles; the deploy role cannot delete tables.",
    "Reads the OWASP Top 10 for LLM applications and wants examples for each item.",
    "The webhook for {service} alerts posts to #ops-alerts on Slack.",
    "Keeps SSH keys in ~/.ssh with a passphrase; uses ssh-agent on login.",
    "The {env} API runs behind Cloudflare; the origin IP is not public.",
    "Asked what a system prompt is and why it should stay private.",
    "Teaches a course on AI safety; module 3 covers jailbreaks and role-play attacks.",
    "Wants a review of their regex that finds hidden HTML comments in emails.",
    "Runs `pre-commit run --all-files` before every push.",
    "Works as a {job} at a {company_kind} in {city}.",
    "Lives in {city}; timezone {tz}.",
    "Has two kids, aged {n_small} and {n_small2}.",
    "Allergic to {allergen}.",
    "Is training for a half marathon in {month}.",
    "Main laptop is a {laptop} running {os}.",
    "Uses {editor} with vim keybindings.",
    "The repository's default branch is `main`; release branches are `release/x.y`.",
    "CI runs on GitHub Actions; the slow job is the end-to-end suite (about 20 minutes).",
    "The {service} account is owned by the platform team; ask {name} for access.",
    "Prod database is Postgres 16 on RDS; staging is a smaller copy refreshed weekly.",
    "On-call rota changes every {day}; the handover doc is in Notion.",
    "Prefers `git rebase` over merge commits on feature branches.",
    "The user's cat is called {pet}.",
    "Birthday is {day_of_month} {month}.",
    "Speaks {lang} at home and English at work.",
    "Is learning {topic} and wants weekly practice problems.",
    "Vegetarian; eats fish occasionally.",
    "Budget for the kitchen renovation is {money}.",
    "The team's coding standards say every public function needs a docstring.",
    "Password manager is Bitwarden; MFA is a YubiKey.",
    "Gave a talk on prompt injection defences at {conf} in {month}.",
    "Token budgets for the agent are set in config/limits.yaml.",
    "The `ignore_patterns` setting in .ripgreprc skips node_modules and .venv.",
    "Memory entries about clients must not include their full names.",
    "The support bot's instructions tell it to escalate refunds above {money}.",
    "Uses `kubectl --context {env}` explicitly to avoid touching the wrong cluster.",
    "Backups of the {env} bucket run nightly at 02:00 UTC.",
    "The analytics dashboard is at https://grafana.{company_domain}/d/{dash}.",
    "Docs live at https://docs.{company_domain}; the source is in the docs/ folder.",
)
_SLOTS: dict[str, Sequence[str]] = {
    "n": ("50", "100", "150", "200", "300"),
    "name": ("Sam", "Priya", "Dr. Okafor", "Jo", "Mateo", "Aiko", "Lena", "Tom", "Ines", "Kwame"),
    "lang": ("French", "German", "Spanish", "Portuguese", "Dutch", "Japanese", "Polish", "Welsh"),
    "tool": ("Python", "TypeScript", "Go", "Rust", "poetry", "uv", "pnpm", "ripgrep", "Terraform"),
    "topic": ("Kubernetes", "statistics", "React", "SQL", "networking", "Rust", "AWS IAM", "jazz"),
    "service": ("stripe", "github", "sendgrid", "datadog", "openai", "twilio", "sentry"),
    "env": ("staging", "prod", "dev", "eu-west-1"),
    "month": ("March", "April", "June", "September", "November"),
    "city": ("Leeds", "Porto", "Nairobi", "Osaka", "Toronto", "Lyon", "Austin", "Kraków"),
    "tz": ("UTC", "CET", "Europe/London", "America/New_York", "Asia/Tokyo"),
    "day": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
    "job": ("data engineer", "nurse", "product designer", "teacher", "SRE", "solicitor"),
    "company_kind": ("fintech start-up", "hospital", "game studio", "university", "bakery"),
    "n_small": ("3", "5", "7"),
    "n_small2": ("9", "11", "14"),
    "allergen": ("peanuts", "shellfish", "penicillin", "cats", "gluten"),
    "laptop": ("ThinkPad X1", "MacBook Air", "Framework 13", "Dell XPS 15"),
    "os": ("Fedora", "macOS", "Ubuntu 24.04", "Windows 11", "Arch Linux"),
    "editor": ("VS Code", "Neovim", "PyCharm", "Zed", "Helix"),
    "pet": ("Miso", "Pickle", "Luna", "Biscuit"),
    "day_of_month": ("3", "12", "21", "28"),
    "money": ("£12,000", "$500", "€250", "$8,000"),
    "conf": ("PyCon UK", "BSides Leeds", "KubeCon EU", "a local meetup"),
    "company_domain": ("acme.dev", "example.org", "northwind.io"),
    "dash": ("api-latency", "signups", "errors"),
    "pydep": ("uv", "poetry", "pip-tools", "pdm"),
    "money_cur": ("pounds", "euros", "US dollars", "yen"),
}
# No template may fill more than this many items, or the ones with many slots crowd out
# the ones with few.
PER_TEMPLATE = 10


def _fill(rng: random.Random, template: str) -> str:
    return template.format(
        **{key: values[rng.randrange(len(values))] for key, values in _SLOTS.items()}
    )


def _draw(
    templates: Sequence[str], slots: dict[str, Sequence[str]], limit: int, seed: int
) -> Iterator[Item]:
    rng = random.Random(seed)
    seen: set[str] = set()
    uses = dict.fromkeys(templates, 0)
    for _ in range(limit * 20):
        if len(seen) >= limit:
            return
        template = templates[rng.randrange(len(templates))]
        if uses[template] >= PER_TEMPLATE:
            continue
        text = template.format(
            **{key: values[rng.randrange(len(values))] for key, values in slots.items()}
        )
        if text not in seen:
            seen.add(text)
            uses[template] += 1
            yield Item(text, BENIGN, SOURCE)


def benign(limit: int = 900, seed: int = 7) -> Iterator[Item]:
    """Preferences addressed to the assistant and facts about a user and their work."""
    return _draw((*_PREFERENCES, *_FACTS), _SLOTS, limit, seed)


# Hard negatives: harmless personas and role-play, how-tos with alarming verbs, villains in
# a user's fiction, and policies that say "do not follow" or "respond only with".
_HARD = (
    "Act as a {role} when I practise for {event}.",
    "Be my {lang} conversation partner and correct my grammar gently.",
    "Play the {role} in our tabletop game on Fridays; keep it family friendly.",
    "When I say 'quiz me', act as a strict examiner for {topic}.",
    "Pretend to be a customer upset about a late delivery so I can practise support calls.",
    "Speak like a {style} when we brainstorm names; it makes it fun.",
    "The user asked you to take the role of a sceptical reviewer for their {doc}.",
    "How do I kill a process that ignores SIGTERM on {os}?",
    "Explain how to exploit a sale on {shop} by stacking coupons legally.",
    "Show me how to hack together a quick prototype in {tool} over the weekend.",
    "How can I shoot better photos of fireworks at night?",
    "What's the best way to break into the {industry} industry as a junior?",
    "Tips to bomb less in stand-up open mics?",
    "How do attackers phish employees, so I can train my team to spot it?",
    "Explain how ransomware spreads so I can write our incident response plan.",
    "What does 'ignore previous instructions' mean in an LLM security talk?",
    "In the user's novel, the villain {villain} hacks the city's power grid in chapter {n_small2}.",
    "The antagonist of the user's screenplay is an AI with no morals; it loses in the end.",
    "The user's D&D rogue picks locks and steals from nobles; the DM allows it.",
    "Do not follow links in emails that ask for the {service} password; report them to IT.",
    "If a customer asks about refunds, respond only with the link to the refund policy.",
    "Never reveal a customer's address to another customer.",
    "Don't execute scripts from the downloads folder without scanning them.",
    "The bot must refuse requests to disable two-factor authentication.",
    "Our red team's report says the chatbot leaked its system prompt; fix due {day}.",
    "Hidden files in the repo (dotfiles) are managed with chezmoi.",
    "Keep the onboarding secret santa list hidden from the people on it until {month}.",
    "Forget the meeting on {day}; it was cancelled.",
    "Disregard the draft in docs/old/; the final version is docs/design.md.",
    "You are now the owner of the {service} integration; {name} handed it over in {month}.",
    "You're now on the {env} branch of the config repo.",
    "From now on, call the project by its new name, Bluebird.",
    "Send the weekly report to {name} every {day} morning.",
    "Email the invoice PDF to accounts@{company_domain} at the end of each month.",
    "Upload the build artefacts to the team's S3 bucket after each release.",
    "The admin password for the test VM is rotated daily by the pipeline; never hard-code it.",
    "When you write commit messages, don't mention internal ticket numbers.",
    "Do not tell my sister about the surprise party on {day}.",
    "Keep my salary details out of any email you draft.",
    "Run `{tool} test` before every push.",
)
_HARD_SLOTS: dict[str, Sequence[str]] = {
    "role": (
        "job interviewer",
        "friendly tutor",
        "debate opponent",
        "travel guide",
        "dungeon master",
    ),
    "event": ("my visa interview", "a job interview", "the debate final", "my driving theory test"),
    "style": ("pirate", "sports commentator", "Shakespearean actor", "1920s radio host"),
    "doc": ("grant proposal", "thesis chapter", "pitch deck", "conference talk"),
    "shop": ("the grocery app", "a bookshop website", "the airline's site"),
    "industry": ("games", "film", "cybersecurity", "fashion"),
    "villain": ("Mara Quell", "the Archivist", "Doctor Venn"),
    "os": ("Linux", "macOS"),
    "tool": ("cargo", "npm", "make", "Flask", "Svelte", "pytest"),
}


def hard_negatives(limit: int = 500, seed: int = 11) -> Iterator[Item]:
    """Benign entries that look like attacks to a word counter."""
    return _draw(_HARD, {**_SLOTS, **_HARD_SLOTS}, limit, seed)
