/* Telling the player, whatever page they are on: "your turn" in the tab's title (and an optional short tone), and
 * an alert when one of their tournaments starts, with a button to their table.
 *
 * R.notify.yourTurn(on)   the table calls it: "(Your turn) …" / "(Tocca a te) …" before the title, the favicon
 *                         marked while the tab is away, a tone and a vibration (phones) when it becomes the
 *                         player's turn
 * R.notify.sound(kind)    the table's sounds: "turn", "move" (another player's), "tick" (the last ten seconds of
 *                         my clock), "end" (the round's end)
 * R.notify.start()        follows the player's tournaments (GET /tournaments/?registered=true with If-None-Match,
 *                         every few seconds: 304 while nothing changed) and alerts when one starts
 * The sound is on unless the player turns it off (the nav's one switch); the choice is kept in localStorage. The
 * sounds are made with WebAudio: no audio file. */
import * as api from "./api.js";
import * as app from "./app.js";
import { h } from "./dom.js";
import * as dom from "./dom.js";
import { t } from "./i18n.js";
import * as lobby from "./lobby.js";

const SOUND_KEY = "ramino.sound";
const POLL_MS = 3000;
const MINE = "/tournaments/?registered=true&status=registering,running,paused&page_size=50";

/* ---- the title and the tone ---- */

let turn = false;
let audio = null;

function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch (_) {
    return true;
  }
}

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  return audio;
}

/* Two short notes (A5 then E6), about a quarter of a second in all. */
function chime() {
  if (!soundOn()) return;
  try {
    play();
  } catch (_) {
    // no sound device, or the browser refused: the title and the alert still say it
  }
}

// Each sound: notes [frequency Hz, start s, length s], a wave and a loudness.
const SOUNDS = {
  turn: { notes: [[880, 0, 0.12], [1318.5, 0.12, 0.14]], wave: "sine", gain: 0.2 },
  move: { notes: [[330, 0, 0.05], [247, 0.04, 0.06]], wave: "triangle", gain: 0.12 },
  tick: { notes: [[1760, 0, 0.04]], wave: "square", gain: 0.05 },
  end: { notes: [[523.3, 0, 0.14], [659.3, 0.12, 0.14], [784, 0.24, 0.14], [1046.5, 0.36, 0.3]], wave: "sine", gain: 0.18 },
};

function play(kind) {
  const ctx = context();
  const sound = SOUNDS[kind || "turn"];
  if (!ctx || !sound) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  sound.notes.forEach(([freq, at, length]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = sound.wave;
    osc.frequency.value = freq;
    const start = ctx.currentTime + at;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(sound.gain, start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + length + 0.01);
  });
  played.push(kind || "turn");
  if (played.length > 50) played.shift();
}

// what was played, newest last (the browser tests read it: a headless browser has no speakers)
const played = [];

/** One of the table's sounds, if the sound is on. */
function sound(kind) {
  if (!soundOn()) return;
  try {
    play(kind);
  } catch (_) {
    // no sound device, or the browser refused: the page still shows it
  }
}

/* The favicon: a gold dot on it while it is the player's turn and the tab is away. */
let plainIcon = null;
function markIcon(on) {
  const link = document.querySelector("link[rel=icon]");
  if (!link) return;
  if (plainIcon === null) plainIcon = link.getAttribute("href");
  const marked = on && document.hidden;
  const href = marked ? TURN_ICON : plainIcon;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  document.documentElement.dataset.iconMarked = String(marked);
}
const TURN_ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="2" width="20" height="28" rx="3" fill="#1e5b3a"/><text x="15" y="21" font-size="14" font-family="sans-serif" font-weight="700" fill="#fff" text-anchor="middle">R</text><circle cx="25" cy="7" r="7" fill="#ffd43b" stroke="#7a2418" stroke-width="2"/></svg>')}`;
document.addEventListener("visibilitychange", () => markIcon(turn));
// browsers let a page play sound only after a gesture: the first tap or key wakes the audio up
const wake = () => {
  if (soundOn()) {
    const ctx = context();
    if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
  }
  document.removeEventListener("pointerdown", wake, true);
  document.removeEventListener("keydown", wake, true);
};
document.addEventListener("pointerdown", wake, true);
document.addEventListener("keydown", wake, true);

function baseTitle() {
  const prefix = `${t("(Your turn)")} `;
  return document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
}

function yourTurn(on) {
  const now = Boolean(on);
  const base = baseTitle();
  document.title = now ? `${t("(Your turn)")} ${base}` : base;
  document.documentElement.dataset.yourTurn = now ? "true" : "false";
  if (now && !turn) {
    sound("turn");
    if (navigator.vibrate) {
      try {
        navigator.vibrate([120, 60, 120]);
      } catch (_) {
        // not a phone
      }
    }
  }
  turn = now;
  markIcon(now);
}

