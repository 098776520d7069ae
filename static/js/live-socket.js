// One live socket kept open by itself: the play page and the teacher's overview both use it
// (docs/protocol.md, "Reconnecting"). After any close but 4401 (signed out) and 4403 (no
// access) it opens again, waiting 1 s, 2 s, 4 s… up to `maxDelay`; each try asks the page for
// its address, so a page that keeps a log can ask for what it missed ("?since=N").

export const SIGNED_OUT = 4401;
export const NO_ACCESS = 4403;

/** Give each of `target`'s messages to `onFrame`, parsed; a message that is not JSON is dropped. */
export function forwardFrames(target, onFrame) {
  target.addEventListener("message", (message) => {
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    onFrame(frame);
  });
}

/** Return the wait before the next try: 1 s, doubled on each failed try, at most `maxDelay`. */
export function retryDelay(retries, maxDelay) {
  return Math.min(1000 * 2 ** retries, maxDelay);
}

/**
 * Open a socket on this site at `path()` and keep it open.
 *
 * - `onOpen()` once each socket opens; `onFrame(frame)` for each JSON frame (others are
 *   dropped); `onRetry(everOpened, opened)` when a socket closed (`opened`: that one had
 *   opened) and the next try is planned; `onStop(why)` with "signed_out" or "no_access" when
 *   retrying cannot help (no more tries).
 *
 * Returns `send(frame)` (false when no socket is open), `ping()` (sends `{"type": "ping"}`:
 * the server answers `pong`), `socket()` (the current one, for the browser tests), `stopped()`
 * and `abandon()` (close it for good: the page moves to the stream, live-link.js).
 */
export function liveSocket({ path, onOpen, onFrame, onRetry, onStop, maxDelay }) {
  let socket = null;
  let retries = 0;
  let everOpened = false;
  let stopped = false;
  let abandoned = false;
  let timer = null;

  function connect() {
    if (abandoned) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}${path()}`);
    let opened = false;
    socket = ws;
    ws.addEventListener("open", () => {
      retries = 0;
      everOpened = true;
      opened = true;
      if (onOpen) onOpen();
    });
    forwardFrames(ws, onFrame);
    ws.addEventListener("close", (closing) => {
      if (socket !== ws || abandoned) return;
      if (closing.code === SIGNED_OUT || closing.code === NO_ACCESS) {
        stopped = true;
        onStop(closing.code === SIGNED_OUT ? "signed_out" : "no_access");
        return;
      }
      const delay = retryDelay(retries, maxDelay);
      retries += 1;
      timer = setTimeout(connect, delay);
      if (onRetry) onRetry(everOpened, opened);
    });
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  connect();
  return {
    send,
    ping: () => send({ type: "ping" }),
    socket: () => socket,
    stopped: () => stopped,
    everOpened: () => everOpened,
    abandon() {
      abandoned = true;
      clearTimeout(timer);
      if (socket) socket.close();
      socket = null;
    },
  };
}
