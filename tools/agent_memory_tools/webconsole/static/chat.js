// The conversation: one list item per turn, its reply (streamed in when the WebSocket is
// there) and a badge saying what became of memory, with Cancel while it runs and Undo once
// it saved.

import { byId, el, newUuid } from "./dom.js";

// A turn lost with its connection may still be `open` when the console first asks (the
// server has not seen the close yet, or the turn still runs): it can then still commit or be
// discarded, so the console asks again. It settles within the turn's deadline (25 s) plus a
// run of the cleanup that expires it (every minute); after that the console stops asking.
const LEDGER_SETTLES_WITHIN_MS = 90_000;
const ASK_AGAIN_AFTER_MS = [250, 500, 1000, 2000, 4000];

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeOutcome(memory) {
  const status = memory?.status ?? "error";
  const reason = memory?.reason ? ` (${memory.reason})` : "";
  const count = memory?.operations ?? 0;
  switch (status) {
    case "committed":
      return `Saved: ${count} change${count === 1 ? "" : "s"}`;
    case "proposed":
      return "Proposed: waiting for your approval";
    case "cancelled":
      return `Cancelled: nothing saved${reason}`;
    case "unchanged":
      return "No memory change";
    case "read_only":
      return "Not saved: read-only mode";
    default:
      return `Not saved: ${status}${reason}`;
  }
}

export class Chat {
  constructor({ api, stream, features, onSettled, onError, beforeSend, onTransport }) {
    this.api = api;
    this.beforeSend = beforeSend ?? (async () => {});
    this.onTransport = onTransport ?? (() => {});
    // A TurnStream that connected once (it connects again after a close), or null: POST /chat.
    this.stream = stream;
    this.features = features;
    this.onSettled = onSettled;
    this.onError = onError;
    this.list = byId("turns");
  }

  async send(message) {
    await this.beforeSend();
    if (this.stream && !this.stream.open) this.onTransport(await this.stream.connect());
    const turnId = newUuid();
    const view = new TurnView(this.list, message, turnId);
    view.onCancel = () => this.cancel(turnId, view);
    view.onUndo = (commitId) => this.undo(commitId, view);
    if (this.stream?.open) {
      await new Promise((resolve) => {
        this.stream.chat(turnId, message, {
          started: () => view.started(),
          delta: (text) => view.append(text),
          done: (frame) => {
            view.finish(frame.reply, frame.memory);
            resolve();
          },
          error: async (error) => {
            await this.ended(turnId, view, error);
            resolve();
          },
          cancelRefused: (error) => this.onError(error),
        });
      });
    } else {
      view.started();
      try {
        const response = await this.api.chat(message, turnId);
        view.finish(response.reply, response.memory);
      } catch (error) {
        await this.ended(turnId, view, error);
      }
    }
    this.onSettled();
  }

  // A turn that ended without its answer: cancelled (the API says `turn_cancelled`), or lost
  // with its connection, when GET /turns/{turn_id} tells what became of its memory.
  async ended(turnId, view, error) {
    if (error.code === "turn_cancelled") {
      view.cancelled();
      return;
    }
    if (error.code !== "connection_closed") {
      view.fail(error);
      return;
    }
    view.checking();
    try {
      view.lost(error, await this.settledStatus(turnId));
    } catch (lookup) {
      // The route's own 404: the turn staged nothing, so nothing was saved. A stack without
      // the route cannot tell: the connection's error is all there is to show.
      if (lookup.status === 404 && !lookup.missingRoute) view.lost(error, null);
      else view.fail(error);
    }
  }

  // GET /turns/{turn_id} until the ledger is no longer `open` (or the console gives up).
  async settledStatus(turnId) {
    const giveUpAt = Date.now() + LEDGER_SETTLES_WITHIN_MS;
    for (let asked = 0; ; asked += 1) {
      const { status } = await this.api.turn(turnId);
      if (status !== "open" || Date.now() >= giveUpAt) return status;
      await pause(ASK_AGAIN_AFTER_MS[Math.min(asked, ASK_AGAIN_AFTER_MS.length - 1)]);
    }
  }

