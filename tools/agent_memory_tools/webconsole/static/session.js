// Who is signed in: the token and a display name, kept for this tab only (sessionStorage).

const KEY = "agent-memory.session";

export function loadSession() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (saved && typeof saved.token === "string") return saved;
  } catch {
    // A damaged entry is a signed-out tab.
  }
  return null;
}

export function saveSession(token) {
  const session = { token, name: subjectOf(token) };
  sessionStorage.setItem(KEY, JSON.stringify(session));
  return session;
}

export function clearSession() {
  sessionStorage.removeItem(KEY);
}

// The token's `sub`, for display only: the API verifies the token, the console never does.
export function subjectOf(token) {
  try {
    const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(payload.padEnd(Math.ceil(payload.length / 4) * 4, "=")));
    return typeof claims.sub === "string" ? claims.sub : "(unknown)";
  } catch {
    return "(unknown)";
  }
}
