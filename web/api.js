// The REST API of one RingCast server, as the control page uses it (README "The API in brief").
//
// Every call resolves to { status, body, etag } for a 2xx answer and rejects with an ApiError
// otherwise: the server's {"error":{"code","message","field"}} when it sent one, or a made-up one
// of the same shape for answers that are not JSON and for a server that cannot be reached.

export class ApiError extends Error {
  constructor(status, code, message, field = null, retryAfter = null) {
    super(message);
    this.name = "ApiError";
    this.status = status; // 0 when no answer came
    this.code = code;
    this.field = field; // the request field the server blamed, e.g. "rings.task1" or "animation.duration"
    this.retryAfter = retryAfter; // seconds, from a 429's Retry-After
  }
}

// token() is asked before every request so that a token typed in later is used at once.
export function createApi(token) {
  async function request(method, path, body) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
    }
    const bearer = token();
    if (bearer !== "") {
      headers.Authorization = `Bearer ${bearer}`;
    }
    let response;
    try {
      // Relative to the page, so the API is found under whatever prefix a proxy serves it at.
      response = await fetch(`api/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch {
      throw new ApiError(0, "unreachable", "cannot reach the server");
    }
    const answer = await readJSON(response);
    if (response.ok) {
      return { status: response.status, body: answer, etag: response.headers.get("ETag") };
    }
    const error = answer?.error;
    const retryAfter = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    throw new ApiError(
      response.status,
      typeof error?.code === "string" ? error.code : "http_error",
      typeof error?.message === "string" ? error.message : `the server answered ${response.status} ${response.statusText}`.trim(),
      typeof error?.field === "string" ? error.field : null,
      Number.isFinite(retryAfter) ? retryAfter : null,
    );
  }

  const board = (name) => `/boards/${encodeURIComponent(name)}`;

  return {
    listBoards: () => request("GET", "/boards"),
    listPlaylists: () => request("GET", "/playlists"),
    getBoard: (name) => request("GET", board(name)),
    patchBoard: (name, body) => request("PATCH", board(name), body),
    putRing: (name, ring, body) => request("PUT", `${board(name)}/rings/${encodeURIComponent(ring)}`, body),
    addRing: (name, body) => request("POST", `${board(name)}/rings`, body),
    deleteRing: (name, ring) => request("DELETE", `${board(name)}/rings/${encodeURIComponent(ring)}`),
    putBackground: (name, body) => request("PUT", `${board(name)}/background`, body),
    startCountdown: (name, seconds) => request("POST", `${board(name)}/countdown`, { seconds }),
    cancelCountdown: (name) => request("DELETE", `${board(name)}/countdown`),
  };
}

// The body as JSON, or null when it is empty or not JSON (a proxy's HTML error page, say).
async function readJSON(response) {
  const text = await response.text().catch(() => "");
  if (text === "") {
    return null;
  }
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
