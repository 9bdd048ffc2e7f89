"""The same static files hosted elsewhere: the API's address comes from configuration."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote

import pytest
from console_page import ConsolePage
from playwright.sync_api import expect
from stack_support import RunningStack

from agent_memory_tools.dev_auth import DevIssuer
from agent_memory_tools.local.webconsole import STATIC_DIR


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def static_host() -> Iterator[str]:
    """A plain static file server (another origin than the API) serving the console's files."""
    handler = functools.partial(_QuietHandler, directory=str(STATIC_DIR))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_the_console_hosted_elsewhere_talks_to_the_configured_api(
    console_for: Callable[..., ConsolePage],
    static_host: str,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN the console's files on a static host of their own, opened with ?api= naming the
    # local stack (another origin: the API answers it through CORS)
    assert static_host != stack.url
    page = console_for().page
    page.goto(f"{static_host}/index.html?api={quote(stack.url, safe='')}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    console = ConsolePage(page, static_host)

    # THEN it offers no sign-in by name (a hosted copy has no dev issuer), only a token
    expect(page.get_by_label("Token")).to_be_visible()
    expect(page.locator("#dev-sign-in")).to_be_hidden()

    # WHEN the user pastes a token and sends a turn that saves a fact
    token = issuer.mint(user_name("remote"))
    console.sign_in_with_token(token)
    console.expect_outcome(console.send("remember: hosted anywhere"), "committed")

    # THEN it streamed over the WebSocket beside the configured API (ws:// + /ws by default)
    expect(page.locator("#transport")).to_have_text("Replies stream in over the WebSocket.")
    # AND the configured API holds the fact and the panel shows it
    expect(console.entries("memory")).to_have_text(["hosted anywhere"])
    assert stack.memory(token)["memory"] == ["hosted anywhere"]
    expect(console.error).to_be_hidden()
