// The console's wiring: configuration, sign-in, the chat and the memory panel.

import { Api } from "./api.js";
import { Chat } from "./chat.js";
import { loadConfig } from "./config.js";
import { byId } from "./dom.js";
import { MemoryPanel } from "./memory-panel.js";
import { clearSession, loadSession, saveSession } from "./session.js";
import { TurnStream } from "./stream.js";

const state = { config: null, session: null, stream: null };

function showError(error) {
  byId("error-text").textContent = error.message;
  byId("error").dataset.code = error.code ?? "";
  byId("error").hidden = false;
}

function clearError() {
  byId("error").hidden = true;
  byId("error-text").textContent = "";
}

function showSignIn() {
  byId("console").hidden = true;
  byId("who").hidden = true;
  byId("sign-in").hidden = false;
  byId("dev-sign-in").hidden = !state.config.devIssuer;
  (state.config.devIssuer ? byId("dev-name") : byId("token-input")).focus();
}

async function signIn(token) {
  clearError();
  state.session = saveSession(token);
  await openConsole();
}

async function openConsole() {
  const { config, session } = state;
  const api = new Api(config.apiBase, session.token);
  const features = { undo: false, settings: false, proposals: false };
  byId("sign-in").hidden = true;
  byId("who-name").textContent = session.name;
  byId("who").hidden = false;
  byId("console").hidden = false;
  byId("turns").replaceChildren();
  setConsoleReady(false);

  const stream = new TurnStream(config.wsUrl, session.token);
  state.stream = (await stream.connect()) ? stream : null;
  showTransport(state.stream ? "streaming" : "none");

  const panel = new MemoryPanel({ api, features, onError: showError });
  const chat = new Chat({
    api,
    stream: state.stream,
    features,
    onError: showError,
    onSettled: () => panel.refresh(),
    beforeSend: () => panel.settled(),
    onTransport: (connected) => showTransport(connected ? "streaming" : "lost"),
  });
  if (state.stream) state.stream.onclose = () => showTransport("closed");
  state.handlers = { chat, panel, api };
  await panel.refresh();
  setConsoleReady(true);
  byId("message").focus();
}

const TRANSPORTS = {
  streaming: "Replies stream in over the WebSocket.",
  none: "Replies arrive whole (this API has no WebSocket).",
  closed: "The WebSocket closed; the next turn connects again.",
  lost: "The WebSocket could not be reached again; replies arrive whole.",
};

function showTransport(name) {
  byId("transport").textContent = TRANSPORTS[name];
  byId("transport").dataset.transport = name;
}

// Until the chat and the panel are wired, Send is disabled (a message typed meanwhile is
// kept, never dropped); `data-console="ready"` tells a test the same.
function setConsoleReady(ready) {
  byId("send").disabled = !ready;
  if (ready) document.body.dataset.console = "ready";
  else delete document.body.dataset.console;
}

function signOut() {
  setConsoleReady(false);
  state.stream?.close();
  state.stream = null;
  state.handlers = null;
  clearSession();
  byId("documents").replaceChildren();
  showSignIn();
}

function wire() {
  byId("error-close").addEventListener("click", clearError);
  byId("sign-out").addEventListener("click", signOut);

  byId("dev-sign-in").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const api = new Api(state.config.apiBase);
      const body = await api.devToken(byId("dev-name").value.trim());
      await signIn(body.token);
    } catch (error) {
      showError(error);
    }
  });

  byId("token-sign-in").addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = byId("token-input").value.trim().replace(/^Bearer\s+/i, "");
    byId("token-input").value = "";
    await signIn(token);
  });

  const form = byId("chat-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const message = byId("message").value;
    if (!message.trim() || !state.handlers) return;
    byId("message").value = "";
    clearError();
    await state.handlers.chat.send(message);
  });
  byId("message").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && !byId("send").disabled) {
      form.requestSubmit();
    }
  });

  const dialog = byId("forget-dialog");
  byId("forget").addEventListener("click", () => dialog.showModal());
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "confirm" || !state.handlers) return;
    dialog.returnValue = "";
    try {
      await state.handlers.api.forget();
    } catch (error) {
      showError(error);
    }
    await state.handlers.panel.refresh();
  });
}

async function main() {
  state.config = await loadConfig();
  wire();
  const session = loadSession();
  if (session) {
    state.session = session;
    await openConsole();
  } else {
    showSignIn();
  }
  document.body.dataset.ready = "true";
}

main().catch(showError);
