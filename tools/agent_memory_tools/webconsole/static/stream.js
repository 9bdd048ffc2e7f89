// Streamed turns over the WebSocket (DESIGN.md "Streaming turns"): the token rides in the
// `bearer.<JWT>` subprotocol, because a browser cannot set headers on a WebSocket.

const PROTOCOL = "agent-memory.v1";
const CONNECT_TIMEOUT_MS = 5000;
// What the cancel route answers when it refuses (the turn had already committed, or the
// ledger could not be reached): the turn itself goes on. Any other error frame ends the turn.
const CANCEL_REFUSALS = new Set(["already_committed", "ledger_unavailable"]);

export class TurnStream {
  constructor(url, token) {
    this.url = url;
    this.token = token;
    this.socket = null;
    this.turns = new Map(); // turn_id -> handlers
    this.onclose = null;
  }

  // Resolves true when connected, false when the server has no WebSocket (or refused it).
  connect() {
    return new Promise((resolve) => {
      let socket;
      try {
        socket = new WebSocket(this.url, [PROTOCOL, `bearer.${this.token}`]);
      } catch {
        resolve(false);
        return;
      }
      const timer = setTimeout(() => {
        socket.close();
        resolve(false);
      }, CONNECT_TIMEOUT_MS);
      socket.onopen = () => {
        clearTimeout(timer);
        if (socket.protocol !== PROTOCOL) {
          socket.close();
          resolve(false);
          return;
        }
        this.socket = socket;
        resolve(true);
      };
      socket.onerror = () => {
        clearTimeout(timer);
        resolve(false);
      };
      socket.onmessage = (event) => this.dispatch(event.data);
      socket.onclose = () => {
        clearTimeout(timer);
        if (this.socket !== socket) return;
        this.socket = null;
        for (const [turnId, handlers] of this.turns) {
          handlers.error({
            code: "connection_closed",
            message: "The connection closed before the turn finished; it saved nothing.",
          }, turnId);
        }
        this.turns.clear();
        if (this.onclose) this.onclose();
      };
    });
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  // handlers: {started(turnId), delta(text), done(frame), error(error, turnId),
  // cancelRefused(error)}. The server answers a cancel frame with `cancelled` (or an error
  // frame when it refuses); the turn itself then ends with `done` or an error frame
  // (`turn_cancelled` when the cancel stopped it).
  chat(turnId, message, handlers) {
    this.turns.set(turnId, handlers);
    this.socket.send(JSON.stringify({ action: "chat", turn_id: turnId, message }));
  }

  cancel(turnId) {
    const handlers = this.turns.get(turnId);
    if (handlers) handlers.cancelSent = true;
    if (this.open) this.socket.send(JSON.stringify({ action: "cancel", turn_id: turnId }));
  }

  close() {
    const socket = this.socket;
    this.socket = null;
    this.turns.clear();
    if (socket) socket.close(1000);
  }

  dispatch(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object") return;
    if (frame.type === undefined && typeof frame.message === "string") {
      // API Gateway's own words when an invocation failed: {"message": "Internal server error"}.
      frame = { type: "error", error: { code: "gateway", message: frame.message } };
    }
    if (frame.type === "error" && !frame.turn_id) {
      // An error that names no turn (a chat frame refused before it had a turn id, a failed
      // invocation): the oldest turn not yet started, else the oldest one running.
      const pending = [...this.turns];
      frame.turn_id = (pending.find(([, handlers]) => !handlers.running) ?? pending[0])?.[0];
    }
    const handlers = this.turns.get(frame.turn_id);
    if (!handlers) return;
    if (frame.type === "started") {
      handlers.running = true;
      handlers.started(frame.turn_id);
    }
    else if (frame.type === "delta") handlers.delta(String(frame.text ?? ""));
    else if (frame.type === "cancelled") handlers.cancelSent = false;
    else if (frame.type === "done") {
      this.turns.delete(frame.turn_id);
      handlers.done(frame);
    } else if (frame.type === "error") {
      const error = frame.error || { code: "error", message: "The turn failed." };
      if (handlers.cancelSent && CANCEL_REFUSALS.has(error.code)) {
        handlers.cancelSent = false;
        if (handlers.cancelRefused) handlers.cancelRefused(error);
        return;
      }
      this.turns.delete(frame.turn_id);
      handlers.error(error, frame.turn_id);
    }
  }
}
