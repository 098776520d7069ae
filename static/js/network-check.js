// The network check (templates/network_check/page.html): tries, from this browser, the
// WebSocket and the fallback (an event stream for the server's messages, POSTs for the
// page's), times a few echoes on each, keeps both open for the server's check duration, then
// says what the class will use and fills in the IT ticket. Talks to this server only.

const config = JSON.parse(document.getElementById("network-check-config").textContent);
const words = config.words;
// How long a link may take to open or to answer before it counts as not working.
const OPEN_TIMEOUT_MS = 10_000;
const ECHO_TIMEOUT_MS = 5_000;

const statusBox = document.getElementById("network-check-status");
const verdictBox = document.getElementById("network-check-verdict");
const ticket = document.getElementById("network-check-ticket");
const runButton = document.getElementById("network-check-run");

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

function seconds(ms) {
  return (ms / 1000).toLocaleString(config.lang, { maximumFractionDigits: 0 });
}

// One cell of the results: its words, and a sign (✓ ✗ …) besides the colour.
function show(link, part, outcome, text) {
  const cell = document.querySelector(`tr[data-link="${link}"] td[data-part="${part}"]`);
  const sign = { works: "✓ ", fails: "✗ ", waiting: "… " }[outcome] || "";
  cell.dataset.outcome = outcome;
  cell.textContent = sign + text;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function timeout(ms, what) {
  return new Promise((_resolve, reject) => setTimeout(() => reject(new Error(what)), ms));
}

// A link under test: waits for numbered echoes and the end of the hold.
class Link {
  constructor(name) {
    this.name = name;
    this.result = { opened: false, echoMs: null, heldMs: null, cutMs: null, why: null };
    this.waiting = new Map();
    this.closedEarly = null;
    this.closed = new Promise((resolve) => {
      this.closedEarly = resolve;
    });
  }

  echoed(number) {
    const resolve = this.waiting.get(number);
    if (resolve) {
      this.waiting.delete(number);
      resolve();
    }
  }

  async echoes(sendEcho) {
    const times = [];
    for (let number = 0; number < config.echoes; number += 1) {
      const back = new Promise((resolve) => this.waiting.set(number, resolve));
      const start = performance.now();
      await Promise.race([
        Promise.all([back, sendEcho(number)]),
        timeout(ECHO_TIMEOUT_MS, "no_echo"),
        this.closed.then(() => Promise.reject(new Error("no_echo"))),
      ]);
      times.push(performance.now() - start);
    }
    return median(times);
  }

  // Keep the link open for the check's duration; a close or a silent gap ends it early.
  async hold(openedAt, durationMs, heartbeatMs) {
    const end = openedAt + durationMs;
    let lastBeat = performance.now();
    this.beat = () => {
      lastBeat = performance.now();
    };
    while (performance.now() < end) {
      const early = await Promise.race([
        this.closed.then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), 1000)),
      ]);
      const silent = performance.now() - lastBeat > heartbeatMs * 3 + 2000;
      if (early || silent) {
        this.result.cutMs = performance.now() - openedAt;
        return;
      }
      show(this.name, "held", "waiting", fill(words.holding, { seconds: seconds(performance.now() - openedAt) }));
    }
    this.result.heldMs = performance.now() - openedAt;
  }
}