  async cancel(turnId, view) {
    view.cancelling();
    if (this.stream?.open) {
      this.stream.cancel(turnId);
      return;
    }
    try {
      await this.api.cancel(turnId);
    } catch (error) {
      this.onError(error);
    }
  }

  async undo(commitId, view) {
    try {
      await this.api.undo(commitId);
      view.undone();
      this.onSettled();
    } catch (error) {
      this.onError(error);
    }
  }
}

class TurnView {
  constructor(list, message, turnId) {
    this.onCancel = null;
    this.onUndo = null;
    this.reply = el("p", { className: "reply", "aria-busy": "true" });
    this.badge = el("span", { className: "badge", dataset: { status: "running" } }, "Waiting…");
    this.cancelButton = el("button", { type: "button", onclick: () => this.onCancel() }, "Cancel");
    this.actions = el("div", { className: "turn-actions" }, this.badge, this.cancelButton);
    this.item = el(
      "li",
      { className: "turn", dataset: { turnId } },
      el("p", { className: "said" }, el("span", { className: "visually-hidden" }, "You: "), message),
      this.reply,
      this.actions,
    );
    list.append(this.item);
    this.item.scrollIntoView({ block: "nearest" });
  }

  started() {
    this.badge.textContent = "Running…";
  }

  append(text) {
    this.reply.textContent += text;
  }

  cancelling() {
    this.cancelButton.disabled = true;
    this.badge.textContent = "Cancelling…";
  }

  finish(reply, memory) {
    this.reply.textContent = reply ?? "";
    this.reply.removeAttribute("aria-busy");
    this.cancelButton.remove();
    const status = memory?.status ?? "error";
    this.badge.dataset.status = status;
    this.badge.textContent = describeOutcome(memory);
    // A commit id is the API's promise that undo exists: no need to wait for detection.
    if (status === "committed" && memory.commit_id) {
      this.undoButton = el(
        "button",
        { type: "button", onclick: () => this.onUndo(memory.commit_id) },
        "Undo",
      );
      this.actions.append(this.undoButton);
    }
  }

  cancelled() {
    this.reply.removeAttribute("aria-busy");
    this.cancelButton.remove();
    this.badge.dataset.status = "cancelled";
    this.badge.textContent = "Cancelled: nothing saved";
  }

  // The connection closed before the answer; GET /turns/{id} is asked next.
  checking() {
    this.reply.removeAttribute("aria-busy");
    this.cancelButton.remove();
    this.badge.dataset.status = "checking";
    this.badge.textContent = "Connection closed: checking whether it saved…";
  }

  // The connection closed before the answer; `ledgerStatus` is GET /turns/{id}'s word (null
  // when the turn staged nothing; `open` when it had still not settled when the console
  // stopped asking).
  lost(error, ledgerStatus) {
    this.reply.removeAttribute("aria-busy");
    this.cancelButton.remove();
    if (ledgerStatus === "open") {
      this.badge.dataset.status = "unknown";
      this.badge.textContent =
        "Not known yet: the connection closed while the turn ran; check the memory panel later";
      return;
    }
    if (ledgerStatus === "committed" || ledgerStatus === "proposed") {
      this.badge.dataset.status = ledgerStatus;
      this.badge.textContent = ledgerStatus === "committed"
        ? "Saved (the connection closed before the answer)"
        : "Proposed (the connection closed before the answer)";
      return;
    }
    this.badge.dataset.status = "lost";
    this.badge.textContent = `Not saved: ${error.message}`;
  }

  fail(error) {
    this.reply.removeAttribute("aria-busy");
    this.cancelButton.remove();
    this.badge.dataset.status = "failed";
    this.badge.textContent = `Failed: ${error.message}`;
  }

  undone() {
    this.badge.dataset.status = "undone";
    this.badge.textContent = "Undone";
    this.undoButton?.remove();
  }
}
