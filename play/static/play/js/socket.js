/* The live room's socket (docs/api.md "Live socket"): one per tab, signed in with the player's token by its
 * first message (never in the address, so no log holds it). A page follows a game or a tournament with
 * `R.socket.events(topic, after, signal)`, which answers as the long-poll does ({data: {version, events,
 * next_after}, headers}) once events after `after` arrive, or with no event after a quiet spell; it answers
 * null whenever the socket is not open, not signed in, or refused the topic, and the page long-polls instead.
 * A socket that closes is opened again after 1, 2, 5, 10, then 30 seconds; on reopening it subscribes again
 * from the last version it received, so no event is lost or repeated. Two window events tell the pages the rest:
 * `ramino:subscribed` ({topic}) each time the socket follows a topic (again, after a reconnection), and
 * `ramino:presence` ({topic, players: {username: connected}}) when who is connected at a game changes.
 * `R.socket.me(handler)` follows the player's own messages (the `me` topic: e.g. a new notification, kind
 * "notification"); the socket is then kept open, opened again after a close, on every page.
 * A socket can die with no close event (a phone asleep, a network switched, a proxy that dropped it): when
 * nothing has arrived for `heartbeat.pingMs` the client sends a ping, and when nothing answers within
 * `heartbeat.pongMs` it gives the socket up as closed (and opens another as after any close). A tab shown
 * again, or the browser back online, pings at once. */
import * as api from "./api.js";
import * as i18n from "./i18n.js";

const BACKOFF_MS = [1000, 2000, 5000, 10000, 30000];
const OPEN_WAIT_MS = 3000; // how long a page waits for the socket before long-polling this time
const QUIET_MS = 25000; // an answer with no event after this long, as the long-poll's wait=25
const REFUSED_MS = 10000; // a refused topic is asked again after this long (the player may have sat down)
const UNUSED_MS = 60000; // a topic no page asked for this long is given up
// Silence this long → a ping; no answer this long after it → the socket is dead (`heartbeat`).
const heartbeat = { pingMs: 25000, pongMs: 10000 };
const BEAT_MS = 1000; // how often the heartbeat looks

let ws = null;
let ready = false;
let failures = 0;
let retryAt = 0;
const topics = new Map(); // name -> {seen, from, buffer, version, waiters, refusedAt, used}
const openWaiters = new Set();
const meHandlers = new Set(); // called with each `me` message: (kind, data)
let reopen = null;
let heardAt = 0; // when the socket last brought anything
let pingAt = 0; // when the unanswered ping was sent (0: none)
let beating = null;

function address() {
  const configured = document.documentElement.dataset.socket;
  if (configured) return configured;
  return `${window.location.protocol === "https:" ? "wss:" : "ws:"}//${window.location.host}/ws/v1/`;
}

function token() {
  const current = api.session();
  return current && current.token;
}

function wake(waiters) {
  for (const waiter of Array.from(waiters)) waiter();
}

function send(message) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify(message));
}

function subscribe(name, topic) {
  send({ type: "subscribe", topic: name, after: topic.seen });
}

function closed(socket) {
  if (ws !== socket) return;
  ws = null;
  ready = false;
  retryAt = Date.now() + BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)];
  failures += 1;
  wake(openWaiters);
  for (const topic of topics.values()) wake(topic.waiters);
  if (meHandlers.size && !reopen) {
    reopen = setTimeout(() => {
      reopen = null;
      connect();
    }, Math.max(0, retryAt - Date.now()));
  }
}

function probe() {
  if (!ws || !ready || pingAt) return;
  pingAt = Date.now();
  send({ type: "ping" });
}

/** A socket that stopped answering: given up as if it had closed (its late events, if any, ignored). */
function dead(socket) {
  socket.onmessage = null;
  socket.onclose = null;
  try {
    socket.close();
  } catch (_) {
    // closing a socket already gone
  }
  closed(socket);
}

function beat() {
  if (!ws || !ready) return;
  const now = Date.now();
  if (pingAt && now - pingAt > heartbeat.pongMs) dead(ws);
  else if (now - heardAt > heartbeat.pingMs) probe();
}

