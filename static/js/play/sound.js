// The sound of "your turn" (issue 30 §2): two short rising notes made with the Web Audio API
// (no file to download), only for this seat's own turn, never for a wrong card nor for
// another's turn. Off until the child turns it on (remembered on the device, localStorage);
// never at a table whose teacher muted the session (the table's "sound" setting).
// The table says which holds: data-sound="on|off" on #play, and counts the sounds it made
// (data-sounds) for the browser tests.

import { $, S, root, setData, setText } from "./page.js";
import { game } from "./state.js";

const KEY = "unoclass.sound";
let audio = null;

function remembered() {
  try {
    return window.localStorage.getItem(KEY) === "on";
  } catch {
    return false; // storage refused (private mode): the sound stays off
  }
}

function remember(on) {
  try {
    window.localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // storage refused: the choice holds for this page only
  }
}

/** Tell whether the table lets sound play (the teacher may mute a session). */
function allowed() {
  const settings = (game.table && game.table.settings) || {};
  return settings.sound !== false;
}

let chosen = remembered();

/** Show the toggle as the table and the child's choice say; data-sound tells the tests. */
export function renderSound() {
  const button = $("play-sound");
  const on = allowed() && chosen;
  setData(root, "sound", on ? "on" : "off");
  if (!button) return;
  button.hidden = !allowed();
  button.setAttribute("aria-pressed", String(on));
  setText($("play-sound-state"), on ? S.sound_on : S.sound_off);
}

/** Play the two notes of "your turn" when sound is on. */
export function yourTurnSound() {
  if (root.dataset.sound !== "on") return;
  root.dataset.sounds = String(Number(root.dataset.sounds || 0) + 1);
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const start = audio.currentTime + 0.02;
  [660, 880].forEach((frequency, index) => {
    const tone = audio.createOscillator();
    const level = audio.createGain();
    tone.type = "triangle";
    tone.frequency.value = frequency;
    const at = start + index * 0.14;
    // A soft start and end: no click, 0.12 s a note.
    level.gain.setValueAtTime(0.0001, at);
    level.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    level.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
    tone.connect(level).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.13);
  });
}

const toggle = $("play-sound");
if (toggle) {
  toggle.addEventListener("click", () => {
    chosen = !chosen;
    remember(chosen);
    renderSound();
    // The tap is the gesture a browser asks before it lets a page make sound.
    if (chosen && !audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (Context) audio = new Context();
    }
  });
}
renderSound();
