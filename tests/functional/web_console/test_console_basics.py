"""Signing in, a turn that saves a fact, errors as the API words them, feature detection."""

from __future__ import annotations

from collections.abc import Callable

from console_page import ConsolePage
from playwright.sync_api import expect
from stack_support import RunningStack, wait_for

from agent_memory_tools.dev_auth import DevIssuer

OPTIONAL_SECTIONS = {
    "/memory/history": "#history",
    "/memory/settings": "#settings",
    "/memory/proposals": "#proposals",
}


def test_signing_in_by_name_through_the_dev_issuer(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN the console of a local stack, which offers signing in by name
    name = user_name("carol")
    expect(console.page.get_by_label("Name")).to_be_focused()

    # WHEN a person types a name and signs in, then saves a fact
    console.sign_in_as(name)
    console.expect_signed_in_as(name)
    console.expect_outcome(console.send("remember: carol signed in by name"), "committed")

    # THEN the fact belongs to that name: another token for the same name reads it back
    assert stack.memory(issuer.mint(name))["memory"] == ["carol signed in by name"]


def test_signing_in_with_a_token_shows_the_users_empty_memory(
    console: ConsolePage, issuer: DevIssuer, user_name: Callable[[str], str]
) -> None:
    # GIVEN a new user's token
    name = user_name("alice")

    # WHEN it is pasted into the sign-in form
    console.sign_in_with_token(issuer.mint(name))

    # THEN the console shows who is signed in and two empty documents with their limits
    console.expect_signed_in_as(name)
    expect(console.document("user")).to_contain_text("0 / 1375 characters (0%)")
    expect(console.document("memory")).to_contain_text("0 / 2200 characters (0%)")
    expect(console.error).to_be_hidden()


def test_a_turn_that_saves_a_fact_shows_it_in_the_panel(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a signed-in user
    token = issuer.mint(user_name("alice"))
    console.sign_in_with_token(token)

    # WHEN they send a message the model turns into a memory write
    turn = console.send("remember: we deploy with SAM")

    # THEN the turn says it saved, the reply is shown, and the panel lists the entry with its
    # usage, exactly what the API holds
    console.expect_outcome(turn, "committed", "Saved: 1 change")
    expect(turn.locator(".reply")).not_to_be_empty()
    expect(console.entries("memory")).to_have_text(["we deploy with SAM"])
    assert stack.memory(token)["memory"] == ["we deploy with SAM"]
    chars = len("we deploy with SAM")
    expect(console.document("memory")).to_contain_text(f"{chars} / 2200 characters")
    expect(console.usage_bar("memory")).to_have_js_property("value", chars)

    # AND the entry's provenance is shown when the API gives one, and nothing in its place
    # when it does not
    document = stack.request("GET", "/memory", token=token).body["memory"]
    provenance = console.entry("memory", "we deploy with SAM").locator(".provenance")
    if document.get("provenance"):
        expect(provenance).to_contain_text("From chat turn")
    else:
        expect(provenance).to_be_hidden()
        expect(console.entry("memory", "we deploy with SAM")).not_to_contain_text("null")


def test_a_turn_without_memory_directives_says_nothing_changed(
    console: ConsolePage, issuer: DevIssuer, user_name: Callable[[str], str]
) -> None:
    # GIVEN a signed-in user
    console.sign_in_with_token(issuer.mint(user_name("alice")))

    # WHEN they chat without asking to remember anything
    turn = console.send("hello there")

    # THEN the badge says memory did not change and the documents stay empty
    console.expect_outcome(turn, "unchanged", "No memory change")
    expect(console.entries("memory")).to_have_count(0)


def test_a_refused_token_shows_the_apis_own_words(
    console: ConsolePage, stack: RunningStack, issuer: DevIssuer
) -> None:
    # GIVEN a token the API refuses (its signature broken)
    token = issuer.mint("mallory")
    broken = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    answer = stack.request("GET", "/memory", token=broken)
    assert answer.status == 403

    # WHEN it is used to sign in
    console.sign_in_with_token(broken)

    # THEN the console shows the API's message as the API words it (API Gateway's own
    # {"message": "Forbidden"} for an authorizer's denial; {"error": {...}} for the API's)
    words = answer.body.get("error", answer.body)["message"]
    expect(console.error).to_be_visible()
    expect(console.error).to_contain_text(words)


def test_sections_for_routes_the_api_lacks_are_hidden_not_errors(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN which optional routes this stack has
    name = user_name("alice")
    token = issuer.mint(name)
    present = {
        path: stack.request("GET", path, token=token).status not in (404, 405)
        for path in OPTIONAL_SECTIONS
    }

    # WHEN the user signs in
    console.sign_in_with_token(token)
    console.expect_signed_in_as(name)

    # THEN each section shows exactly when its route exists, and no error is shown
    for path, selector in OPTIONAL_SECTIONS.items():
        section = console.page.locator(selector)
        if present[path]:
            expect(section).to_be_visible()
        else:
            expect(section).to_be_hidden()
    expect(console.error).to_be_hidden()


def test_a_turn_can_be_sent_with_the_keyboard_alone(
    console: ConsolePage, issuer: DevIssuer, user_name: Callable[[str], str]
) -> None:
    # GIVEN a signed-in user whose focus is in the message box
    console.sign_in_with_token(issuer.mint(user_name("alice")))
    expect(console.page.get_by_label("Message")).to_be_focused()

    # WHEN they type and press Ctrl+Enter
    console.page.keyboard.type("about me: I use the keyboard")
    console.page.keyboard.press("Control+Enter")

    # THEN the turn runs and its fact lands in the user profile
    expect(console.turns).to_have_count(1)
    console.expect_outcome(console.turns.first, "committed")
    expect(console.entries("user")).to_have_text(["I use the keyboard"])


def test_signing_out_then_in_as_someone_else_shows_only_their_memory(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN alice signed in, with a saved fact and a turn on screen
    alice, bob = user_name("alice"), user_name("bob")
    console.sign_in_as(alice)
    console.expect_outcome(console.send("remember: alice's fact"), "committed")
    expect(console.entries("memory")).to_have_text(["alice's fact"])

    # WHEN she signs out and bob signs in on the same page
    console.page.get_by_role("button", name="Sign out").click()
    expect(console.page.get_by_label("Name")).to_be_focused()
    console.sign_in_as(bob)
    console.expect_signed_in_as(bob)

    # THEN bob sees his own empty memory and none of alice's turns
    expect(console.turns).to_have_count(0)
    expect(console.entries("memory")).to_have_count(0)
    expect(console.page.locator("#documents .document")).to_have_count(2)

    # AND a write-mode change is sent once, for bob only (the first panel's handler is gone)
    puts: list[str] = []
    console.page.on(
        "request",
        lambda request: puts.append(request.url) if request.method == "PUT" else None,
    )
    console.page.get_by_label("Write mode").select_option("approve")
    assert wait_for(
        lambda: (
            stack.request("GET", "/memory/settings", token=issuer.mint(bob)).body
            == {"write_mode": "approve"}
        ),
        timeout=20,
    )
    console.expect_outcome(console.send("remember: bob's proposal"), "proposed")
    assert puts == [f"{stack.url}/memory/settings"]
    assert stack.request("GET", "/memory/settings", token=issuer.mint(alice)).body == {
        "write_mode": "auto"
    }
