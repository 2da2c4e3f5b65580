/* The table: the game as the API shows this player (their own hand to select and act on, the pile, everyone's
 * melds with who placed each card, hand counts, scores, the turn clock and time bank in words), the legal moves
 * (the server's, the only source of truth) through the hand's actions and as a list, live updates from the
 * events long-poll (others' moves and "your turn" read out by a live region), each round's results in words
 * with a countdown to the next deal, and the round history with the deal check. A tournament's table shows
 * its tournament, points toward the target or tournament chips, and no buy-in, top-up or leave. */
import * as api from "./api.js";
import * as chat from "./chat.js";
import { h, clear, flash, sleep } from "./dom.js";
import * as felt from "./felt.js";
import { t, number } from "./i18n.js";
import { overlay } from "./lib/presence.mjs";
import * as lobby from "./lobby.js";
import * as notify from "./notify.js";
import * as presence from "./presence.js";
import * as socket from "./socket.js";
import * as W from "./table-words.js";
import { meldCards, seatedHere } from "./table-board.js";
import { me, tournamentOf } from "./table-facts.js";
import { onKey } from "./table-moves.js";
import { countdownText, resultSentences } from "./table-results.js";
import { announce, clockText, draw } from "./table-view.js";

let page = null; // the open table page; replaced (and its loops stopped) on every navigation
let moved = null; // {from, to}: the move the last page followed, for the table it went to to say

// ---------------------------------------------------------------------------------------- data loops

async function refreshGame(p, force) {
  try {
    p.table = await api.get(`/tables/${p.tableId}/`);
  } catch (err) {
    if (err.status !== 404) throw err;
    flash(t("No such table (or it is private and you are not seated)."), "error");
    return;
  }
  if (seatedHere(p)) p.seatedHere = true;
  if (followMove(p)) return;
  const gid = p.table.current_game || (p.game && p.game.id);
  try {
    p.game = gid ? await api.get(`/games/${gid}/`) : null;
  } catch (err) {
    // A private table's creator sees the table before sitting, but its game only once seated.
    if (err.status !== 404) throw err;
    p.game = null;
  }
  applyPresence(p);
  if (p.game && p.game.phase !== "over") p.dismissed = null;
  if (p.game && p.game.round !== p.shownRound) {
    p.shownRound = p.game.round;
    p.pick = null;
  }
  await felt.readTournament(p, force);
  // An idle refresh that finds nothing new leaves the page alone (no redraw under the player's hands).
  const snapshot = JSON.stringify([p.table, p.game, p.tour || null]);
  if (snapshot === p.snapshot && !force) return;
  p.snapshot = snapshot;
  draw(p);
}

/** The tournament moved this page's player to another table (balancing, or breaking this one): the page
 * goes there by itself and says so at the new table, once, in the moment over the felt (a status, so said
 * aloud too) and on its head. No flash besides: it covered the strip's title while saying the same. Answers
 * whether it left. */
function followMove(p) {
  const tour = tournamentOf(p);
  if (page !== p || !tour || !p.seatedHere || !tour.my_table || tour.my_table === p.table.id) return false;
  const to = tour.my_table;
  moved = { from: p.table.id, to };
  location.hash = `#/table/${to}`;
  return true;
}

async function refreshRounds(p) {
  if (!p.game) return;
  try {
    const answer = await api.get(`/games/${p.game.id}/rounds/?page_size=500`);
    p.rounds = answer.results || [];
  } catch (_) {
    p.rounds = []; // not a player of this table (403): no history to show
  }
  draw(p);
}

/** "I'm back": the moves the server played for this player while their connection was down (presence.js). */
async function checkAway(p) {
  if (!p.game || !p.seatedHere) return;
  const summary = await presence.check(p.game.id);
  if (page !== p || !summary || (p.away && p.away.back_at === summary.back_at)) return;
  p.away = summary;
  p.focusNext = "while-away";
  draw(p);
  announce(p, t("Welcome back: the server played for you while you were away."));
}

/** Who is connected changed (the socket's `presence`): the players' list says it. The socket's last word is
 * kept: its messages come in order, while a game view read before one of them may be answered after it, and
 * must not undo it (`applyPresence`). */
function presenceChanged(p, detail) {
  if (page !== p || !p.game || detail.topic !== `game:${p.game.id}`) return;
  p.presence = { game: p.game.id, players: { ...detail.players } };
  if (applyPresence(p)) draw(p);
}

/** The socket's last word on who is connected, over the game view's, while the socket is live (when it is
 * not, the view's word is the newer one). Answers whether it changed anything. */
function applyPresence(p) {
  if (!p.game || !p.presence || p.presence.game !== p.game.id || !socket.live()) return false;
  return overlay(p.game.players, p.presence.players);
}

