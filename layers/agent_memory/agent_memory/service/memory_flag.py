"""The memory feature flag: rollback is a flag change only.

The flag is read on every request, so flipping it needs no deploy. Its source is the
``MEMORY_ENABLED`` environment variable, or, when ``APPCONFIG_APPLICATION``,
``APPCONFIG_ENVIRONMENT`` and ``APPCONFIG_PROFILE`` are set, the ``memory_enabled`` feature
of that AWS AppConfig profile through Powertools feature flags (the variable is then the
default used when AppConfig cannot answer).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from typing import Any

from agent_memory.service.settings import env_flag

FEATURE_NAME = "memory_enabled"

_lock = threading.Lock()
_feature_flags: Any = None


def _appconfig_flags(env: Mapping[str, str]) -> Any:
    global _feature_flags
    with _lock:
        if _feature_flags is None:
            from aws_lambda_powertools.utilities.feature_flags import AppConfigStore, FeatureFlags

            store = AppConfigStore(
                environment=env["APPCONFIG_ENVIRONMENT"],
                application=env["APPCONFIG_APPLICATION"],
                name=env["APPCONFIG_PROFILE"],
                max_age=int(env.get("APPCONFIG_MAX_AGE_SECONDS", "30")),
            )
            _feature_flags = FeatureFlags(store=store)
        return _feature_flags


def memory_enabled(env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    from_env = env_flag(env.get("MEMORY_ENABLED"), default=False)
    if all(
        env.get(name)
        for name in ("APPCONFIG_APPLICATION", "APPCONFIG_ENVIRONMENT", "APPCONFIG_PROFILE")
    ):
        return bool(_appconfig_flags(env).evaluate(name=FEATURE_NAME, default=from_env))
    return from_env
