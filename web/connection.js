// The board's WebSocket stream: one socket at a time, reopened with capped, jittered exponential
// backoff after any close (1001 "going away" included), closed while the tab is hidden so a
// hidden tab costs the server nothing. The server starts every connection with a layout and a
// full frame, so a reconnect needs nothing from the page but a reset (done by the owner).

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;
const JITTER = 0.2; // each delay is spread ±20 % so viewers of a restarted server do not all return at once
const CONNECT_TIMEOUT_MS = 5_000; // from opening the socket to the first valid layout

// The stream's address for this page: `ws` next to the page itself (so a proxy may serve RingCast
// under any path prefix: /rc/ gives /rc/ws), ?board= (default `board`; without either, no board:
// the server shows its default board, so that `/` keeps its meaning whatever boards exist) and
// ?token= passed on; with reducedMotion, &motion=reduced asks the server for end states only (no
// in-between frames). `board` is null when the server chooses. ?playlist=NAME streams the playlist
// instead of a board: the server switches the board shown, sending each board's layout when it does.
export function streamAddress(location, { reducedMotion = false, board: fallback = null } = {}) {
  const page = new URLSearchParams(location.search);
  const board = page.get("board") || fallback || null;
  const playlist = page.get("playlist") || null;
  // The compact binary encoding by default; ?format=json asks for the same frames as JSON text
  // (for people watching the network panel, and the browser tests that read the frames).
  const format = page.get("format") === "json" ? "json" : "binary";
  const query = new URLSearchParams(
    playlist !== null ? { playlist, format } : board === null ? { format } : { board, format },
  );
  const token = page.get("token");
  if (token !== null) {
    query.set("token", token);
  }
  if (reducedMotion) {
    query.set("motion", "reduced");
  }
  // A browser cannot read why an upgrade was refused: ask the server to accept it, say why in an
  // "error" message and close with 4000 + the HTTP status.
  query.set("refusal", "message");
  const url = new URL(`ws?${query}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return { board, playlist, url: url.href };
}

// Opens the stream at once and keeps it open; address() gives the URL for each attempt. Calls
// onData(data) for each message of the current socket, and onStatus(state, seconds) on each change
// of state: "connecting", "live", "reconnecting" (seconds = whole seconds until the next attempt,
// counting down), "refused" (the server closed with 44xx, after an "error" message saying why
// or, for a board it stopped serving, with the reason in the close frame (second argument:
// { code, reason }): trying again cannot help until the address changes) or "offline" (tab
// hidden, or the browser has no network). The owner calls live()
// when the stream has proved itself with a valid layout: that ends the connect timeout and resets
// the backoff; and reconnect() when the address changed.
export function openStream(address, { onData, onStatus }) {
  let socket = null;
  let failures = 0; // attempts since the last valid layout; sets the next delay
  let connectTimer = 0;
  let retryTimer = 0;
  let retryAt = 0;

  function connect() {
    stop();
    if (document.hidden) {
      onStatus("offline");
      return;
    }
    onStatus("connecting");
    const url = address();
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (error) {
      console.warn("RingCast: cannot open the stream", url, error);
      retry();
      return;
    }
    ws.binaryType = "arraybuffer";
    // A socket replaced or stopped by us may still deliver events: only the current one counts.
    ws.addEventListener("message", (event) => {
      if (socket === ws) {
        onData(event.data);
      }
    });
    ws.addEventListener("close", (event) => {
      if (socket === ws) {
        socket = null;
        if (event.code >= 4400 && event.code < 4500) {
          clearTimeout(connectTimer);
          onStatus("refused", { code: event.code, reason: event.reason });
          return;
        }
        retry();
      }
    });
    socket = ws;
    connectTimer = setTimeout(() => {
      stop();
      retry();
    }, CONNECT_TIMEOUT_MS);
  }

  function stop() {
    clearTimeout(connectTimer);
    clearTimeout(retryTimer);
    const ws = socket;
    socket = null;
    ws?.close();
  }

  function retry() {
    clearTimeout(connectTimer);
    if (document.hidden || navigator.onLine === false) {
      onStatus("offline"); // "visibilitychange" or "online" brings it back
      return;
    }
    const capped = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures);
    failures += 1;
    retryAt = performance.now() + capped * (1 + JITTER * (2 * Math.random() - 1));
    countDown();
  }

  function countDown() {
    const left = retryAt - performance.now();
    if (left <= 0) {
      connect();
      return;
    }
    onStatus("reconnecting", Math.ceil(left / 1000));
    retryTimer = setTimeout(countDown, left % 1000 || 1000); // wake at the next whole second
  }

  function reconnectNow() {
    failures = 0;
    connect();
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      stop();
      onStatus("offline");
    } else {
      reconnectNow();
    }
  });
  window.addEventListener("online", () => {
    if (socket === null) {
      reconnectNow();
    }
  });

  connect();

  return {
    live() {
      clearTimeout(connectTimer);
      failures = 0;
      onStatus("live");
    },
    reconnect() {
      if (!document.hidden) {
        reconnectNow();
      }
    },
  };
}
