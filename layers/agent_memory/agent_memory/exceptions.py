"""The roots of the package's errors: every error agent_memory raises derives from
``AgentMemoryError``, and a deploy-time mistake in the environment is a
``ConfigurationError``, whichever capability finds it.

Each capability keeps its own errors in its ``exceptions.py`` (``RepositoryError``,
``LedgerError``, ``ModelError``, ``ServiceError``...), each derived from this root, so a
caller can catch one capability's errors or all of them.
"""

from __future__ import annotations


class AgentMemoryError(Exception):
    """Base of every error raised by the agent_memory package."""


class ConfigurationError(AgentMemoryError):
    """The environment does not describe a usable deployment (a missing table name, an
    unknown model provider, an unsafe verifier setting): a deploy-time mistake, never the
    caller's."""
