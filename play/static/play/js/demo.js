/* The demo (docs/web.md "The demo"): the landing page's Demo button leads to #/demo, which asks the server for a
 * demo table (POST /demo/: an anonymous visitor becomes a guest, signed in like anyone with the token it gets),
 * then #/demo/ID, the ordinary table page with a guide above it. The guide follows the table page through one
 * hook (the "ramino:table-drawn" event table-view.js fires after each redraw) and says, for the situation on the
 * table, what to do: the server's script (`steps`, tournaments/practice/demo_script.py) names each step's
 * situation and move; the guide picks the first step whose situation matches the view and whose move is legal,
 * highlights the cards and buttons to use, gives a hint after a while without progress, explains the bot's
 * moves, and at the end explains the score. A player who strays from the script gets general help: the guide
 * never waits for a move that cannot come. */
import * as api from "./api.js";
import { h, append, clear } from "./dom.js";
import { selectedCodes } from "./hand.js";
import { t, number } from "./i18n.js";
import * as W from "./table-words.js";
import { currentStep, plain, sameMove } from "./lib/script.mjs";
import { playerSteps, words, generalHelp, botNews } from "./demo-words.js";

const STORE = "ramino.demo";

let guide = null; // the guide of the open demo table; null elsewhere

// ------------------------------------------------------------------------------------- the script

function saved() {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) || "null");
  } catch (_) {
    return null;
  }
}

// --------------------------------------------------------------------------------------- highlights

function mark(el) {
  if (!el) return;
  el.classList.add("guide-target");
  el.dataset.guideTarget = "true";
  const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
  if (!ids.includes("demo-instruction")) el.setAttribute("aria-describedby", [...ids, "demo-instruction"].join(" "));
}

function moveButton(content, move) {
  return [...content.querySelectorAll("[data-role=move]")].find((b) => {
    try {
      return sameMove(JSON.parse(b.dataset.move || "null"), move);
    } catch (_) {
      return false;
    }
  });
}

const ACT = { meld: "act-meld", lay_off: "act-lay_off", discard: "act-discard" };

/** Highlight what the step asks for: the draw's button, the cards to select (or to unselect), then the button
 * that plays them (or, when several moves fit, the meld to lay off on or the way to choose). */
function highlight(p, step) {
  const content = p.content;
  if (!step.move) return;
  if (step.move.type === "draw") {
    mark(moveButton(content, step.move));
    return;
  }
  const cardEls = [...content.querySelectorAll("[data-role=hand-card]")];
  const codeOf = (el) => plain(el.dataset.key.split("#")[0]);
  const pressed = (el) => el.getAttribute("aria-pressed") === "true";
  // The cards still wanted (selected ones are crossed off); a selected card not wanted is to be unselected.
  const missing = (step.select || []).map(plain);
  const extra = [];
  for (const el of cardEls.filter(pressed)) {
    const i = missing.indexOf(codeOf(el));
    if (i >= 0) missing.splice(i, 1);
    else extra.push(el);
  }
  if (extra.length) {
    extra.forEach(mark);
    return;
  }
  if (missing.length) {
    for (const el of cardEls.filter((x) => !pressed(x))) {
      const i = missing.indexOf(codeOf(el));
      if (i >= 0) {
        missing.splice(i, 1);
        mark(el);
      }
    }
    return;
  }
  if (p.pick) {
    const target = content.querySelector(`[data-role=lay-off-target][data-meld="${step.meld}"]`);
    const way = [...content.querySelectorAll("[data-role=pick-move]")].find((b) => sameMove(JSON.parse(b.dataset.move), step.move));
    mark(target || way);
    return;
  }
  mark(content.querySelector(`[data-role=${ACT[step.move.type]}]`));
}

// ------------------------------------------------------------------------------------------ the panel

function me() {
  const s = api.session();
  return s ? s.username : null;
}

function botName(g) {
  const other = ((g && g.players) || []).find((x) => x.username !== me());
  return other ? other.username : "Bot Anna";
}

function isGuest() {
  const s = api.session();
  return !!(s && s.guest);
}

