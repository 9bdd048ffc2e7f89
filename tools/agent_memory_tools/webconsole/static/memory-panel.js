// The memory panel: both documents with usage bars and provenance, inline edit and remove,
// the write mode, proposals and history. Sections whose route this API lacks stay hidden.

import { byId, el, formatTime } from "./dom.js";

const TITLES = { user: "User profile", memory: "Project memory" };

export class MemoryPanel {
  constructor({ api, features, onError }) {
    this.api = api;
    this.features = features;
    this.onError = onError;
    this.historyCursor = null;
    this.documents = {};
    for (const target of ["user", "memory"]) {
      this.documents[target] = new DocumentView(target, this);
      byId("documents").append(this.documents[target].root);
    }
    // Properties, not listeners: the panel of a later sign-in replaces this one's handlers.
    byId("write-mode").onchange = (event) => this.setWriteMode(event.target);
    byId("history-more").onclick = () => this.loadHistory(true);
  }

  async refresh() {
    await Promise.all([this.loadDocuments(), this.loadSettings(), this.loadProposals(), this.loadHistory()]);
  }

  async loadDocuments() {
    try {
      this.showDocuments(await this.api.memory());
    } catch (error) {
      this.onError(error);
    }
  }

  showDocuments(body) {
    for (const target of ["user", "memory"]) {
      if (body?.[target]) this.documents[target].render(body[target]);
    }
  }

  // Runs a PATCH; returns the API's error (for the caller to show where it belongs) or null.
  async patch(operations) {
    try {
      this.showDocuments(await this.api.patch(operations));
      this.loadHistory();
      return null;
    } catch (error) {
      return error;
    }
  }

  // Each optional section: hidden when the API has no such route, an error shown otherwise.
  async optional(section, feature, load) {
    try {
      await load();
      this.features[feature] = true;
      byId(section).hidden = false;
    } catch (error) {
      if (error.missingRoute) {
        this.features[feature] = false;
        byId(section).hidden = true;
      } else {
        this.onError(error);
      }
    }
  }

  loadSettings() {
    return this.optional("settings", "settings", async () => {
      const settings = await this.api.settings();
      byId("write-mode").value = settings.write_mode;
    });
  }

  setWriteMode(select) {
    const saving = (async () => {
      try {
        const settings = await this.api.putSettings(select.value);
        select.value = settings?.write_mode ?? select.value;
      } catch (error) {
        this.onError(error);
        await this.loadSettings();
      }
    })();
    this.savingSettings = saving;
    return saving;
  }

  // Resolves once a write-mode change is saved: a turn sent right after switching to
  // approve must run in approve mode.
  async settled() {
    await this.savingSettings;
  }

  loadProposals() {
    return this.optional("proposals", "proposals", async () => {
      const body = await this.api.proposals();
      const items = body.items ?? [];
      byId("proposals-empty").hidden = items.length > 0;
      byId("proposal-list").replaceChildren(...items.map((item) => this.proposalItem(item)));
    });
  }

  proposalItem(proposal) {
    const decide = async (approve) => {
      try {
        if (approve) this.showDocuments(await this.api.approve(proposal.proposal_id));
        else await this.api.reject(proposal.proposal_id);
      } catch (error) {
        this.onError(error);
      }
      this.refresh();
    };
    return el(
      "li",
      { className: "proposal", dataset: { proposalId: proposal.proposal_id } },
      el("ul", { className: "changes" }, (proposal.operations ?? []).map(describeOperation)),
      el("p", { className: "hint" }, `Proposed ${formatTime(proposal.created_at)}`),
      el("div", { className: "row" },
        el("button", { type: "button", onclick: () => decide(true) }, "Approve"),
        el("button", { type: "button", onclick: () => decide(false) }, "Reject")),
    );
  }

  loadHistory(more = false) {
    return this.optional("history", "undo", async () => {
      const body = await this.api.history(more ? this.historyCursor : null);
      const items = (body.items ?? []).map((item) => this.historyItem(item));
      const list = byId("history-list");
      if (more) list.append(...items);
      else list.replaceChildren(...items);
      this.historyCursor = body.next_cursor ?? null;
      byId("history-more").hidden = !this.historyCursor;
      byId("history-empty").hidden = list.children.length > 0;
    });
  }

  historyItem(commit) {
    const undo = async () => {
      try {
        this.showDocuments(await this.api.undo(commit.commit_id));
      } catch (error) {
        this.onError(error);
      }
      this.loadHistory();
    };
    return el(
      "li",
      { className: "commit", dataset: { commitId: commit.commit_id, source: commit.source } },
      el("p", {}, el("strong", {}, sourceName(commit.source)), " · ", formatTime(commit.committed_at)),
      el("ul", { className: "changes" }, (commit.changes ?? []).map(describeChange)),
      el("button", { type: "button", onclick: undo, "aria-label": `Undo: ${sourceName(commit.source)}, ${formatTime(commit.committed_at)}` }, "Undo"),
    );
  }
}

