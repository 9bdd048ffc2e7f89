"""Accessibility: every control has an accessible name, and the main flow works by keyboard."""

from __future__ import annotations

import re
from collections.abc import Callable

from console_page import ConsolePage
from playwright.sync_api import Locator, expect
from stack_support import RunningStack

from agent_memory_tools.dev_auth import DevIssuer

# The roles of everything a person operates in the console.
CONTROL_ROLES = ("button", "textbox", "combobox", "checkbox", "radio", "link")
HAS_A_NAME = re.compile(r"\S")


def unnamed_controls(scope: Locator | None, console: ConsolePage) -> dict[str, int]:
    """Per role, how many controls the accessibility tree shows without a name."""
    root = scope if scope is not None else console.page
    missing = {}
    for role in CONTROL_ROLES:
        every = root.get_by_role(role).count()  # type: ignore[arg-type]
        named = root.get_by_role(role, name=HAS_A_NAME).count()  # type: ignore[arg-type]
        if every != named:
            missing[role] = every - named
    return missing


def test_every_control_has_an_accessible_name(
    console: ConsolePage, issuer: DevIssuer, user_name: Callable[[str], str]
) -> None:
    # GIVEN the sign-in page: every control there is named
    assert unnamed_controls(None, console) == {}

    # AND a console showing every kind of control: a saved turn with Undo, entries with Edit
    # and Remove, history, a pending proposal, an open inline edit
    console.sign_in_as(user_name("alice"))
    console.expect_outcome(console.send("remember: a named fact"), "committed")
    console.page.get_by_label("Write mode").select_option("approve")
    expect(console.page.get_by_label("Write mode")).to_have_value("approve")
    console.expect_outcome(console.send("remember: a proposed fact"), "proposed")
    expect(console.page.locator("#proposal-list > li.proposal")).to_have_count(1)
    expect(console.page.locator("#history-list > li.commit")).to_have_count(1)
    expect(console.turns.first.get_by_role("button", name="Undo")).to_be_visible()
    console.page.get_by_role("button", name="Edit: a named fact").click()
    expect(console.page.get_by_label("New text for: a named fact")).to_be_focused()

    # THEN every control on the page has a name a screen reader can say
    assert unnamed_controls(None, console) == {}
    # AND the controls a person needs are found by their role and name
    for role, name in (
        ("button", "Send"),
        ("button", "Sign out"),
        ("button", "Approve"),
        ("button", "Reject"),
        ("button", "Save"),
        ("button", "Forget everything…"),
        ("combobox", "Write mode"),
        ("textbox", "Message"),
        ("textbox", "Add an entry to User profile"),
        ("textbox", "Add an entry to Project memory"),
        ("progressbar", "Project memory: characters used"),
    ):
        expect(console.page.get_by_role(role, name=name).first).to_be_visible()  # type: ignore[arg-type]

    # AND the confirmation dialog's controls are named too
    console.page.get_by_role("button", name="Forget everything…").click()
    dialog = console.page.get_by_role("dialog", name="Forget everything?")
    expect(dialog).to_be_visible()
    assert unnamed_controls(dialog, console) == {}
    dialog.get_by_role("button", name="Keep my memory").click()


def test_the_main_flow_works_by_keyboard_alone(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    keyboard = console.page.keyboard
    name = user_name("kim")

    # GIVEN the sign-in page, its name field focused: the user types a name and Enter
    expect(console.page.get_by_label("Name")).to_be_focused()
    keyboard.type(name)
    keyboard.press("Enter")
    console.expect_console_ready()
    console.expect_signed_in_as(name)

    # WHEN they send two facts with Ctrl+Enter from the focused message box
    message = console.page.get_by_label("Message")
    expect(message).to_be_focused()
    keyboard.type("remember: kept by keyboard")
    keyboard.press("Control+Enter")
    console.expect_outcome(console.turns.nth(0), "committed")
    expect(message).to_be_focused()
    keyboard.type("remember: undone by keyboard")
    keyboard.press("Control+Enter")
    second = console.turns.nth(1)
    console.expect_outcome(second, "committed")
    expect(console.entries("memory")).to_have_text(["kept by keyboard", "undone by keyboard"])

    # AND undo the second from its turn (Shift+Tab from the message box reaches its Undo)
    console.tab_to(second.get_by_role("button", name="Undo"), backwards=True)
    keyboard.press("Enter")

    # THEN it is undone
    console.expect_outcome(second, "undone", "Undone")
    expect(console.entries("memory")).to_have_text(["kept by keyboard"])

    # WHEN they edit the kept entry in place: Tab to its Edit, Enter, type, Enter
    console.tab_to(console.page.get_by_role("button", name="Edit: kept by keyboard"))
    keyboard.press("Enter")
    field = console.page.get_by_label("New text for: kept by keyboard")
    expect(field).to_be_focused()
    keyboard.type("kept and edited by keyboard")  # the text was selected: typing replaces it
    keyboard.press("Enter")

    # THEN the entry holds the new text
    expect(console.entries("memory")).to_have_text(["kept and edited by keyboard"])

    # WHEN they Forget everything: Tab to it, Enter, Tab to the confirmation, Enter
    console.tab_to(console.page.get_by_role("button", name="Forget everything…"))
    keyboard.press("Enter")
    dialog = console.page.get_by_role("dialog", name="Forget everything?")
    expect(dialog.get_by_role("button", name="Keep my memory")).to_be_focused()
    console.tab_to(dialog.get_by_role("button", name="Forget everything", exact=True))
    keyboard.press("Enter")

    # THEN memory is empty, in the panel and in the API
    expect(dialog).to_be_hidden()
    expect(console.entries("memory")).to_have_count(0)
    token = issuer.mint(name)
    assert stack.memory(token) == {"user": [], "memory": []}