/** The end: the score explained (placed minus in hand), then where to go next. */
function endPanel(result) {
  const details = (result && result.details) || {};
  const players = details.players || {};
  const scores = (result && result.scores) || {};
  const mine = me();
  const names = Object.keys(scores).sort((a, b) => (b === mine) - (a === mine)); // the player first
  const lines = names.map((name) => {
    const row = players[name] || {};
    const who = name === mine ? t("You") : name; // (not inside t()'s arguments: the extractor would miss it)
    return h("li", { dataset: { role: "demo-score", username: name } },
      t("%(player)s: %(placed)s placed − %(hand)s in hand = %(score)s", {
        player: who,
        placed: number(row.placed_value || 0),
        hand: number(row.hand_value || 0),
        score: W.points(scores[name]),
      }));
  });
  const wentOut = details.went_out === mine;
  return [
    h("h2", { id: "demo-title", tabindex: "-1", dataset: { focus: "demo-title" } }, wentOut ? t("You went out: the round is over!") : t("The round is over.")),
    h("p", { id: "demo-instruction", dataset: { role: "demo-instruction" } },
      t("In Rummy 500 a round scores the cards you placed on the table (melds and lay-offs) minus the cards left in your hand, which count against you (an ace or a joker in hand costs 15)."),
      " ", t("Over several rounds, the first to reach 500 points wins the game.")),
    h("ul", { class: "demo-scores", dataset: { role: "demo-scores" } }, lines),
    h("p", {}, t("You know the game now. What next?")),
    h("div", { class: "demo-actions" },
      h("a", { class: "button primary", href: "#/practice", dataset: { role: "demo-practice" } }, t("Practise against bots")),
      isGuest() ? h("button", { type: "button", dataset: { role: "demo-register" }, onclick: register }, t("Create an account")) : null,
      h("button", { type: "button", dataset: { role: "demo-close" }, onclick: dismiss }, t("Keep playing here"))),
  ];
}

async function register() {
  // The guest's token is given up (and the demo table with it); the sign-in page has the registration form.
  sessionStorage.removeItem(STORE);
  await api.signOut();
  location.hash = "#/login";
}

function dismiss() {
  if (!guide) return;
  guide.dismissed = true;
  guide.panel.hidden = true;
}

function render(p) {
  const g = p.game;
  const panel = guide.panel;
  if (!panel.isConnected) p.root.prepend(panel);
  if (guide.dismissed) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const bot = botName(g);
  // The demo's round is the first; its result stays on show after the next deal.
  if (g && g.round === 1 && g.phase === "over" && g.result) guide.result = g.result;
  if (guide.result || (g && g.round > 1)) {
    const key = "end";
    if (guide.shown !== key) {
      guide.shown = key;
      append(clear(panel), endPanel(guide.result));
      panel.dataset.step = "score";
      panel.classList.add("demo-end");
      stopHint();
      // The round just ended under the player's last tap: the explanation is where they look next.
      const title = panel.querySelector("#demo-title");
      if (title) title.focus({ preventScroll: true });
      panel.scrollIntoView({ block: "start" });
    }
    return;
  }
  if (!g || !g.round || !g.phase) {
    show("wait", { title: t("Dealing the cards"), text: t("%(bot)s deals seven cards to each of you…", { bot }), hint: "" }, null);
    return;
  }
  const step = currentStep(guide.steps, g, me());
  const said = step ? words(step, g, bot) : generalHelp(g, me());
  show(step ? step.key : "help", said, botNews(guide.botMoves, g, bot));
  if (step) highlight(p, step);
  // Progress (a move, a change of the selection) restarts the hint's clock.
  const progress = JSON.stringify([g.version, selectedCodes(p.hand), !!p.pick]);
  if (progress !== guide.progress) {
    guide.progress = progress;
    armHint(said.hint);
  }
}

/** The panel's words for a step: redrawn only when they change, so a screen reader hears each once. */
function show(key, said, news) {
  const panel = guide.panel;
  const playerStep = playerSteps(guide.steps).findIndex((s) => s.key === key);
  const fingerprint = JSON.stringify([key, said.text, news]);
  panel.dataset.step = key;
  if (fingerprint === guide.shown) return;
  guide.shown = fingerprint;
  append(clear(panel), [
    h("h2", { id: "demo-title" },
      playerStep >= 0 ? t("Demo · step %(n)s of %(total)s: %(title)s", { n: number(playerStep + 1), total: number(playerSteps(guide.steps).length), title: said.title }) : t("Demo · %(title)s", { title: said.title })),
    news ? h("p", { class: "demo-news", dataset: { role: "demo-news" } }, news) : null,
    h("p", { id: "demo-instruction", dataset: { role: "demo-instruction" } }, said.text),
    h("p", { class: "demo-hint", dataset: { role: "demo-hint" }, hidden: true })]);
}

// ----------------------------------------------------------------------------------------- the hint

