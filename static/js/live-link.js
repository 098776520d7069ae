// The page's live link (docs/protocol.md, "Fallback: SSE and POST"): the WebSocket first;
// when a school's network does not let it through, the event stream and POSTs, with the same
// frames. Once on the stream, the page stays on it for its life (a network that broke the
// socket twice will break it again; the stream costs a little more per move, nothing else).

import { liveSocket } from "./live-socket.js";
import { liveStream } from "./live-stream.js";

// A socket that has not opened this long after the page's first try is taken as blocked.
export const OPEN_TIMEOUT_MS = 5000;
// Two sockets that had opened and closed within this long: the network cuts them.
export const CUT_WINDOW_MS = 10000;

/**
 * Open the page's link and keep it open; return `send`, `ping` (the page's heartbeat: the
 * server answers `pong`), `socket`, `stopped` and `kind` ("socket" or "stream").
 *
 * `socketPath()` and `streamPath()` give each try's address (they may ask "?since=N");
 * `framesPath` takes the POSTed frames. `onLink(kind)` is told the link in use (at once,
 * and when it changes). `?link=socket` or `?link=stream` on the page's address forces one
 * (the browser tests); otherwise the socket is tried first and the stream takes over when
 * no socket opened within OPEN_TIMEOUT_MS of the first try, or when two sockets that had
 * opened closed (other than 4401 or 4403) within CUT_WINDOW_MS. A socket that never opens
 * after one that did (a server restarting) is retried as before: the network let it through.
 */
export function liveLink({ socketPath, streamPath, framesPath, onLink, ...callbacks }) {
  const forced = new URLSearchParams(location.search).get("link");
  let kind = forced === "stream" || !window.WebSocket ? "stream" : "socket";
  let live = null;
  let lastCut = -Infinity;
  let openTimer = null;

  function toStream() {
    if (kind === "stream") return;
    clearTimeout(openTimer);
    live.abandon();
    kind = "stream";
    start();
  }

  function start() {
    if (onLink) onLink(kind);
    if (kind === "stream") {
      live = liveStream({ ...callbacks, path: streamPath, framesPath });
      return;
    }
    live = liveSocket({
      ...callbacks,
      path: socketPath,
      onOpen: () => {
        clearTimeout(openTimer);
        if (callbacks.onOpen) callbacks.onOpen();
      },
      onRetry: (everOpened, opened) => {
        if (callbacks.onRetry) callbacks.onRetry(everOpened, opened);
        if (forced === "socket" || !opened) return;
        const now = Date.now();
        if (now - lastCut < CUT_WINDOW_MS) toStream();
        lastCut = now;
      },
    });
    if (forced !== "socket") {
      openTimer = setTimeout(() => {
        if (!live.everOpened()) toStream();
      }, OPEN_TIMEOUT_MS);
    }
  }

  start();
  return {
    send: (frame) => live.send(frame),
    ping: () => live.ping(),
    socket: () => live.socket(),
    stopped: () => live.stopped(),
    kind: () => kind,
  };
}