async function pollEvents(p) {
  let after = p.game ? p.game.version : 0;
  let first = true;
  while (page === p && p.game) {
    try {
      const answer = (await socket.events(`game:${p.game.id}`, after, p.abort.signal)) || (await api.call("GET", `/games/${p.game.id}/events/?after=${after}&wait=25`, { signal: p.abort.signal }));
      const body = answer.data;
      const from = after;
      after = body.next_after;
      if (first) {
        // the first read took this player's presence back (a long-poll's, or the socket's): back after a drop?
        first = false;
        checkAway(p).catch(() => {});
      }
      if (body.events.length) {
        p.log.push(...body.events);
        const others = body.events.filter((e) => e.kind === "move" && e.player !== me());
        const said = others.map((e) => W.eventSentence(e, p.game, W.named));
        const over = body.events.find((e) => e.kind === "round_over");
        if (said.length) announce(p, said.join(" "));
        if (notify && notify.sound) {
          if (over) notify.sound("end");
          else if (others.length) notify.sound("move");
        }
        if (over || body.events.some((e) => e.kind === "table_closed")) p.tourRead = 0;
        await refreshGame(p);
        if (page === p && p.oneScreen) felt.animate(p, from, after, body.events, me());
        if (body.events.some((e) => e.kind === "round_over" || e.kind === "round_started" || e.kind === "table_closed")) await refreshRounds(p);
        if (over) {
          const r = (p.rounds || []).find((x) => x.number === over.round);
          if (r) announce(p, [t("Round %(round)s is over.", { round: number(over.round) }), ...resultSentences(p, r)].join(" "));
        }
      } else if (answer.headers.get("Retry-After")) {
        await sleep(1000 * Number(answer.headers.get("Retry-After") || 1));
      } else {
        // a quiet spell: seats may have changed (sitting is no game event)
        await refreshGame(p);
      }
    } catch (err) {
      if (page !== p || (err && err.name === "AbortError")) return;
      if (err.status === 403 || err.status === 404) {
        // a spectator reads no event stream: refresh the public view now and then instead
        await sleep(3000);
        await refreshGame(p).catch(() => {});
        continue;
      }
      await sleep(2000);
    }
  }
}

function stop() {
  if (!page) return;
  page.abort.abort();
  clearInterval(page.timer);
  document.removeEventListener("keydown", page.keys);
  window.removeEventListener("ramino:presence", page.onPresence);
  window.removeEventListener("ramino:subscribed", page.onSubscribed);
  if (notify && typeof notify.yourTurn === "function") notify.yourTurn(false);
  felt.atTable(false);
  felt.resetMotion();
  page = null;
}

async function load(root, tableId) {
  stop();
  const p = {
    root, tableId, table: null, game: null, rounds: [], log: [], busy: false, abort: new AbortController(), timer: null,
    hand: { order: [], selected: new Set(), focus: null, dragging: false, suppressClick: false },
    open: { moves: false, shortcuts: false, drawer: false }, pick: null, confirmLeave: false, dismissed: null, focusNext: null, myTurn: false, said: "", saidAt: 0,
    content: h("div", { class: "table-content" }),
    live: h("div", { class: "live", role: "status", "aria-live": "polite", "aria-atomic": "true", dataset: { role: "announcer" } }),
  };
  if (moved && moved.to === tableId) {
    p.moved = moved;
    p.seatedHere = true;
  }
  moved = null;
  page = p;
  p.keys = (event) => onKey(p, event);
  p.onPresence = (event) => presenceChanged(p, event.detail);
  p.onSubscribed = (event) => {
    if (p.game && event.detail.topic === `game:${p.game.id}`) checkAway(p).catch(() => {});
  };
  window.addEventListener("ramino:presence", p.onPresence);
  window.addEventListener("ramino:subscribed", p.onSubscribed);
  clear(root).append(p.content, p.live);
  p.content.append(h("p", {}, t("Loading the table…")));
  await refreshGame(p);
  if (page !== p || !p.table) return;
  if (!p.table.practice) lobby.remember(p.table.id);
  if (!p.table.practice) chat.mount(`table:${p.table.id}`, { drawer: true });
  await refreshRounds(p);
  document.addEventListener("keydown", p.keys);
  p.timer = setInterval(() => {
    if (page !== p) return;
    const el = p.content.querySelector("[data-role=clock]");
    if (el) el.textContent = clockText(p);
    const down = p.content.querySelector("[data-role=countdown]");
    if (down) down.textContent = countdownText(p);
    if (p.oneScreen) felt.tick(p, me());
    if (!p.hand.dragging && p.pendingDraw) draw(p);
  }, 250);
  pollEvents(p);
}

const redraw = () => page && draw(page);

/** The open table page (null when none): its modules read it through this. */
function openPage() {
  return page;
}

export { load, stop, meldCards, redraw, openPage, refreshGame };