function openSocket(link) {
  return new Promise((resolve, reject) => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${config.socket_path}`);
    link.close = () => socket.close();
    socket.addEventListener("message", (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame.type === "hello") resolve({ socket, hello: frame });
      else if (frame.type === "echo") link.echoed(frame.n);
      else if (frame.type === "beat" && link.beat) link.beat();
    });
    socket.addEventListener("close", () => {
      link.closedEarly();
      reject(new Error("no_open"));
    });
  });
}

function openStream(link) {
  return new Promise((resolve, reject) => {
    const stream = new EventSource(config.stream_path);
    link.close = () => stream.close();
    stream.addEventListener("open", () => {
      link.sawOpen = true;
    });
    // The tables' stream: each frame a `message` event, a final `close` event with its code.
    stream.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === "hello") resolve({ stream, hello: frame });
      else if (frame.type === "beat" && link.beat) link.beat();
    });
    const ended = () => {
      stream.close();
      link.closedEarly();
      reject(new Error(link.sawOpen ? "buffered" : "no_open"));
    };
    stream.addEventListener("close", ended);
    // EventSource reconnects by itself after a cut; the check counts the first cut.
    stream.addEventListener("error", ended);
  });
}

// The fallback's other half: a frame POSTed, its echo in the answer (as a table's move).
function postEcho(link) {
  return async (number) => {
    const answer = await fetch(config.echo_path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrf },
      body: JSON.stringify({ type: "echo", n: number }),
    });
    if (!answer.ok) throw new Error("no_echo");
    const { frames } = await answer.json();
    for (const frame of frames || []) if (frame.type === "echo") link.echoed(frame.n);
  };
}

async function check(link, open, sendEchoFor) {
  show(link.name, "open", "waiting", words.testing);
  show(link.name, "echo", "waiting", words.waiting);
  show(link.name, "held", "waiting", words.waiting);
  let opened;
  try {
    opened = await Promise.race([open(link), timeout(OPEN_TIMEOUT_MS, "timeout")]);
  } catch (error) {
    // A stream whose headers came but no event: something on the way holds it back.
    link.result.why = error.message === "timeout" ? (link.sawOpen ? "buffered" : "no_open") : error.message;
    if (link.close) link.close();
    show(link.name, "open", "fails", fill(words[link.result.why] || words.no_open, { seconds: OPEN_TIMEOUT_MS / 1000 }));
    show(link.name, "echo", "skipped", words.not_tested);
    show(link.name, "held", "skipped", words.not_tested);
    link.quickDone();
    return link.result;
  }
  const openedAt = performance.now();
  link.result.opened = true;
  show(link.name, "open", "works", words.works);
  try {
    const ms = await link.echoes(sendEchoFor(opened));
    link.result.echoMs = ms;
    show(link.name, "echo", "works", fill(words.echo_ms, { ms: Math.round(ms), count: config.echoes }));
  } catch {
    link.result.why = "no_echo";
    show(link.name, "echo", "fails", words.no_echo);
  }
  link.quickDone();
  const { duration, heartbeat } = opened.hello;
  await link.hold(openedAt, duration * 1000, heartbeat * 1000);
  link.close();
  if (link.result.heldMs !== null) {
    show(link.name, "held", "works", fill(words.held, { seconds: seconds(link.result.heldMs) }));
  } else {
    show(link.name, "held", "fails", fill(words.cut, { seconds: seconds(link.result.cutMs) }));
  }
  return link.result;
}

function works(result) {
  return result.opened && result.echoMs !== null;
}

function verdict(socket, fallback) {
  if (works(socket) && socket.heldMs !== null) return ["socket", words.verdict_socket];
  if (works(fallback) && fallback.heldMs !== null) return ["fallback", words.verdict_fallback];
  if (works(fallback)) {
    return ["fallback", fill(words.verdict_fallback_cut, { seconds: seconds(fallback.cutMs) })];
  }
  return ["nothing", words.verdict_nothing];
}

function resultWords(result) {
  if (!works(result)) return words.fails;
  const parts = [words.works, fill(words.echo_ms, { ms: Math.round(result.echoMs), count: config.echoes })];
  parts.push(result.heldMs !== null
    ? fill(words.held, { seconds: seconds(result.heldMs) })
    : fill(words.cut, { seconds: seconds(result.cutMs) }));
  return parts.join(", ");
}

function fillTicket(socket, fallback) {
  const pending = words.testing;
  const secure = location.protocol === "https:";
  ticket.value = fill(words.ticket, {
    origin: location.origin,
    host: location.hostname,
    port: location.port || (secure ? "443" : "80"),
    socket_url: `${secure ? "wss:" : "ws:"}//${location.host}/ws/`,
    date: new Date().toLocaleString(config.lang),
    socket_result: socket ? resultWords(socket) : pending,
    fallback_result: fallback ? resultWords(fallback) : pending,
  });
}

async function run() {
  runButton.disabled = true;
  verdictBox.dataset.verdict = "pending";
  fillTicket(null, null);
  const socketLink = new Link("socket");
  const fallbackLink = new Link("fallback");
  let quick = 0;
  const quickDone = () => {
    quick += 1;
    if (quick === 2) {
      statusBox.textContent = fill(words.quick_done, {
        socket_word: works(socketLink.result) ? words.works : words.fails,
        fallback_word: works(fallbackLink.result) ? words.works : words.fails,
      }).toLowerCase().replace(/^./, (first) => first.toUpperCase());
    }
  };
  socketLink.quickDone = quickDone;
  fallbackLink.quickDone = quickDone;
  statusBox.textContent = fill(words.started, { seconds: config.duration ?? "" });
  const [socket, fallback] = await Promise.all([
    check(socketLink, openSocket, ({ socket }) => async (number) => {
      socket.send(JSON.stringify({ type: "echo", n: number }));
    }),
    check(fallbackLink, openStream, () => postEcho(fallbackLink)),
  ]);
  const [kind, text] = verdict(socket, fallback);
  verdictBox.dataset.verdict = kind;
  verdictBox.textContent = text;
  statusBox.textContent = text;
  fillTicket(socket, fallback);
  runButton.disabled = false;
}

runButton.addEventListener("click", run);
document.getElementById("network-check-copy").addEventListener("click", async () => {
  const said = document.getElementById("network-check-copied");
  ticket.select();
  try {
    await navigator.clipboard.writeText(ticket.value);
    said.textContent = words.copied;
  } catch {
    said.textContent = words.copy_failed;
  }
});
run();
