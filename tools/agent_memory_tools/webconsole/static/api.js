// The HTTP API client: one method per route, errors as the API words them.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  // A route this deployment does not have (older stack, another gateway): hidden, not shown.
  get missingRoute() {
    // API Gateway answers an unknown route 404 {"message": "Not Found"}; the local stack adds
    // the code `not_found`. A route's own 404s (an unknown commit) carry other codes.
    return (this.status === 404 && (this.code === "not_found" || this.code === "gateway"))
      || this.status === 405;
  }
}

export class Api {
  constructor(base, token = null) {
    this.base = base;
    this.token = token;
  }

  async request(method, path, { body, headers = {} } = {}) {
    const all = { ...headers };
    if (this.token) all.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) all["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers: all,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, "network_error", `The API at ${this.base} could not be reached.`);
    }
    const text = await response.text();
    let parsed = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    if (!response.ok) throw errorFrom(response.status, parsed);
    return parsed;
  }

  devToken(user) {
    return this.request("POST", "/dev/token", { body: { user } });
  }

  chat(message, turnId) {
    return this.request("POST", "/chat", {
      body: { message },
      headers: { "Idempotency-Key": turnId },
    });
  }

  cancel(turnId) {
    return this.request("POST", `/turns/${encodeURIComponent(turnId)}/cancel`);
  }

  turn(turnId) {
    return this.request("GET", `/turns/${encodeURIComponent(turnId)}`);
  }

  memory() {
    return this.request("GET", "/memory");
  }

  patch(operations) {
    return this.request("PATCH", "/memory", { body: { operations } });
  }

  forget() {
    return this.request("DELETE", "/memory");
  }

  history(cursor) {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    return this.request("GET", `/memory/history${query}`);
  }

  undo(commitId) {
    return this.request("POST", "/memory/undo", { body: { commit_id: commitId } });
  }

  settings() {
    return this.request("GET", "/memory/settings");
  }

  putSettings(writeMode) {
    return this.request("PUT", "/memory/settings", { body: { write_mode: writeMode } });
  }

  proposals() {
    return this.request("GET", "/memory/proposals");
  }

  approve(proposalId) {
    return this.request("POST", `/memory/proposals/${encodeURIComponent(proposalId)}/approve`);
  }

  reject(proposalId) {
    return this.request("POST", `/memory/proposals/${encodeURIComponent(proposalId)}/reject`);
  }
}

// `{"error": {"code", "message"}}` is the contract; API Gateway's own answers are
// `{"message": "..."}`. Whatever the API said is shown as it said it.
export function errorFrom(status, body) {
  const error = body && typeof body === "object" ? body.error : null;
  if (error && typeof error.message === "string") {
    return new ApiError(status, error.code || "error", error.message);
  }
  if (body && typeof body.message === "string") {
    return new ApiError(status, "gateway", body.message);
  }
  return new ApiError(status, "http_" + status, `The API answered ${status}.`);
}
