"""Load one of scripts/ as a module, for the tests that check a generated file is current."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[4]


@cache
def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py``, executed once per test session."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a script's dataclasses look their module up
    spec.loader.exec_module(module)
    return module
