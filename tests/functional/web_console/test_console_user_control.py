"""User control from the console: Undo, history, provenance, write modes, proposals."""

from __future__ import annotations

from collections.abc import Callable

from console_page import ConsolePage
from playwright.sync_api import expect
from stack_support import RunningStack

from agent_memory_tools.dev_auth import DevIssuer


def signed_in(console: ConsolePage, issuer: DevIssuer, name: str) -> str:
    token = issuer.mint(name)
    console.sign_in_with_token(token)
    console.expect_signed_in_as(name)
    return token


def test_undo_on_a_saved_turn_takes_its_change_back(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a turn that saved a fact
    token = signed_in(console, issuer, user_name("alice"))
    turn = console.send("remember: a fact to take back")
    console.expect_outcome(turn, "committed")
    expect(console.entries("memory")).to_have_text(["a fact to take back"])

    # WHEN the user presses the turn's Undo
    turn.get_by_role("button", name="Undo").click()

    # THEN the turn says it was undone, and the fact is gone from the panel and the API
    console.expect_outcome(turn, "undone", "Undone")
    expect(console.entries("memory")).to_have_count(0)
    assert stack.memory(token)["memory"] == []
    # AND the history shows the undo as a commit of its own, newest first
    expect(console.page.locator("#history-list > li.commit").first).to_have_attribute(
        "data-source", "undo"
    )


def test_history_lists_commits_and_undoes_one(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a saved fact, then an edit of it by hand
    token = signed_in(console, issuer, user_name("alice"))
    console.expect_outcome(console.send("remember: we deploy with SAM"), "committed")
    console.entry("memory", "we deploy with SAM").get_by_role("button", name="Edit").click()
    console.page.get_by_label("New text for: we deploy with SAM").fill("we deploy with CDK")
    console.page.get_by_role("button", name="Save").click()
    expect(console.entries("memory")).to_have_text(["we deploy with CDK"])

    # THEN the history shows both commits, newest first, with what changed
    commits = console.page.locator("#history-list > li.commit")
    expect(commits).to_have_count(2)
    expect(commits.nth(0)).to_have_attribute("data-source", "edit")
    expect(commits.nth(0)).to_contain_text("we deploy with SAM")
    expect(commits.nth(0)).to_contain_text("we deploy with CDK")
    expect(commits.nth(1)).to_have_attribute("data-source", "chat")

    # WHEN the user undoes the edit from the history
    commits.nth(0).get_by_role("button", name="Undo").click()

    # THEN the entry is back as the chat turn wrote it
    expect(console.entries("memory")).to_have_text(["we deploy with SAM"])
    assert stack.memory(token)["memory"] == ["we deploy with SAM"]
    expect(commits).to_have_count(3)


def test_each_entry_shows_who_wrote_it(
    console: ConsolePage, issuer: DevIssuer, user_name: Callable[[str], str]
) -> None:
    # GIVEN one entry from a chat turn and one added by hand
    signed_in(console, issuer, user_name("alice"))
    console.expect_outcome(console.send("remember: from the model"), "committed")
    field = console.page.get_by_label("Add an entry to Project memory")
    field.fill("from my own hand")
    field.press("Enter")
    expect(console.entries("memory")).to_have_text(["from the model", "from my own hand"])

    # THEN each carries its provenance
    expect(console.entry("memory", "from the model").locator(".provenance")).to_contain_text(
        "From chat turn"
    )
    expect(console.entry("memory", "from my own hand").locator(".provenance")).to_contain_text(
        "From your edit"
    )


def test_approve_mode_end_to_end(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a user who switches the write mode to approve
    token = signed_in(console, issuer, user_name("alice"))
    console.page.get_by_label("Write mode").select_option("approve")

    # WHEN two turns would each save a fact, the first sent at once (the console saves the
    # mode before it sends)
    keep = console.send("remember: a fact I approve")
    console.expect_outcome(keep, "proposed", "Proposed: waiting for your approval")
    drop = console.send("remember: a fact I reject")
    console.expect_outcome(drop, "proposed")
    _wait_for_mode(stack, token, "approve")

    # THEN nothing is saved yet, and both wait as proposals
    expect(console.entries("memory")).to_have_count(0)
    assert stack.memory(token)["memory"] == []
    proposals = console.page.locator("#proposal-list > li.proposal")
    expect(proposals).to_have_count(2)

    # WHEN the user approves one and rejects the other
    proposals.filter(has_text="a fact I approve").get_by_role("button", name="Approve").click()
    expect(console.entries("memory")).to_have_text(["a fact I approve"])
    proposals.filter(has_text="a fact I reject").get_by_role("button", name="Reject").click()

    # THEN only the approved fact is memory, and no proposal is left
    expect(proposals).to_have_count(0)
    expect(console.page.locator("#proposals-empty")).to_be_visible()
    assert stack.memory(token)["memory"] == ["a fact I approve"]
    expect(console.entry("memory", "a fact I approve").locator(".provenance")).to_contain_text(
        "From approval"
    )


def test_read_only_mode_saves_nothing_and_says_why(
    console: ConsolePage,
    stack: RunningStack,
    issuer: DevIssuer,
    user_name: Callable[[str], str],
) -> None:
    # GIVEN a user in read-only mode
    token = signed_in(console, issuer, user_name("alice"))
    console.page.get_by_label("Write mode").select_option("read_only")
    _wait_for_mode(stack, token, "read_only")

    # WHEN a turn asks to remember something
    turn = console.send("remember: not while read only")

    # THEN the badge says it was not saved because of the mode, and nothing was saved
    console.expect_outcome(turn, "read_only", "Not saved: read-only mode")
    assert stack.memory(token)["memory"] == []

    # AND after a reload the console still shows the mode
    console.page.reload()
    expect(console.page.get_by_label("Write mode")).to_have_value("read_only")


def _wait_for_mode(stack: RunningStack, token: str, mode: str) -> None:
    from stack_support import wait_for

    assert wait_for(
        lambda: stack.request("GET", "/memory/settings", token=token).body == {"write_mode": mode},
        timeout=10,
    ), mode
