"""The console as a person uses it: labelled controls, visible text (a page object)."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import BrowserContext, Locator, Page, expect

TITLES = {"user": "User profile", "memory": "Project memory"}


@dataclass
class ConsolePage:
    page: Page
    url: str

    @classmethod
    def open(cls, context: BrowserContext, url: str) -> ConsolePage:
        page = context.new_page()
        page.goto(url + "/")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        return cls(page, url)

    # --- signing in -----------------------------------------------------------------------

    def sign_in_as(self, name: str) -> None:
        """Through the local stack's dev issuer, as a person would: type a name."""
        self.page.get_by_label("Name").fill(name)
        self.page.get_by_role("button", name="Sign in", exact=True).click()
        self.expect_console_ready()

    def sign_in_with_token(self, token: str) -> None:
        self.page.get_by_label("Token").fill(token)
        self.page.get_by_role("button", name="Use this token").click()
        self.expect_console_ready()

    def expect_console_ready(self) -> None:
        """The console has loaded the user's memory and wired the chat (Send is enabled)."""
        expect(self.page.locator("body")).to_have_attribute("data-console", "ready")

    def expect_signed_in_as(self, name: str) -> None:
        expect(self.page.locator("#who")).to_contain_text(f"Signed in as {name}")
        expect(self.page.get_by_role("heading", name="Chat")).to_be_visible()
        expect(self.page.locator("#documents .document")).to_have_count(2)

    # --- chat -----------------------------------------------------------------------------

    def send(self, message: str) -> Locator:
        """Types and sends a message; the new turn's list item."""
        count = self.turns.count()
        self.page.get_by_label("Message").fill(message)
        self.page.get_by_role("button", name="Send").click()
        expect(self.turns).to_have_count(count + 1)
        return self.turns.nth(count)

    @property
    def turns(self) -> Locator:
        return self.page.locator("#turns > li.turn")

    @staticmethod
    def badge(turn: Locator) -> Locator:
        return turn.locator(".badge")

    def expect_outcome(self, turn: Locator, status: str, text: str | None = None) -> None:
        expect(self.badge(turn)).to_have_attribute("data-status", status, timeout=20_000)
        if text is not None:
            expect(self.badge(turn)).to_have_text(text)

    # --- memory panel ---------------------------------------------------------------------

    def document(self, target: str) -> Locator:
        return self.page.get_by_role("region", name=TITLES[target])

    def entries(self, target: str) -> Locator:
        return self.document(target).locator(".entry-text")

    def entry(self, target: str, text: str) -> Locator:
        return (
            self.document(target)
            .locator("li.entry")
            .filter(has=self.page.locator(".entry-text", has_text=text))
        )

    def usage_bar(self, target: str) -> Locator:
        return self.document(target).get_by_label(f"{TITLES[target]}: characters used")

    # --- keyboard -------------------------------------------------------------------------

    def tab_to(self, target: Locator, *, backwards: bool = False, limit: int = 80) -> None:
        """Presses Tab (Shift+Tab) until ``target`` has the focus, as a keyboard user would."""
        key = "Shift+Tab" if backwards else "Tab"
        for _ in range(limit):
            if target.evaluate("node => node === document.activeElement"):
                return
            self.page.keyboard.press(key)
        raise AssertionError(f"{limit} presses of {key} never reached {target}")

    @property
    def error(self) -> Locator:
        return self.page.locator("#error")
