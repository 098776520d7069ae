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

// Fill a label pattern of the page ("{name}, table {number}") in one pass.
const fill = (pattern, values) =>
  pattern.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));

function option(value, text, table) {
  const made = new Option(text, value);
  if (table !== undefined) made.dataset.table = table;
  return made;
}

/**
 * The page's one move form (outside the live part, so its CSRF token stays right): keep its
 * options current from each frame's data, and let a row's "Move…" button fill it.
 */
function moveControl(form) {
  const pupil = form.elements.namedItem("student");
  const place = form.elements.namedItem("table");
  const section = form.closest("section");
  let latest = null; // the newest frame's data
  let shown = ""; // what the options show now
  let opener = null; // the pupil whose row button opened the form (Escape goes back there)

  // The pupil's own place is no destination (the server would refuse it).
  function mark() {
    const current = pupil.selectedOptions[0]?.dataset.table;
    for (const each of place.options) each.disabled = current !== undefined && each.value === current;
    if (place.selectedIndex < 0 || place.selectedOptions[0].disabled) {
      const first = [...place.options].find((each) => !each.disabled);
      if (first) place.value = first.value;
    }
  }

  function render(data) {
    const key = JSON.stringify([
      data.students.map((s) => [s.id, s.name, s.table]),
      data.tables.map((t) => t.number),
    ]);
    if (key === shown) return;
    shown = key;
    const [chosenPupil, chosenPlace] = [pupil.value, place.value];
    pupil.replaceChildren(
      pupil.options[0],
      ...data.students.map((s) =>
        s.table == null
          ? option(String(s.id), fill(pupil.dataset.waiting, { name: s.name }), "")
          : option(
              String(s.id),
              fill(pupil.dataset.seated, { name: s.name, number: s.table }),
              String(s.table),
            ),
      ),
    );
    place.replaceChildren(
      place.options[0],
      ...data.tables.map((t) => option(String(t.number), fill(place.dataset.table, t))),
    );
    // A pupil or a table gone: back to the first choice.
    pupil.value = chosenPupil;
    if (pupil.selectedIndex < 0) pupil.selectedIndex = 0;
    place.value = chosenPlace;
    if (place.selectedIndex < 0) place.selectedIndex = 0;
    section.hidden = data.students.length === 0;
    mark();
  }

  // Never change a list under the keyboard: wait until the focus leaves the form.
  const update = () => {
    if (latest && !form.contains(document.activeElement)) render(latest);
  };
  form.addEventListener("focusout", () => setTimeout(update, 0));
  pupil.addEventListener("change", mark);
  box.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-student]");
    if (!button) return;
    if (latest) render(latest);
    pupil.value = button.dataset.student;
    if (pupil.selectedIndex < 0) pupil.selectedIndex = 0;
    opener = button.dataset.student;
    mark();
    place.focus();
  });
  form.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || opener === null) return;
    const back = box.querySelector(`button[data-student="${CSS.escape(opener)}"]`);
    if (!back) return;
    event.preventDefault();
    back.focus();
  });
  mark();
  return {
    show(data) {
      latest = data;
      update();
    },
  };
}

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
  const moveForm = document.getElementById("move-form");
  const move = moveForm ? moveControl(moveForm) : null;
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
      if (move && frame.data) move.show(frame.data);
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
