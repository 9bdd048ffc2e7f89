"""The web console in a real headless Chromium (Debian's package), against a real local stack.

- ``browser``: one Chromium per test module, launched from the system's executable (Playwright
  never downloads a browser here). Without Chromium the tests skip; ``make test`` installs it.
- ``stack``: the local stack as ``make run`` starts it (a subprocess, port 0), per module.
- ``console``: a fresh browser context (its own storage: a separate person) with a page on
  the console; ``console_for`` opens more (two users side by side).
- A failing test leaves a screenshot of each of its pages in ``reports/web-console/``.
"""

from __future__ import annotations

import os
import shutil
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright import sync_api

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "local_stack"))

from console_page import ConsolePage
from stack_support import RunningStack, start_stack

from agent_memory_tools.dev_auth import DevIssuer

REPO_ROOT = Path(__file__).resolve().parents[3]
SCREENSHOTS = REPO_ROOT / "reports" / "web-console"
ENV_CHROMIUM = "CHROMIUM"
DESKTOP = {"width": 1280, "height": 900}
# Generous waits: on a loaded 2-core machine a page or a turn can take seconds. Tests wait on
# conditions, so a generous timeout costs nothing when things are fast.
EXPECT_TIMEOUT_MS = 20_000
ACTION_TIMEOUT_MS = 30_000
sync_api.expect.set_options(timeout=EXPECT_TIMEOUT_MS)


def chromium_executable() -> str | None:
    """The system Chromium: $CHROMIUM, else Debian's ``chromium`` on PATH."""
    return os.environ.get(ENV_CHROMIUM) or shutil.which("chromium")


# Module scope, not session: Playwright's sync API keeps an event loop running on the main
# thread while it is open, which would break later tests that call asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    executable = chromium_executable()
    if executable is None:
        pytest.skip("no system Chromium (apt-get install chromium; make test installs it)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def issuer_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dev-issuer")


@pytest.fixture(scope="session")
def issuer(issuer_dir: Path) -> DevIssuer:
    return DevIssuer(issuer_dir)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, issuer_dir: Path) -> Iterator[RunningStack]:
    running = start_stack(tmp_path_factory.mktemp("stack"), issuer_dir)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def user_name() -> Callable[[str], str]:
    """A fresh user name per call (memory lives as long as the stack)."""
    return lambda prefix: f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def console_for(
    request: pytest.FixtureRequest, browser: sync_api.Browser, stack: RunningStack
) -> Iterator[Callable[..., ConsolePage]]:
    """Opens the console in a new browser context (a separate person) of the given size."""
    opened: list[ConsolePage] = []

    def open_console(viewport: dict[str, int] | None = None) -> ConsolePage:
        context = browser.new_context(viewport=viewport or DESKTOP)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        console = ConsolePage.open(context, stack.url)
        opened.append(console)
        return console

    yield open_console
    failed = request.node.stash.get(_FAILED, False)
    for index, console in enumerate(opened):
        if failed:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            name = f"{request.node.name}-{index}.png".replace("/", "_")
            console.page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
        console.page.context.close()


@pytest.fixture
def console(console_for: Callable[..., ConsolePage]) -> ConsolePage:
    return console_for()