class DocumentView {
  constructor(target, panel) {
    this.target = target;
    this.panel = panel;
    this.root = byId("document-template").content.firstElementChild.cloneNode(true);
    this.root.dataset.target = target;
    this.root.setAttribute("aria-label", TITLES[target]);
    this.root.querySelector(".document-title").textContent = TITLES[target];
    this.root.querySelector(".usage-bar").setAttribute("aria-label", `${TITLES[target]}: characters used`);
    this.list = this.root.querySelector(".entries");
    const add = this.root.querySelector(".add-entry");
    add.querySelector("input").setAttribute("aria-label", `Add an entry to ${TITLES[target]}`);
    add.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = add.elements.content;
      const error = await panel.patch([{ target, action: "add", content: input.value }]);
      if (error) panel.onError(error);
      else input.value = "";
    });
  }

  render(document) {
    const { entries = [], chars = 0, limit = 1, provenance = [] } = document;
    const bar = this.root.querySelector(".usage-bar");
    bar.max = limit;
    bar.value = chars;
    const percent = Math.round((100 * chars) / limit);
    this.root.querySelector(".usage-text").textContent = `${chars} / ${limit} characters (${percent}%)`;
    this.root.querySelector(".empty").hidden = entries.length > 0;
    this.list.replaceChildren(...entries.map((entry, index) => this.entryItem(entry, provenance[index])));
  }

  entryItem(entry, origin) {
    const item = el("li", { className: "entry", dataset: { withheld: origin?.withheld ? "true" : undefined } });
    const show = () => {
      item.replaceChildren(
        el("p", { className: "entry-text" }, entry),
        el("p", { className: "provenance", hidden: !origin }, origin ? describeProvenance(origin) : ""),
        el("div", { className: "row" },
          el("button", { type: "button", onclick: edit, "aria-label": `Edit: ${entry}` }, "Edit"),
          el("button", { type: "button", onclick: remove, "aria-label": `Remove: ${entry}` }, "Remove")),
      );
    };
    const remove = async () => {
      const error = await this.panel.patch([{ target: this.target, action: "remove", match: entry }]);
      if (error) this.panel.onError(error);
    };
    const edit = () => {
      const input = el("input", { name: "content", value: entry, required: true, "aria-label": `New text for: ${entry}` });
      const message = el("p", { className: "field-error", role: "alert", hidden: true });
      const form = el("form", { className: "edit-entry" }, input, message,
        el("div", { className: "row" },
          el("button", { type: "submit" }, "Save"),
          el("button", { type: "button", onclick: show }, "Cancel")));
      form.addEventListener("keydown", (event) => {
        if (event.key === "Escape") show();
      });
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const error = await this.panel.patch([
          { target: this.target, action: "replace", match: entry, content: input.value },
        ]);
        if (error) {
          message.textContent = error.message;
          message.dataset.code = error.code;
          message.hidden = false;
          input.focus();
        }
      });
      item.replaceChildren(form);
      input.focus();
      input.select();
    };
    show();
    return item;
  }
}

function sourceName(source) {
  const names = { chat: "chat turn", edit: "your edit", undo: "undo", approval: "approval", unknown: "an earlier version" };
  return names[source] ?? source;
}

function describeProvenance(origin) {
  const parts = [`From ${sourceName(origin.source)}`];
  if (origin.updated_at) parts.push(formatTime(origin.updated_at));
  if (origin.withheld) parts.push("withheld: today's rules refuse it, so the model does not see it");
  return parts.join(" · ");
}

function describeOperation(operation) {
  const where = TITLES[operation.target] ?? operation.target;
  if (operation.action === "add") return el("li", {}, `Add to ${where}: `, el("q", {}, operation.content));
  if (operation.action === "remove") return el("li", {}, `Remove from ${where}: `, el("q", {}, operation.match));
  return el("li", {}, `Replace in ${where}: `, el("q", {}, operation.match), " with ", el("q", {}, operation.content));
}

function describeChange(change) {
  const where = TITLES[change.target] ?? change.target;
  if (change.action === "add") return el("li", {}, `Added to ${where}: `, el("q", {}, change.after));
  if (change.action === "remove") return el("li", {}, `Removed from ${where}: `, el("q", {}, change.before));
  return el("li", {}, `Replaced in ${where}: `, el("q", {}, change.before), " with ", el("q", {}, change.after));
}
