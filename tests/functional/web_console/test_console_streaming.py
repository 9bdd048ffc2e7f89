"""Streamed turns over the local stack's real WebSocket (``ws://HOST:PORT/ws``): the reply
arrives as deltas, a fact is saved only at the end, and Cancel mid-stream saves nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from console_page import ConsolePage
from playwright.sync_api import Page, Request, WebSocket, expect
from stack_support import RunningStack, wait_for

from agent_memory_tools.dev_auth import DevIssuer

STREAMING = "Replies stream in over the WebSocket."
# Long enough that Cancel lands while the model still works, even on a loaded machine.
SLOW_SECONDS = 10

# Every state of every reply while the page runs: [aria-busy, text].
RECORD_REPLIES = """() => {
  window.replyStates = [];
  const record = () => {
    for (const reply of document.querySelectorAll("#turns .reply")) {
      window.replyStates.push([reply.getAttribute("aria-busy"), reply.textContent]);
    }
  };
  new MutationObserver(record).observe(document.getElementById("turns"),
    { subtree: true, childList: true, characterData: true, attributes: true });
}"""


# Records each WebSocket the page opens (the browser's own class, unchanged otherwise).
KEEP_SOCKETS = """
window.sockets = [];
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    window.sockets.push(this);
  }
};
"""


@dataclass
class Traffic:
    """What the page sent and received: WebSocket frames (parsed) and HTTP requests."""

    received: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    sockets: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("websocket", self._socket)
        page.on("request", self._request)

    def _socket(self, socket: WebSocket) -> None:
        self.sockets.append(socket.url)
        socket.on("framereceived", lambda payload: self.received.append(_parsed(payload)))
        socket.on("framesent", lambda payload: self.sent.append(_parsed(payload)))

    def _request(self, request: Request) -> None:
        self.requests.append(f"{request.method} {request.url}")

    def frames_of(self, turn_id: str) -> list[dict[str, Any]]:
        return [frame for frame in self.received if frame.get("turn_id") == turn_id]


def _parsed(payload: str | bytes) -> dict[str, Any]:
    try:
        frame = json.loads(payload)
    except ValueError:
        return {"unparsed": True}
    return frame if isinstance(frame, dict) else {"unparsed": True}


def streaming_console(console: ConsolePage, issuer: DevIssuer, name: str) -> tuple[Traffic, str]:
    traffic = Traffic()
    traffic.watch(console.page)
    token = issuer.mint(name)
    console.sign_in_with_token(token)
    expect(console.page.locator("#transport")).to_have_text(STREAMING)
    assert traffic.sockets == [console.url.replace("http://", "ws://") + "/ws"]
    console.page.evaluate(RECORD_REPLIES)
    return traffic, token


def test_a_streamed_turn_shows_deltas_then_saves_the_fact(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a signed-in user whose console streams over the WebSocket
    traffic, token = streaming_console(console, issuer, user_name("alice"))

    # WHEN they send a message that saves a fact
    turn = console.send("remember: we deploy with SAM")

    # THEN the turn ends saved, its reply shown, the fact in the panel and in the API
    console.expect_outcome(turn, "committed", "Saved: 1 change")
    expect(console.entries("memory")).to_have_text(["we deploy with SAM"])
    assert stack.memory(token)["memory"] == ["we deploy with SAM"]

    # AND it went over the WebSocket, not POST /chat: started, several deltas, then done
    turn_id = turn.get_attribute("data-turn-id")
    assert turn_id
    sent = {"action": "chat", "turn_id": turn_id, "message": "remember: we deploy with SAM"}
    assert traffic.sent == [sent]
    assert not [r for r in traffic.requests if r.startswith("POST ") and r.endswith("/chat")]
    frames = traffic.frames_of(turn_id)
    kinds = [frame["type"] for frame in frames]
    assert (kinds[0], kinds[-1]) == ("started", "done"), kinds
    deltas = [frame["text"] for frame in frames if frame["type"] == "delta"]
    assert len(deltas) >= 2, kinds
    done = frames[-1]
    assert "".join(deltas) == done["reply"]
    assert done["memory"]["status"] == "committed"
    expect(turn.locator(".reply")).to_have_text(done["reply"])

    # AND the reply grew in the page while the turn ran (a part of it shown, still busy)
    states = console.page.evaluate("window.replyStates")
    partial = [text for busy, text in states if busy == "true" and text and text != done["reply"]]
    assert partial, states
    assert all(done["reply"].startswith(text) for text in partial), partial


def test_cancel_mid_stream_saves_nothing(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a streamed turn that has started and would save a fact once its slow model ends
    traffic, token = streaming_console(console, issuer, user_name("alice"))
    turn = console.send(f"remember: a streamed fact I cancel\nsimulate: sleep {SLOW_SECONDS}")
    expect(console.badge(turn)).to_have_text("Running…")  # the server's started frame
    turn_id = turn.get_attribute("data-turn-id")
    assert turn_id
    assert [frame["type"] for frame in traffic.frames_of(turn_id)][:1] == ["started"]

    # WHEN the user presses Cancel while it runs
    turn.get_by_role("button", name="Cancel").click()

    # THEN the cancel went over the WebSocket and the server acknowledged it
    console.expect_outcome(turn, "cancelled")
    assert {"action": "cancel", "turn_id": turn_id} in traffic.sent
    frames = traffic.frames_of(turn_id)
    acks = [frame for frame in frames if frame["type"] == "cancelled"]
    assert [ack["status"] for ack in acks] == ["cancelled"], frames

    # AND the turn itself ended cancelled (stopped: turn_cancelled; or its commit refused)
    end = frames[-1]
    assert (end["type"], end.get("error", {}).get("code")) == ("error", "turn_cancelled") or (
        end["type"] == "done" and end["memory"]["status"] == "cancelled"
    ), frames

    # AND nothing was saved: the badge, the panel and the API agree
    expect(console.badge(turn)).to_contain_text("nothing saved")
    expect(turn.get_by_role("button", name="Cancel")).to_have_count(0)
    expect(turn.get_by_role("button", name="Undo")).to_have_count(0)
    expect(console.entries("memory")).to_have_count(0)
    assert stack.memory(token) == {"user": [], "memory": []}


def test_without_a_reachable_websocket_replies_arrive_whole(
    console_for: Callable[..., ConsolePage],
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a console configured with a WebSocket URL nothing answers (?ws=)
    page = console_for().page
    traffic = Traffic()
    traffic.watch(page)
    page.goto(f"{stack.url}/?ws=ws://127.0.0.1:9/ws")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    console = ConsolePage(page, stack.url)
    token = issuer.mint(user_name("alice"))

    # WHEN the user signs in and sends a turn that saves a fact
    console.sign_in_with_token(token)
    expect(page.locator("#transport")).to_have_text(
        "Replies arrive whole (this API has no WebSocket)."
    )
    turn = console.send("remember: saved without a stream")

    # THEN it went through POST /chat and saved
    console.expect_outcome(turn, "committed", "Saved: 1 change")
    assert f"POST {stack.url}/chat" in traffic.requests
    assert stack.memory(token)["memory"] == ["saved without a stream"]


def test_a_stream_closed_mid_turn_saves_nothing_and_the_next_turn_streams_again(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a page that keeps a handle on its WebSockets (the browser's own, only recorded),
    # and a streamed turn that has started and would save a fact once its slow model ends
    console.page.add_init_script(KEEP_SOCKETS)
    console.page.reload()
    expect(console.page.locator("body")).to_have_attribute("data-ready", "true")
    token = issuer.mint(user_name("alice"))
    console.sign_in_with_token(token)
    expect(console.page.locator("#transport")).to_have_text(STREAMING)
    turn = console.send(f"remember: a fact lost with its stream\nsimulate: sleep {SLOW_SECONDS}")
    expect(console.badge(turn)).to_have_text("Running…")

    # WHEN the connection closes while the turn runs (as when a network drops it)
    console.page.evaluate("window.sockets.at(-1).close(4000, 'dropped')")

    # THEN the turn says its connection closed and that it saved nothing
    expect(console.badge(turn)).to_contain_text("connection closed")
    expect(console.badge(turn)).to_contain_text("saved nothing")
    expect(console.page.locator("#transport")).to_have_text(
        "The WebSocket closed; the next turn connects again."
    )

    # WHEN the user sends the next turn
    again = console.send("remember: saved over a new stream")

    # THEN the console connects again, and the turn streams and saves
    console.expect_outcome(again, "committed")
    expect(console.page.locator("#transport")).to_have_text(STREAMING)
    assert console.page.evaluate("window.sockets.length") == 2
    expect(console.entries("memory")).to_have_text(["saved over a new stream"])

    # AND the closed turn never saved, not even once its slow model ended (the stack logs
    # $disconnect, and a line per chat invocation that returned: both have)
    assert wait_for(lambda: "WS $disconnect -> 200" in stack.log(), timeout=30), stack.log()
    assert wait_for(lambda: stack.log().count("WS chat -> ") >= 2, timeout=60), stack.log()
    assert stack.memory(token)["memory"] == ["saved over a new stream"]
