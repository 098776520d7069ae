// The fallback link (docs/protocol.md, "Fallback: SSE and POST"): the server's frames come as
// Server-Sent Events, the page's go as POSTs, the same JSON frames as on the socket. Used when
// a school's network lets no WebSocket through (live-link.js decides).

import { NO_ACCESS, SIGNED_OUT, forwardFrames, retryDelay } from "./live-socket.js";

const CLOSE_TRY_AGAIN = 1013;
// The server ended this stream for a newer one of the same sign-in or seat (another tab):
// this tab waits, and reopens only once it is looked at again, so that tabs do not take
// the place from each other for ever (docs/protocol.md).
const CLOSE_REPLACED = 4409;
// A POST lost on the network (no answer, or a page that is not ours from a 5xx) is sent again
// after these pauses, each once the stream is open again, until RESEND_DEADLINE_MS.
const RESEND_DELAYS_MS = [300, 1000, 2000];
const RESEND_DEADLINE_MS = 15000;
const STREAM_POLL_MS = 100;
// A heartbeat POST (`ping`) that has no answer by then is given up: the next one follows.
const PING_TIMEOUT_MS = 3000;

/** Resolve after `ms` milliseconds. */
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Return the page's CSRF token (a POST carries it, as a form does). */
function csrfToken() {
  // The page's root carries it: in production the cookie is out of the scripts' reach.
  const root = document.querySelector("[data-csrf]");
  if (root && root.dataset.csrf) return root.dataset.csrf;
  const field = document.querySelector("[name=csrfmiddlewaretoken]");
  if (field) return field.value;
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return cookie ? cookie.slice("csrftoken=".length) : "";
}

/**
 * Open an event stream at `path()` and keep it open; `send(frame)` POSTs to `framesPath`.
 *
 * Same callbacks as liveSocket. The browser reopens a broken stream by itself and sends the
 * last state number it got (`Last-Event-ID`); a stream the browser gives up (an answer that is
 * not a stream) is opened again here, waiting 1 s, 2 s, 4 s… up to `maxDelay`, at `path()`
 * (which may ask "?since=N"). POSTs go one at a time, in order, as frames on one socket do;
 * each answer's frames (an error, the mover's state, a catch-up) go to `onFrame`.
 *
 * A POST lost on the network (fetch rejects, or a 5xx answer that is not JSON) is sent again,
 * in order (the next POSTs wait), once the stream is open again: after RESEND_DELAYS_MS, within
 * RESEND_DEADLINE_MS. The frame's state id makes a repeat the server had applied come back as
 * `stale_state`, with the stored state: that refusal of a resent frame is dropped (nothing for
 * the child to read), the state goes on. A resent `reason` answer the server had stored comes
 * back `reason_saved` (the same answer again is taken). A frame still unanswered is given to
 * `onLost(frame)`.
 *
 * `ping()` POSTs `{"type": "ping"}` on its own, beside the queue (never resent, never holding a
 * move back, given up after PING_TIMEOUT_MS), unless a POST is in flight: its answer says the
 * same. The answer's `pong` goes to `onFrame`, as a socket's would.
 */
