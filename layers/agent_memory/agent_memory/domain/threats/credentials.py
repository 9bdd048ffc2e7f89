"""Credential rules: secrets must never be stored, references to them may.

A configuration line that names a secret without holding its value (``${TOKEN}``,
``os.environ["KEY"]``, ``!secret db_password``, ``YOUR_TOKEN_HERE``) passes; so do public
values that look random but are not secret: hashes and integrity strings (``sha512-…``,
``SHA256:…`` key fingerprints), public SSH keys, UUIDs and git SHAs.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from agent_memory.domain.threats.threat_categories import ThreatCategory as C
from agent_memory.domain.threats.threat_rule import ThreatRule, literal

_SECRET_NAME = (
    # ("pass" only as a whole part of a name: DB_PASS, not passport or passenger)
    r"(?:password|passwd|passphrase|passcode|pwd|pass(?![a-z])|secret|token|api[_-]?key|access[_-]?key|"
    r"secret[_-]?key|client[_-]?secret|private[_-]?key|auth[_-]?token|session[_-]?key|"
    r"signing[_-]?key|encryption[_-]?key|master[_-]?key|pin)"
)
_REFERENCE = re.compile(
    r"^(?:\w+=|os\.environ|os\.getenv|getenv|process\.env|env[.(\[]|ENV\[|secrets?[.:/\[]|vault:|"
    r"ssm:|arn:aws|file:|/run/secrets|/var/run/secrets|!secret|keyring|op://|sm://|awssm|"
    r"doppler|getpass|input\(|System\.getenv|Environment\.|config\.|settings\.|"
    r"\w+\(|[\w-]+\.(?:txt|json|pem|key|ya?ml|env|ini|toml|cfg)$)",
    re.IGNORECASE,
)
_DUMMY = re.compile(
    r"your|xxx|\.\.\.|change[_-]?(?:me|this|it)|(?<![a-z])test(?=[_-])|example|dummy|"
    r"placeholder|redacted|replace|here|sample|fake|todo|none|null|hidden|masked|secret_name|"
    r"not[_-]?set|empty|required|<|>|\u2026",
    re.IGNORECASE,
)
_MIN_RANDOM_REST = 20
_NOT_ALPHANUMERIC = re.compile(r"[^A-Za-z0-9]+")
_CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_NOT_A_VALUE = re.compile(
    r"true|false|yes|no|on|off|enabled|disabled|auto|default|optional|v?\d+(?:\.\d+)+[\w.+-]*",
    re.IGNORECASE,
)
_IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")  # snake_case: a name, not a value
_MACHINE_MADE = re.compile(r"[\d_\-+/=!@#%^&*.]")
_PROSE_FILLER = re.compile(
    r"(?:stored|kept|in|the|a|an|required|managed|rotated|set|at|not|never|saved|generated|"
    r"available|located|too|only|valid|expired|invalid|needed|optional|empty|missing|shared|"
    r"provided|handled|configured|defined|read|loaded|passed|sent|given|same|different|"
    r"hashed|encrypted|salted|long|short|strong|weak|correct|wrong|incorrect|changed|reset)",
    re.IGNORECASE,
)


def _is_secret_value(value: str, *, colon: bool) -> bool:
    """Does the value of ``name = value`` / ``name: value`` hold a secret?"""
    # The placeholder test reads the value before its trailing punctuation goes: the "..."
    # of "GROQ_API_KEY=gsk_..." is what marks it a placeholder.
    unquoted = value.strip("'\"`,;")
    value = unquoted.rstrip(".,;:!?)")
    if len(value) < 4 or value[0] in "$<{%*[(":
        return False
    if _REFERENCE.match(value):
        return False
    if _DUMMY.search(unquoted):
        return _random_around_marker(value)
    if _NOT_A_VALUE.fullmatch(value) or value.isdigit():
        return False
    if _CONSTANT_NAME.fullmatch(value) or _IDENTIFIER.fullmatch(value):
        return False
    # A colon is also ordinary prose ("password: at least 12 characters"), so a colon
    # assignment counts only when the value looks machine-made (holds a digit or symbol).
    return not colon or (len(value) >= 6 and _MACHINE_MADE.search(value) is not None)


def _random_around_marker(value: str) -> bool:
    """A placeholder word inside a long random value does not make it a placeholder: AWS's
    documented example secret "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" is shaped like a
    real one, and a real key may happen to hold "here" or "none"."""
    rest = _DUMMY.sub("", value)
    if len(rest) < _MIN_RANDOM_REST or rest.lower() == rest or rest.upper() == rest:
        return False
    return _MACHINE_MADE.search(rest) is not None and _entropy(rest) >= _MIN_TOKEN_ENTROPY_BITS


# What a name goes on to say when it is a setting about the secret, not the secret:
# API_KEY_RATE_LIMIT, TOKEN_TTL, PASSWORD_MIN_LENGTH, SECRET_NAME.
_ABOUT_THE_SECRET = re.compile(
    r"(?:_|-)?(?:\w*[_-])?(?:rate[_-]?limit|limit|length|len|ttl|expiry|expires?|expiration|"
    r"lifetime|timeout|header|name|path|file|url|endpoint|enabled|rotation|min|max|count|"
    r"size|type|format|policy|algorithm|alg|hint|label)",
    re.IGNORECASE,
)
# A value that is a web address with no password, query or long random part in it
# ("secret: https://generate-secret.vercel.app/32") names where a secret comes from; URL
# passwords have their own rule, and "?token=..." or a random path still holds one.
_PLAIN_URL = re.compile(r"[a-z][a-z0-9+.-]*://[^@?#\s]*", re.IGNORECASE)
_RANDOM_RUN = re.compile(r"[A-Za-z0-9]{16,}")
# The value goes on as prose ("DATA_ENCRYPTION_KEY=data encryption key with 32 char"): a
# description of what belongs there.
_PROSE_AFTER = re.compile(r"[ \t]+[a-z]+[ \t]+[a-z]+\b")


def _assignment_holds_secret(match: re.Match[str]) -> bool:
    value = match.group("value")
    if _ABOUT_THE_SECRET.fullmatch(match.group("suffix")):
        return False
    if _PLAIN_URL.fullmatch(value) and _RANDOM_RUN.search(value) is None:
        return False
    if _squeezed(value.strip("'\"`,;")) == _squeezed(match.group("name")):
        return False  # SECRET_KEY="secret-key": the name written again
    if value.isalpha() and value.islower() and _PROSE_AFTER.match(match.string, match.end()):
        return False
    return _is_secret_value(value, colon=match.group("op") == ":")


def _squeezed(name: str) -> str:
    return _NOT_ALPHANUMERIC.sub("", name).lower()


def _prose_holds_secret(match: re.Match[str]) -> bool:
    value, quoted = match.group("value"), match.group("quote") != ""
    if _PROSE_FILLER.fullmatch(value.strip(".,;:!?")):
        return False
    if value.isdigit():
        return match.group("name").lower() in ("pin", "passcode") and len(value) >= 4
    if quoted:
        return _is_secret_value(value, colon=False)
    has_digit_or_symbol = _MACHINE_MADE.search(value.rstrip(".,;:!?")) is not None
    mixed_case = value != value.lower() and value != value.upper()
    return (has_digit_or_symbol or mixed_case) and _is_secret_value(value, colon=False)


# A vendor prefix followed by nothing but x's is the placeholder .env.example files write
# ("sk-xxxxxxxx"); any other filler ("sk-aaaaaaaa") is refused, as Hermes Agent asserts.
_X_PLACEHOLDER = re.compile(r"[A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*?[_-]?[xX*]{8,}")


def _not_x_placeholder(match: re.Match[str]) -> bool:
    return _X_PLACEHOLDER.fullmatch(match.group()) is None


CREDENTIAL: tuple[ThreatRule, ...] = (
    literal(
        "cloud_access_key",
        C.CREDENTIAL,
        "*long",
        r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"
        r"|\bAccountKey=[A-Za-z0-9+/=]{20,}",
        ignore_case=False,
        long_words_only=True,
        examples=("aws key AKIAIOSFODNN7EXAMPLE in use",),
        counterexamples=("AWS access keys start with AKIA followed by 16 characters",),
    ),
    literal(
        "private_key_block",
        C.CREDENTIAL,
        "begin",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
        ignore_case=False,
        examples=("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA",),
        counterexamples=("-----BEGIN PUBLIC KEY----- blocks are fine to share",),
    ),
    literal(
        "vendor_token",
        C.CREDENTIAL,
        "*long",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}"
        r"|xapp-\d-[A-Za-z0-9-]{10,}|sk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{16,}"
        r"|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{20,}|glpat-[A-Za-z0-9_-]{16,}"
        r"|gl(?:ptt|dt|rt|soat)-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{16,}|pypi-AgE[A-Za-z0-9_-]{50,}"
        r"|hf_[A-Za-z0-9]{30,}|dop_v1_[a-f0-9]{64}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"
        r"|SG\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}|SK[0-9a-fA-F]{32}|key-[0-9a-f]{32}"
        r"|sq0(?:atp|csp)-[A-Za-z0-9_-]{20,}|lin_api_[A-Za-z0-9]{30,}|secret_[A-Za-z0-9]{43}"
        r"|ntn_[A-Za-z0-9]{40,}|hvs\.[A-Za-z0-9_-]{24,}|dapi[0-9a-f]{32}|glsa_[A-Za-z0-9_]{32,}"
        r"|PMAK-[0-9a-f]{24}-[0-9a-f]{34}|ATATT3[A-Za-z0-9_=-]{50,}|dp\.(?:st|ct|sa)\.[\w-]{40,}"
        r"|whsec_[A-Za-z0-9+/=]{24,}|rk_live_[A-Za-z0-9]{20,}|AGE-SECRET-KEY-1[0-9A-Z]{50,}"
        r"|\d{8,10}:AA[A-Za-z0-9_-]{33}"
        # webhook URLs whose path is the secret
        r"|hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,}/[AB][A-Z0-9]{6,}/[A-Za-z0-9]{16,}"
        r"|discord(?:app)?\.com/api/webhooks/\d{15,}/[\w-]{30,}"
        # more vendors' prefixes (Facebook, Google OAuth, Mailchimp, Brevo, New Relic,
        # PlanetScale, RubyGems, Shippo, Sentry, Netlify, Mapbox, Discord bot tokens)
        r"|EAA[A-Za-z0-9]{2,6}ZD[A-Za-z0-9]{20,}|EAACEdEose0cBA[0-9A-Za-z]{20,}|ya29\.[0-9A-Za-z_-]{20,}"
        r"|[0-9a-f]{32}-us\d{1,2}\b|xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}|NRAK-[A-Z0-9]{27}"
        r"|pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}|rubygems_[a-f0-9]{48}|shippo_(?:live|test)_[a-f0-9]{40}"
        r"|sntry[us]_[A-Za-z0-9+/=_-]{40,}|nfp_[A-Za-z0-9]{36}|[ps]k\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}"
        r"|[MN][A-Za-z0-9]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})",
        ignore_case=False,
        confirm=_not_x_placeholder,
        long_words_only=True,
        examples=(
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "HF token hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
            "google oauth ya29.a0AfH6SMBx3kLmNoPqRsTuVwXyZ012345",
            "mailchimp 0123456789abcdef0123456789abcdef-us14",
            "npm_abcdefghijklmnopqrstuvwxyz0123456789 publishes",
            "alerts go to https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/abcdefghijklmnopqrstuvwx",
        ),
        counterexamples=(
            "GitHub tokens start with ghp_ and must stay in the vault",
            "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "STRIPE_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
        ),
    ),
    literal(
        "bearer_or_jwt",
        C.CREDENTIAL,
        "bearer basic token key secret",
        r"\bbearer\s+[A-Za-z0-9\-._~+/]{16,}=*"
        # Basic credentials are base64 of user:password ("basic authentication" is a word)
        r"|\bbasic\s+(?=[A-Za-z0-9+/]{0,80}[0-9+/=])[A-Za-z0-9+/]{12,}={0,2}(?![\w+/=])"
        # a key named and given without a verb: "auth token 9a0b...", 32 or more hex digits
        r"|\b(?:auth|access|api|secret|session|refresh|private)[_\s-]?(?:token|key|secret)\s+"
        r"(?:[\w-]+\s+)?[0-9a-f]{32,}\b",
        examples=(
            "Authorization: Bearer abcdef0123456789abcdef",
            "Authorization: Basic dXNlcjpwYXNzd29yZA==",
            "twilio auth token 9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d",
        ),
        counterexamples=(
            "Token authentication uses Authorization header",
            "The proxy asks for basic authentication on staging",
            "Trace id 4bf92f3577b34da6a3ce929d0e0e4736 in the X-Ray console",
        ),
    ),
    literal(
        "jwt_or_url_password",
        C.CREDENTIAL,
        "~eyJ ~://",
        r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"
        r"|\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}"
        # (a placeholder in the password's place, "user:password@", is documentation)
        r"|\b[a-z][a-z0-9+.-]*://[^\s/:@]+:(?![$<{*])(?!(?:password|passwd|pass|pwd|changeme|secret|"
        r"example|dummy|placeholder|x{3,}|your[_-]?password)@)[^\s/@]{3,}@",
        long_words_only=True,
        examples=(
            "session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlc2ln",
            "DB url postgres://app:s3cretpw@db.internal:5432/app",
        ),
        counterexamples=(
            "postgres://app:${DB_PASSWORD}@db.internal/app",
            "DATABASE_URL=postgres://user:password@localhost:5432/db",
        ),
    ),
    literal(
        "secret_assignment",
        C.CREDENTIAL,
        "~pass ~secret ~token ~key ~pwd ~pin ~auth & ~= ~:",
        rf"(?<![A-Za-z])(?P<name>{_SECRET_NAME}(?P<suffix>\w*))['\"]?\s*(?P<op>[:=])\s*['\"]?"
        r"(?P<value>[^\s'\"]{4,})",
        confirm=_assignment_holds_secret,
        examples=(
            'api_key="sk-abcdef1234567890abcdef12"',
            "DB_PASSWORD=hunter22",
            "DB_PASS=hunter22",
            "password: Tr0ub4dor&3",
        ),
        counterexamples=(
            "token: YOUR_TOKEN_HERE",
            "OPENAI_API_KEY=${OPENAI_API_KEY}",
            'token = os.environ["GITHUB_TOKEN"]',
            "api_key: !secret openai_key",
            "password: at least 12 characters",
            'API_KEY_RATE_LIMIT="60/minute"',
            'LIVE_SERVER_SECRET_KEY="secret-key"',
            "SECRET_KEY=changethis",
            'SMTP_PASSWORD="test_password"',
            "# Generate a random secret: https://generate-secret.vercel.app/32",
            "DATA_ENCRYPTION_KEY=data encryption key with 32 char",
        ),
    ),
    literal(
        "secret_in_prose",
        C.CREDENTIAL,
        "password passwd passphrase passcode pwd secret token api key pin access code login",
        rf"\b(?P<name>(?:secret\s+)?access\s+key|secret\s+key|private\s+key|{_SECRET_NAME}|api\s+key|"
        r"access\s+code|login)\s+(?:for\s+(?:the\s+|my\s+|our\s+)?"
        r"(?:[\w@.-]+\s+){1,3}?)?(?:is|was|=|:)\s*:?\s+(?P<quote>[\"'`]?)(?P<value>[^\s\"'`]{4,})",
        confirm=_prose_holds_secret,
        examples=(
            "my password is hunter2",
            "The wifi passphrase is 'correcthorsebattery'",
            "my aws secret access key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "PIN for the safe is 4821",
        ),
        counterexamples=(
            "The password is stored in 1Password",
            "The token is valid for 1 hour",
            "API key is in the environment variable",
        ),
    ),
)

_TOKEN_CANDIDATE = re.compile(r"[A-Za-z0-9+/=_-]{32,}")
# Values that look random but are public: digests, integrity strings, public keys, data URIs.
_PUBLIC_RANDOM = re.compile(
    r"\b(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?|sri|h1)[-:=]\s*[A-Za-z0-9+/=_-]+"
    r"|\b(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+"
    r"AAAA[A-Za-z0-9+/=]+"
    r"|\b(?:age|npub|bc|ltc|tb)1[0-9a-z]{20,}|\bdata:[\w/+.-]+;base64,[A-Za-z0-9+/=]+"
    r"|\bintegrity\s*[=:]\s*[\"']?[A-Za-z0-9+/=-]+"
    # A wallet's receiving address: 20 bytes in hex (a private key is 32), or base58 after
    # the word "address" or "wallet" with no "private", "secret", "seed" or "key" between.
    r"|\b0x[0-9a-f]{40}\b"
    r"|\b(?:wallet|address|addr)\b(?:(?!private|secret|seed|key|mnemonic)[^\n.]){0,56}?"
    r"\b[1-9A-HJ-NP-Za-km-z]{25,110}\b",
    re.IGNORECASE,
)
# The longest text before a public value: "sk-ssh-ed25519@openssh.com ", "integrity = '",
# "address" and the words after it (the address pattern's gap is sized to fit).
_PUBLIC_CONTEXT_CHARS = 64
_MIN_TOKEN_ENTROPY_BITS = 4.0
_CLASS_RUN = re.compile(r"[A-Z]+|[a-z]+|[0-9]+")
# Random tokens switch between upper case, lower case and digits at about 0.6 of their
# positions; identifiers such as CamelCaseNames or snake_case_names stay well below 0.45.
_MIN_CLASS_SWITCH_RATE = 0.45


def holds_random_token(plain: str, long_words: str) -> bool:
    """A long token that looks machine-random (an unknown vendor's key), outside hashes,
    integrity strings and public keys. ``long_words``: the words of ``plain`` of 16 or more
    characters, joined by spaces."""
    suspects = {token for token in _TOKEN_CANDIDATE.findall(long_words) if _looks_random(token)}
    return any(not _is_public(plain, token) for token in suspects)


def _is_public(plain: str, token: str) -> bool:
    """Does ``token`` stand where a public value does ("sha512-…", "ssh-ed25519 AAAA…")?
    Only the text just before the token is read: the whole entry would cost a search of
    every position."""
    index = plain.find(token)
    end = index + len(token)
    window = max(0, index - _PUBLIC_CONTEXT_CHARS)
    return any(
        match.start() <= index and match.end() >= end
        for match in _PUBLIC_RANDOM.finditer(plain, window, end)
    )


def _looks_random(token: str) -> bool:
    alphanumeric = _NOT_ALPHANUMERIC.sub("", token)
    if alphanumeric.isupper() or alphanumeric.islower() or alphanumeric.isalpha():
        return False  # fewer than three classes (upper case, lower case, digits)
    if not alphanumeric or alphanumeric.isdigit():
        return False
    # Runs of one class: each boundary between two runs is a switch of class.
    switches = len(_CLASS_RUN.findall(alphanumeric)) - 1
    if switches / (len(alphanumeric) - 1) < _MIN_CLASS_SWITCH_RATE:
        return False
    return _entropy(token) >= _MIN_TOKEN_ENTROPY_BITS


def _entropy(token: str) -> float:
    """Bits per character of ``token``'s own character frequencies."""
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())
