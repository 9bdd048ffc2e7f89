"""Turns that do not save: cancelled mid-turn; and two people side by side."""

from __future__ import annotations

from collections.abc import Callable

from console_page import ConsolePage
from playwright.sync_api import expect
from stack_support import RunningStack

from agent_memory_tools.dev_auth import DevIssuer

# Long enough that Cancel lands before the turn would commit, even on a loaded machine.
SLOW_SECONDS = 10


def test_cancel_while_a_turn_runs_saves_nothing(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a signed-in user and a slow turn that would save a fact
    token = issuer.mint(user_name("alice"))
    console.sign_in_with_token(token)
    turn = console.send(f"remember: cancelled fact\nsimulate: sleep {SLOW_SECONDS}")
    expect(console.badge(turn)).to_have_text("Running…")

    # WHEN the user presses Cancel while it runs
    turn.get_by_role("button", name="Cancel").click()

    # THEN the turn ends cancelled and nothing was saved
    console.expect_outcome(turn, "cancelled")
    expect(console.badge(turn)).to_contain_text("nothing saved")
    expect(turn.get_by_role("button", name="Cancel")).to_have_count(0)
    expect(console.entries("memory")).to_have_count(0)
    assert stack.memory(token) == {"user": [], "memory": []}


def test_two_people_in_two_browsers_see_only_their_own_memory(
    console_for: Callable[..., ConsolePage],
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN two people, each in their own browser context, each saving a fact
    alice, bob = console_for(), console_for()
    alice.sign_in_with_token(issuer.mint(user_name("alice")))
    bob.sign_in_with_token(issuer.mint(user_name("bob")))
    alice.expect_outcome(alice.send("remember: alice's secret plan"), "committed")
    bob.expect_outcome(bob.send("remember: bob's own note"), "committed")

    # WHEN each reloads the console
    for person in (alice, bob):
        person.page.reload()
        expect(person.page.locator("body")).to_have_attribute("data-ready", "true")

    # THEN each sees their own fact and never the other's
    expect(alice.entries("memory")).to_have_text(["alice's secret plan"])
    expect(bob.entries("memory")).to_have_text(["bob's own note"])


def test_at_phone_width_the_console_fits_and_works(
    console_for: Callable[..., ConsolePage],
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN the console on a 390 px wide phone screen
    phone = console_for({"width": 390, "height": 844})
    phone.sign_in_with_token(issuer.mint(user_name("alice")))

    # WHEN a turn saves a long fact
    fact = "a long fact " + "without-any-break-" * 8
    phone.expect_outcome(phone.send(f"remember: {fact}"), "committed")
    expect(phone.entries("memory")).to_have_text([fact])

    # THEN nothing is wider than the screen, and the panels stack in one column
    width = phone.page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width} px"
    chat = phone.page.locator("section.chat").bounding_box()
    memory = phone.page.locator("section.memory").bounding_box()
    assert chat is not None
    assert memory is not None
    assert memory["y"] >= chat["y"] + chat["height"], "the memory panel should be below the chat"
    send = phone.page.get_by_role("button", name="Send").bounding_box()
    assert send is not None
    assert send["x"] + send["width"] <= 390


def test_forget_everything_while_a_turn_runs_fences_it(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a saved fact and a slow turn that has staged another one and still runs
    token = issuer.mint(user_name("alice"))
    console.sign_in_with_token(token)
    console.expect_outcome(console.send("remember: an older fact"), "committed")
    turn = console.send(f"remember: a fact from a fenced turn\nsimulate: sleep {SLOW_SECONDS}")
    expect(console.badge(turn)).to_have_text("Running…")

    # WHEN the user forgets everything while it runs
    console.page.get_by_role("button", name="Forget everything…").click()
    console.page.get_by_role("dialog", name="Forget everything?").get_by_role(
        "button", name="Forget everything", exact=True
    ).click()
    expect(console.entries("memory")).to_have_count(0)

    # THEN the running turn saves nothing, and its badge says why
    console.expect_outcome(turn, "cancelled", "Cancelled: nothing saved (memory_forgotten)")
    expect(console.entries("memory")).to_have_count(0)
    assert stack.memory(token) == {"user": [], "memory": []}
