// Where the API and the WebSocket are. The same files can be hosted anywhere: `config.json`
// beside them (empty values mean "the origin that served this page") and the query
// parameters `?api=https://...&ws=wss://...` (which win) say where to talk to.

export async function loadConfig(location = window.location) {
  let file = {};
  try {
    const response = await fetch(new URL("config.json", location.href), { cache: "no-store" });
    if (response.ok) file = await response.json();
  } catch {
    // No config.json: same origin.
  }
  const query = new URLSearchParams(location.search);
  const apiBase = trimSlash(query.get("api") || file.apiBase || location.origin);
  const wsUrl = query.get("ws") || file.wsUrl || defaultWebSocketUrl(apiBase);
  // The local stack's own config.json says it has a dev issuer; a hosted copy has none.
  const devIssuer = file.devIssuer === true && !query.get("api");
  return { apiBase, wsUrl, devIssuer };
}

export function defaultWebSocketUrl(apiBase) {
  const url = new URL(apiBase);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.pathname = trimSlash(url.pathname) + "/ws";
  return url.toString();
}

function trimSlash(text) {
  return text.replace(/\/+$/, "");
}
