// The teacher's live overview of a class session: the server sends the live part's HTML
// (docs/protocol.md, "The live overview socket"); the link is the play page's (live-link.js):
// the socket, else the event stream and POSTs.

import { liveLink } from "./live-link.js";

const MAX_RETRY_DELAY = 30000;
// Idle alerts need time to pass without any event: ask for a fresh overview now and then.
const REFRESH_MS = 20000;

const box = document.getElementById("overview-live");
const status = document.getElementById("overview-connection");
let pending = null;

// Never pull the page from under the keyboard: wait until the focus leaves the live part.
const busy = () => box.contains(document.activeElement) && document.activeElement !== box;

function apply(html) {
  if (busy()) {
    pending = html;
    return;
  }
  box.innerHTML = html;
}

function show(state, content) {
  status.dataset.status = state;
  status.replaceChildren(content);
}

function start() {
  box.addEventListener("focusout", () => {
    setTimeout(() => {
      if (pending && !busy()) {
        const html = pending;
        pending = null;
        apply(html);
      }
    }, 0);
  });
  const session = box.dataset.session;
  const live = liveLink({
    socketPath: () => `/ws/session/${session}/`,
    streamPath: () => `/sessions/${session}/stream/`,
    framesPath: `/sessions/${session}/frames/`,
    // Which link the page uses: for the curious and the browser tests, never announced.
    onLink: (kind) => {
      box.dataset.link = kind;
      const said = document.getElementById("overview-link");
      if (said) said.textContent = said.dataset[kind];
    },
    onOpen: () => show("live", status.dataset.live),
    onFrame: (frame) => {
      if (frame.type !== "overview") return;
      apply(frame.html);
      // The session just ended: reload, so the page says "Ended" and stops following.
      if (frame.data && frame.data.status === "ended") location.reload();
    },
    onRetry: () => show("offline", status.dataset.offline),
    onStop: (why) => {
      // Signed out or no access: retrying cannot help, so say why and stop.
      const text = document.getElementById(`overview-${why.replace("_", "-")}`);
      status.className = "message message--error";
      show(why, text.content.cloneNode(true));
    },
    maxDelay: MAX_RETRY_DELAY,
  });
  setInterval(() => {
    if (!live.stopped()) live.send({ type: "sync" });
  }, REFRESH_MS);
}

// An ended session changes no more: no socket (the page has no "Live" either).
if (box && status && !("ended" in box.dataset)) start();