function stopHint() {
  if (guide && guide.hintTimer) clearTimeout(guide.hintTimer);
  if (guide) guide.hintTimer = null;
}

function armHint(text) {
  stopHint();
  const box = guide.panel.querySelector("[data-role=demo-hint]");
  if (box) box.hidden = true;
  if (!text) return;
  const current = guide;
  guide.hintTimer = setTimeout(() => {
    if (guide !== current) return;
    const el = guide.panel.querySelector("[data-role=demo-hint]");
    if (!el) return;
    el.textContent = text;
    el.hidden = false;
  }, tuning.hintSeconds * 1000);
}

// ------------------------------------------------------------------------------------- the table hook

/** After each redraw of the table page (table.js): say what to do, and catch up with the moves made since. */
function onDrawn(event) {
  const p = event.detail;
  if (!guide || !p || !p.table || p.table.id !== guide.tableId) return;
  guide.page = p;
  render(p);
  const current = guide;
  const g = p.game;
  // one read at a time, in order: the player's move clears the bot's news, the bot's moves after it add to it
  current.reading = current.reading.then(() => catchUp(current, g));
}

/** The moves since the view last seen, read from the game's events (the page may show the bot's moves before
 * its own events poll brings them): the bot's since the player's last move are explained. */
async function catchUp(current, g) {
  if (!g || !g.id || current.version === g.version) return;
  const from = current.version;
  current.version = g.version;
  if (from === null || from > g.version) return;
  let answer;
  try {
    answer = await api.get(`/games/${g.id}/events/?after=${from}&wait=0`);
  } catch (_) {
    return; // the explanation is a nicety: the guide goes on without it
  }
  if (guide !== current) return;
  let changed = false;
  for (const e of answer.events || []) {
    if (e.kind !== "move" || e.version > g.version) continue;
    changed = true;
    if (e.player === me()) current.botMoves = [];
    else current.botMoves.push(e.move || {});
  }
  if (changed && current.page) render(current.page);
}

window.addEventListener("ramino:table-drawn", onDrawn);

/** The guide on for the demo table `tableId` (its script from POST /demo/'s answer, kept in this tab). */
function attach(tableId) {
  stop();
  const kept = saved();
  const steps = kept && kept.table === tableId ? kept.steps || [] : [];
  guide = {
    tableId, steps, version: null, page: null, reading: Promise.resolve(), botMoves: [], shown: null, progress: null, hintTimer: null, dismissed: false, result: null,
    // a tab stop: on a phone it scrolls inside itself, and a keyboard must reach what it holds
    panel: h("section", { class: "demo-guide panel", role: "region", "aria-labelledby": "demo-title", tabindex: "0", "aria-live": "polite", dataset: { role: "demo-guide" } }),
  };
}

function stop() {
  stopHint();
  if (guide && guide.panel.isConnected) guide.panel.remove();
  guide = null;
}

// ------------------------------------------------------------------------------------------- #/demo

/** #/demo: a demo table for this tab (a new guest without a session), then its table page. */
async function start(root, go) {
  clear(root).append(
    h("section", { class: "panel demo-start", dataset: { role: "demo-start" } },
      h("h1", {}, t("Demo: learn Rummy 500")),
      h("p", { dataset: { role: "demo-status" } }, t("Setting the table: you play one round against Bot Anna, and the guide tells you what to do."))));
  let answer;
  try {
    answer = await api.post("/demo/");
  } catch (err) {
    if (err.status === 401) answer = await api.post("/demo/").catch(() => null); // an old token: as a guest
    if (!answer) {
      const status = root.querySelector("[data-role=demo-status]");
      if (status) status.textContent = err.describe ? err.describe() : String(err);
      root.querySelector("[data-role=demo-start]").append(
        h("button", { type: "button", dataset: { role: "demo-retry" }, onclick: () => start(root, go) }, t("Try again")));
      return;
    }
  }
  sessionStorage.setItem(STORE, JSON.stringify({ table: answer.table, game: answer.game, steps: answer.steps }));
  if (answer.token) api.setSession({ token: answer.token, expiry: null, username: answer.username, guest: true });
  go(`#/demo/${answer.table}`);
}

// How long the guide waits before it shows a hint (the browser tests shorten it: window.Ramino.demo, app.js).
const tuning = { hintSeconds: 15 };

/** The guide of the open demo table (null elsewhere): demo-words.js reads its steps. */
function openGuide() {
  return guide;
}

export { start, attach, stop, currentStep, sameMove, tuning, openGuide };