export function liveStream({
  path,
  framesPath,
  onOpen,
  onFrame,
  onRetry,
  onStop,
  onLost,
  maxDelay,
}) {
  let source = null;
  let retries = 0;
  let everOpened = false;
  let stopped = false;
  let queue = Promise.resolve();
  let posting = 0; // the queue's POSTs not answered yet
  let pinging = false;

  function stop(code) {
    if (stopped) return;
    stopped = true;
    if (source) source.close();
    onStop(code === SIGNED_OUT ? "signed_out" : "no_access");
  }

  function reopen() {
    if (source) source.close();
    const delay = retryDelay(retries, maxDelay);
    retries += 1;
    if (onRetry) onRetry(everOpened, false);
    setTimeout(connect, delay);
  }

  function yieldToNewer(maxWait) {
    if (source) source.close();
    source = null;
    if (onRetry) onRetry(everOpened, false);
    // Hidden: wait until the tab is shown again; shown (two windows side by side): the
    // longest retry pause, then take the place back.
    if (document.hidden) {
      const shown = () => {
        if (document.hidden) return;
        document.removeEventListener("visibilitychange", shown);
        connect();
      };
      document.addEventListener("visibilitychange", shown);
    } else {
      setTimeout(connect, maxWait);
    }
  }

  function connect() {
    if (stopped) return;
    const es = new EventSource(path());
    source = es;
    es.addEventListener("open", () => {
      retries = 0;
      everOpened = true;
      if (onOpen) onOpen();
    });
    forwardFrames(es, onFrame);
    // The socket's close codes: 4401 and 4403 end the link; 1013 (no database yet) retries;
    // 4409 (a newer stream took this one's place) waits (yieldToNewer).
    es.addEventListener("close", (message) => {
      es.close();
      if (source !== es) return;
      let code = CLOSE_TRY_AGAIN;
      try {
        code = JSON.parse(message.data).code;
      } catch {
        // not ours: try again
      }
      if (code === SIGNED_OUT || code === NO_ACCESS) stop(code);
      else if (code === CLOSE_REPLACED) yieldToNewer(maxDelay);
      else reopen();
    });
    es.addEventListener("error", () => {
      if (source !== es || stopped) return;
      // CONNECTING: the browser reopens it by itself (with Last-Event-ID); CLOSED: it gave up.
      if (es.readyState === EventSource.CLOSED) reopen();
      else if (onRetry) onRetry(everOpened, true);
    });
  }

  /** POST a frame once: `{ answer }`, or `{ retry }` (lost on the network) or `{}` (not ours). */
  async function postOnce(frame, signal = undefined) {
    let response;
    try {
      response = await fetch(framesPath, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(frame),
        signal,
      });
    } catch {
      return { retry: true }; // cut in flight: maybe applied, maybe not
    }
    try {
      return { answer: await response.json() };
    } catch {
      // Not ours: a proxy's or a restarting server's page (5xx) is sent again; a refusal
      // that is not ours (4xx: a refused CSRF token) would be refused again.
      return { retry: response.status >= 500 };
    }
  }

  /** Resolve true once the stream is open, false at `deadline` or when the link stopped. */
  async function streamOpen(deadline) {
    while (!stopped && Date.now() < deadline) {
      if (source && source.readyState === EventSource.OPEN) return true;
      await pause(STREAM_POLL_MS);
    }
    return false;
  }

  async function post(frame) {
    const deadline = Date.now() + RESEND_DEADLINE_MS;
    let result = await postOnce(frame);
    let resent = false;
    for (const delay of RESEND_DELAYS_MS) {
      if (!result.retry || stopped) break;
      await pause(delay);
      if (!(await streamOpen(deadline))) break;
      resent = true;
      result = await postOnce(frame);
    }
    if (stopped) return;
    const answer = result.answer;
    if (!answer || typeof answer !== "object") {
      if (onLost) onLost(frame);
      return;
    }
    if (answer.close === SIGNED_OUT || answer.close === NO_ACCESS) {
      stop(answer.close);
      return;
    }
    for (const item of answer.frames || []) {
      // A repeat the server had applied (or a move overtaken meanwhile): the state follows.
      // A resent reason answer needs no such drop: the server takes the same answer again
      // (`reason_saved`, lessons.attempts.reasons), so an `already_answered` on a resend means
      // that another answer (another tab's) was stored first and this one was not: it is said.
      if (resent && item.type === "error" && item.code === "stale_state") continue;
      onFrame(item);
    }
  }

  /** POST the heartbeat once, beside the queue; its answer's frames go to `onFrame`. */
  async function ping() {
    if (stopped || pinging || posting > 0) return false;
    pinging = true;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), PING_TIMEOUT_MS);
    try {
      const { answer } = await postOnce({ type: "ping" }, abort.signal);
      if (stopped || !answer || typeof answer !== "object") return false;
      if (answer.close === SIGNED_OUT || answer.close === NO_ACCESS) {
        stop(answer.close);
        return false;
      }
      for (const item of answer.frames || []) onFrame(item);
      return true;
    } finally {
      clearTimeout(timer);
      pinging = false;
    }
  }

  connect();
  return {
    send(frame) {
      if (stopped) return false;
      posting += 1;
      queue = queue.then(() => post(frame)).finally(() => {
        posting -= 1;
      });
      return true;
    },
    ping() {
      ping();
      return !stopped;
    },
    socket: () => null,
    stream: () => source,
    stopped: () => stopped,
    everOpened: () => everOpened,
    abandon() {
      stopped = true;
      if (source) source.close();
    },
  };
}
