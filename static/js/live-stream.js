// The fallback link (docs/protocol.md, "Fallback: SSE and POST"): the server's frames come as
// Server-Sent Events, the page's go as POSTs, the same JSON frames as on the socket. Used when
// a school's network lets no WebSocket through (live-link.js decides).

import { NO_ACCESS, SIGNED_OUT } from "./live-socket.js";

const CLOSE_TRY_AGAIN = 1013;

/** Return the page's CSRF token (a POST carries it, as a form does). */
function csrfToken() {
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
 */
export function liveStream({ path, framesPath, onOpen, onFrame, onRetry, onStop, maxDelay }) {
  let source = null;
  let retries = 0;
  let everOpened = false;
  let stopped = false;
  let queue = Promise.resolve();

  function stop(code) {
    if (stopped) return;
    stopped = true;
    if (source) source.close();
    onStop(code === SIGNED_OUT ? "signed_out" : "no_access");
  }

  function reopen() {
    if (source) source.close();
    const delay = Math.min(1000 * 2 ** retries, maxDelay);
    retries += 1;
    if (onRetry) onRetry(everOpened, false);
    setTimeout(connect, delay);
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
    es.addEventListener("message", (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      onFrame(frame);
    });
    // The socket's close codes: 4401 and 4403 end the link; 1013 (no database yet) retries.
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
      else reopen();
    });
    es.addEventListener("error", () => {
      if (source !== es || stopped) return;
      // CONNECTING: the browser reopens it by itself (with Last-Event-ID); CLOSED: it gave up.
      if (es.readyState === EventSource.CLOSED) reopen();
      else if (onRetry) onRetry(everOpened, true);
    });
  }

  async function post(frame) {
    let response;
    try {
      response = await fetch(framesPath, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(frame),
      });
    } catch {
      return; // the network: the page asks again ("since") when no answer comes
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      return; // not ours (a proxy's page, a refused token): as a lost frame
    }
    if (answer && (answer.close === SIGNED_OUT || answer.close === NO_ACCESS)) {
      stop(answer.close);
      return;
    }
    for (const item of (answer && answer.frames) || []) onFrame(item);
  }

  connect();
  return {
    send(frame) {
      if (stopped) return false;
      queue = queue.then(() => post(frame));
      return true;
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