function receive(event) {
  heardAt = Date.now();
  pingAt = 0;
  let message;
  try {
    message = JSON.parse(event.data);
  } catch (_) {
    return;
  }
  const topic = message.topic ? topics.get(message.topic) : null;
  if (message.type === "welcome") {
    ready = true;
    failures = 0;
    for (const [name, t] of topics) if (!t.refusedAt) subscribe(name, t);
    if (meHandlers.size) send({ type: "subscribe", topic: "me" });
    wake(openWaiters);
  } else if (message.type === "subscribed" && topic) {
    topic.version = message.version;
    window.dispatchEvent(new CustomEvent("ramino:subscribed", { detail: { topic: message.topic } }));
  } else if (message.type === "presence") {
    window.dispatchEvent(new CustomEvent("ramino:presence", { detail: { topic: message.topic, players: message.players || {} } }));
  } else if (message.type === "events" && topic) {
    for (const e of message.events) {
      if (e.version > topic.seen) {
        topic.buffer.push(e);
        topic.seen = e.version;
      }
    }
    topic.version = message.version;
    wake(topic.waiters);
  } else if (message.type === "me") {
    for (const handler of Array.from(meHandlers)) handler(message.kind, message.data);
  } else if (message.type === "error" && topic) {
    topic.refusedAt = Date.now();
    wake(topic.waiters);
  }
}

function connect() {
  if (ws || !token() || typeof window.WebSocket !== "function" || Date.now() < retryAt) return;
  let socket;
  try {
    socket = new window.WebSocket(address());
  } catch (_) {
    closed(null);
    return;
  }
  ws = socket;
  heardAt = Date.now();
  pingAt = 0;
  if (!beating) beating = setInterval(beat, BEAT_MS);
  socket.onopen = () => socket.send(JSON.stringify({ type: "auth", token: token(), language: i18n.lang() }));
  socket.onmessage = receive;
  socket.onclose = () => closed(socket);
}

/** Resolves when `ready`, or `ms` pass, or `signal` aborts; `waiters` is told by whoever may change that. */
function until(waiters, ms, signal, ready) {
  return new Promise((resolve, reject) => {
    let timer = null;
    const done = () => {
      waiters.delete(check);
      clearTimeout(timer);
      if (signal) signal.removeEventListener("abort", aborted);
    };
    const check = () => {
      if (ready()) {
        done();
        resolve(true);
      }
    };
    const aborted = () => {
      done();
      reject(new DOMException("Aborted", "AbortError"));
    };
    if (signal && signal.aborted) return aborted();
    if (ready()) return resolve(true);
    waiters.add(check);
    timer = setTimeout(() => {
      done();
      resolve(false);
    }, ms);
    if (signal) signal.addEventListener("abort", aborted);
  });
}

async function opened(signal) {
  if (ready) return true;
  connect();
  if (!ws) return false;
  await until(openWaiters, OPEN_WAIT_MS, signal, () => ready || !ws);
  return ready;
}

function forgetUnused(now) {
  for (const [name, t] of topics) {
    if (now - t.used > UNUSED_MS && !t.waiters.size) {
      topics.delete(name);
      send({ type: "unsubscribe", topic: name });
    }
  }
}

/** The events of `name` after version `after`, as the long-poll answers them; null: long-poll instead. */
async function events(name, after, signal) {
  if (!(await opened(signal))) return null;
  const now = Date.now();
  forgetUnused(now);
  let topic = topics.get(name);
  if (topic && topic.refusedAt && now - topic.refusedAt < REFUSED_MS) return null;
  if (!topic || topic.refusedAt || after < topic.from) {
    topic = { seen: after, from: after, buffer: [], version: after, waiters: new Set(), refusedAt: 0, used: now };
    topics.set(name, topic);
    subscribe(name, topic);
  }
  topic.used = now;
  const t = topic;
  const found = () => t.buffer.some((e) => e.version > after) || Boolean(t.refusedAt) || !ready;
  await until(t.waiters, QUIET_MS, signal, found);
  if (t.refusedAt || !ready) return null;
  const fresh = t.buffer.filter((e) => e.version > after);
  t.buffer = [];
  const data = {
    version: Math.max(t.version, after),
    events: fresh,
    next_after: fresh.length ? fresh[fresh.length - 1].version : after,
  };
  return { status: 200, data, headers: new Headers() };
}

// Signing out (or in as someone else) closes the socket: the next page opens one with the new token.
window.addEventListener("ramino:session", () => {
  const old = ws;
  ws = null;
  ready = false;
  retryAt = 0;
  failures = 0;
  for (const topic of topics.values()) wake(topic.waiters);
  topics.clear();
  if (old) old.close();
});

// Back from sleep or offline: find out now whether the socket survived.
window.addEventListener("online", probe);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") probe();
});

/** Follow the player's own messages; answers a function that stops following. */
function me(handler) {
  const first = !meHandlers.size;
  meHandlers.add(handler);
  if (ready && first) send({ type: "subscribe", topic: "me" });
  else connect();
  return () => {
    meHandlers.delete(handler);
    if (!meHandlers.size) send({ type: "unsubscribe", topic: "me" });
  };
}

/** Whether the socket is open and signed in now (the centre polls only when it is not). */
function live() {
  return ready;
}

export { events, me, live, heartbeat };
