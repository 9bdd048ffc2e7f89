"""What ships in the layer is pinned, and pinned to what the tests ran with."""

from __future__ import annotations

import re
from pathlib import Path

from agent_memory_tools.local.functions import project_root

ROOT = project_root()


def pins(path: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, separator, version = line.partition("==")
        assert separator, f"{path.name}: {line!r} is not pinned with =="
        found[re.sub(r"[-_.]+", "-", name).lower()] = version
    return found


def test_the_layer_ships_the_versions_the_tests_ran_with() -> None:
    layer = pins(ROOT / "layers" / "agent_memory" / "requirements.txt")
    dev = pins(ROOT / "requirements" / "dev.lock")

    assert {"aws-lambda-powertools", "pydantic", "pyjwt", "cryptography", "boto3"} <= set(layer)
    assert {name: version for name, version in layer.items() if dev.get(name) != version} == {}


def test_every_lock_pins_every_line() -> None:
    for path in (ROOT / "requirements").glob("*.lock"):
        assert pins(path)