function soundToggle() {
  const nav = document.getElementById("nav");
  if (!nav || nav.querySelector("[data-role=sound-toggle]")) return;
  const button = h("button", { type: "button", class: "sound-toggle", dataset: { role: "sound-toggle" } });
  const show = () => {
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    button.textContent = soundOn() ? t("Sound: on") : t("Sound: off");
  };
  button.addEventListener("click", () => {
    localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
    if (!soundOn()) played.length = 0;
    show();
    if (soundOn()) {
      context(); // created by the click: browsers let a page play sound after a gesture
      chime();
    }
  });
  show();
  const signOut = nav.querySelector("[data-role=sign-out]");
  nav.insertBefore(button, signOut);
}

/* ---- the start alert ---- */

let watching = null; // {stop: bool} of the running poll

function ackKey() {
  const s = api.session();
  return `ramino.started.${s ? s.username : ""}`;
}
function acknowledged() {
  try {
    return JSON.parse(sessionStorage.getItem(ackKey()) || "[]");
  } catch (_) {
    return [];
  }
}
function acknowledge(id) {
  sessionStorage.setItem(ackKey(), JSON.stringify([id, ...acknowledged().filter((x) => x !== id)].slice(0, 50)));
}

function dismiss(box) {
  if (box && box.parentNode) box.parentNode.removeChild(box);
}

function alertStart(tour) {
  const old = document.querySelector(`[data-role=start-alert][data-tournament='${tour.id}']`);
  if (old) return;
  const box = h("div", { class: "start-alert", role: "alert", dataset: { role: "start-alert", tournament: tour.id, table: tour.my_table } },
    h("p", { class: "start-alert-text" },
      h("strong", {}, t("Your tournament has started.")), " ",
      t("%(name)s: your table is ready and your turn clock runs.", { name: tour.name })),
    h("div", { class: "start-alert-actions" },
      h("button", { type: "button", class: "primary", dataset: { role: "go-to-table" }, onclick: () => {
          acknowledge(tour.id);
          dismiss(box);
          if (lobby && lobby.remember) lobby.remember(tour.my_table);
          app.go(`#/table/${tour.my_table}`);
        } }, t("Go to your table")),
      h("button", { type: "button", dataset: { role: "dismiss-alert" }, onclick: () => {
          acknowledge(tour.id);
          dismiss(box);
        } }, t("Later"))));
  const main = document.getElementById("app");
  main.parentNode.insertBefore(box, main);
  chime();
  box.querySelector("[data-role=go-to-table]").focus();
}

function onTablePage(tableId) {
  return location.hash === `#/table/${tableId}`;
}

// Reaching the alert's table another way (the lobby's list, a link) ends its work too: at once, not at the
// next poll's change (an unchanged list answers 304 and the alert would stay over the seated table).
window.addEventListener("hashchange", () => {
  document.querySelectorAll("[data-role=start-alert]").forEach((box) => {
    if (!onTablePage(box.dataset.table)) return;
    acknowledge(Number(box.dataset.tournament));
    dismiss(box);
  });
});

function consider(rows) {
  const acked = acknowledged();
  // An alert whose tournament is over (or no longer the player's) goes.
  const live = new Set(rows.filter((x) => x.status === "running" || x.status === "paused").map((x) => String(x.id)));
  document.querySelectorAll("[data-role=start-alert]").forEach((box) => {
    if (!live.has(box.dataset.tournament)) dismiss(box);
  });
  for (const tour of rows) {
    const playing = (tour.status === "running" || tour.status === "paused") && tour.my_table;
    if (playing && !acked.includes(tour.id)) {
      if (onTablePage(tour.my_table)) {
        // the player is at the table the alert would lead to: its work is done
        acknowledge(tour.id);
        dismiss(document.querySelector(`[data-role=start-alert][data-tournament='${tour.id}']`));
      } else alertStart(tour);
    }
  }
}

async function poll(state) {
  let etag = null;
  while (!state.stop) {
    if (api.session()) {
      try {
        const answer = await api.call("GET", MINE, { headers: etag ? { "If-None-Match": etag } : {} });
        etag = answer.headers.get("ETag");
        if (!state.stop) consider(answer.data.results);
      } catch (err) {
        if (err && err.status !== 304) etag = null;
      }
    }
    await dom.sleep(POLL_MS);
  }
}

/* Follow the signed-in player's tournaments (once per tab; `stop` on sign-out). */
function start() {
  soundToggle();
  if (watching || !api.session()) return;
  watching = { stop: false };
  poll(watching);
}

function stop() {
  if (watching) watching.stop = true;
  watching = null;
  document.querySelectorAll("[data-role=start-alert]").forEach(dismiss);
}

export { yourTurn, chime, sound, soundOn, played, start, stop };
