"""Streamed turns over the local stack's real WebSocket (``ws://HOST:PORT/ws``): the reply
arrives as deltas, a fact is saved only at the end, and Cancel mid-stream saves nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from console_page import ConsolePage
from playwright.sync_api import Page, Request, Response, Route, WebSocket, expect
from stack_support import RunningStack, wait_for

from agent_memory_tools.dev_auth import DevIssuer

STREAMING = "Replies stream in over the WebSocket."
# What chat.js shows for a turn lost with its connection that GET /turns/{id} says did not
# save (discarded): the stream's own words.
LOST_NOT_SAVED = "Not saved: The connection closed before the turn finished; it saved nothing."
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


@dataclass
class LedgerLookups:
    """The page's ``GET /turns/{turn_id}`` requests and what the API answered."""

    responses: list[Response] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        page.on("response", self._response)

    def _response(self, response: Response) -> None:
        if response.request.method == "GET" and "/turns/" in response.url:
            self.responses.append(response)

    def answers(self, turn_id: str) -> list[tuple[int, Any]]:
        return [
            (response.status, response.json())
            for response in self.responses
            if response.url.endswith(f"/turns/{turn_id}")
        ]


def _wait_in_page(page: Page, condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Wait for a condition on what Playwright's handlers record (they run only while the
    page is driven, so this waits through the page, not with a sleep)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)
    return True


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


def _streaming_page_with_sockets(
    console: ConsolePage, issuer: DevIssuer, name: str
) -> tuple[LedgerLookups, str]:
    """A page that keeps a handle on its WebSockets (the browser's own, only recorded) and
    records its GET /turns/{turn_id} answers, signed in and streaming."""
    console.page.add_init_script(KEEP_SOCKETS)
    console.page.reload()
    expect(console.page.locator("body")).to_have_attribute("data-ready", "true")
    lookups = LedgerLookups()
    lookups.watch(console.page)
    token = issuer.mint(name)
    console.sign_in_with_token(token)
    expect(console.page.locator("#transport")).to_have_text(STREAMING)
    return lookups, token


def _drop_the_stream(console: ConsolePage) -> None:
    """The connection closes while the turn runs (as when a network drops it)."""
    console.page.evaluate("window.sockets.at(-1).close(4000, 'dropped')")


def test_a_stream_closed_mid_turn_saves_nothing_and_the_next_turn_streams_again(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a streamed turn that has started and would save a fact once its slow model ends
    lookups, token = _streaming_page_with_sockets(console, issuer, user_name("alice"))
    turn = console.send(f"remember: a fact lost with its stream\nsimulate: sleep {SLOW_SECONDS}")
    expect(console.badge(turn)).to_have_text("Running…")
    turn_id = turn.get_attribute("data-turn-id")
    assert turn_id

    # WHEN the connection closes while the turn runs (as when a network drops it)
    _drop_the_stream(console)

    # THEN the console asked GET /turns/{turn_id} until the ledger settled: the stack's
    # $disconnect discarded the turn, and the badge says the turn was lost and saved nothing
    console.expect_outcome(turn, "lost", LOST_NOT_SAVED)
    answers = lookups.answers(turn_id)
    assert answers, "the console never asked GET /turns/{turn_id}"
    assert answers[-1] == (200, {"turn_id": turn_id, "status": "discarded"}), answers
    assert {body["status"] for _, body in answers} <= {"open", "discarded"}, answers
    expect(console.entries("memory")).to_have_count(0)
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

    # AND the closed turn never saved, not even once its slow model ended (the stack logs a
    # line per chat invocation that returned: both have): its ledger still says discarded
    assert wait_for(lambda: stack.log().count("WS chat -> ") >= 2, timeout=60), stack.log()
    still = stack.request("GET", f"/turns/{turn_id}", token=token)
    assert (still.status, still.body) == (200, {"turn_id": turn_id, "status": "discarded"})
    assert stack.memory(token)["memory"] == ["saved over a new stream"]
    expect(console.badge(turn)).to_have_text(LOST_NOT_SAVED)


def test_a_lost_turn_whose_ledger_is_still_open_is_asked_about_until_it_settles(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a page whose GET /turns/{turn_id} answers `open` while the test holds it (what
    # the API says while the server has not yet seen the close, or the turn still runs)
    lookups, token = _streaming_page_with_sockets(console, issuer, user_name("alice"))
    held = {"open": True, "answered_open": 0}

    def answer_open_while_held(route: Route) -> None:
        if route.request.method != "GET" or not held["open"]:
            route.continue_()
            return
        held["answered_open"] += 1
        turn_id = route.request.url.rsplit("/", 1)[-1]
        route.fulfill(status=200, json={"turn_id": turn_id, "status": "open"})

    console.page.route("**/turns/*", answer_open_while_held)
    turn = console.send(f"remember: a fact lost while unsettled\nsimulate: sleep {SLOW_SECONDS}")
    expect(console.badge(turn)).to_have_text("Running…")
    turn_id = turn.get_attribute("data-turn-id")
    assert turn_id

    # WHEN the connection closes while the turn runs
    _drop_the_stream(console)

    # THEN while the ledger says open, the console claims nothing: it says it is checking,
    # and asks again
    console.expect_outcome(turn, "checking", "Connection closed: checking whether it saved…")
    assert _wait_in_page(console.page, lambda: held["answered_open"] >= 2), held
    expect(console.badge(turn)).to_have_attribute("data-status", "checking")

    # WHEN the API's real answer comes through (the stack's $disconnect discarded the turn)
    held["open"] = False

    # THEN the badge shows what the ledger settled on, and nothing was saved
    console.expect_outcome(turn, "lost", LOST_NOT_SAVED)
    assert _wait_in_page(
        console.page,
        lambda: (200, {"turn_id": turn_id, "status": "discarded"}) in (lookups.answers(turn_id)),
    ), lookups.answers(turn_id)
    expect(console.entries("memory")).to_have_count(0)
    assert stack.memory(token)["memory"] == []
