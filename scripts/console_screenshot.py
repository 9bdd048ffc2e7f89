"""Take docs/console.png from the real console: a local stack, Debian's headless Chromium.

Run it with `make console-screenshot`. It starts the local stack as `make run` does (port 0,
a throwaway dev issuer), signs in by name, runs a few turns (one saves, one proposes, one
changes nothing, one is cancelled while it streams) and saves a screenshot of the page.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "functional" / "local_stack"))

from stack_support import start_stack  # noqa: E402

TIMEOUT_MS = 30_000


def send(page: Page, message: str, status: str) -> None:
    turns = page.locator("#turns > li.turn")
    count = turns.count()
    page.get_by_label("Message").fill(message)
    page.get_by_role("button", name="Send").click()
    expect(turns.nth(count).locator(".badge")).to_have_attribute("data-status", status)


def stage_console(page: Page, url: str) -> None:
    page.goto(url + "/")
    page.get_by_label("Name").fill("alice")
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.locator("body")).to_have_attribute("data-console", "ready")
    send(page, "about me: I am a backend developer\nremember: we deploy with SAM", "committed")
    send(page, "hello, what do you know?", "unchanged")

    page.get_by_label("Write mode").select_option("approve")
    expect(page.get_by_label("Write mode")).to_have_value("approve")
    send(page, "remember: the staging stage is eu-west-1", "proposed")
    expect(page.locator("#proposal-list > li.proposal")).to_have_count(1)
    page.get_by_label("Write mode").select_option("auto")
    expect(page.get_by_label("Write mode")).to_have_value("auto")

    turns = page.locator("#turns > li.turn")
    count = turns.count()
    page.get_by_label("Message").fill("remember: a fact I cancel\nsimulate: sleep 8")
    page.get_by_role("button", name="Send").click()
    turn = turns.nth(count)
    expect(turn.locator(".badge")).to_have_text("Running…")
    turn.get_by_role("button", name="Cancel").click()
    expect(turn.locator(".badge")).to_have_attribute("data-status", "cancelled")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=REPO_ROOT / "docs" / "console.png")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        print("no system Chromium: run `make browser` first", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="console-screenshot-") as work:
        stack = start_stack(Path(work), Path(work) / "issuer")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, headless=True)
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)
                page = context.new_page()
                stage_console(page, stack.url)
                page.screenshot(path=str(args.output), full_page=True)
                browser.close()
        finally:
            stack.stop()
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
