"""The probe's namespace: user ids that no verified caller can ever have.

The memory owner is always the ``sub`` of a token the authorizer verified (DESIGN.md, turn
protocol step 1), and the verifier refuses a ``sub`` longer than ``MAX_SUBJECT_LENGTH``. A
probe user id is longer than that, so the probe can never read, write or delete a real user's
memory, and a real user can never see a probe item. A reserved prefix alone would not do: an
issuer may hand out any string as a subject, ``__probe__...`` included. The prefix is there
for people: it makes a probe item obvious in the console.
"""

from __future__ import annotations

import re
import uuid

from agent_memory.auth import MAX_SUBJECT_LENGTH
from agent_memory_tools.operations.exceptions import NotAProbeUserError

PROBE_PREFIX = "__probe__#"
PROBE_USER_ID_LENGTH = MAX_SUBJECT_LENGTH + 8
_PADDING = "~"
_RUN_ID = re.compile(r"[0-9a-f]{32}")


def new_run_id() -> str:
    return uuid.uuid4().hex


def probe_user_id(run_id: str) -> str:
    """The user id of probe run ``run_id`` (32 lowercase hex digits)."""
    if not _RUN_ID.fullmatch(run_id):
        raise NotAProbeUserError(
            f"{run_id!r} is not a probe run id (32 lowercase hex digits, as the probe prints)."
        )
    head = f"{PROBE_PREFIX}{run_id}#"
    return head + _PADDING * (PROBE_USER_ID_LENGTH - len(head))


def is_probe_user_id(user_id: str) -> bool:
    """True only for ids built by ``probe_user_id``."""
    run_id = user_id[len(PROBE_PREFIX) : len(PROBE_PREFIX) + 32]
    return (
        len(user_id) > MAX_SUBJECT_LENGTH
        and user_id.startswith(PROBE_PREFIX)
        and _RUN_ID.fullmatch(run_id) is not None
        and user_id == probe_user_id(run_id)
    )


def short_form(user_id: str) -> str:
    """A probe user id for humans: the padding elided, the length said."""
    return f"{user_id.rstrip(_PADDING)}{_PADDING}... ({len(user_id)} characters)"
