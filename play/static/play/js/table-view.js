/* Drawing the table page: the clock and state in words, the whole page (or the one-screen felt when seated),
 * and the live region's announcements. */
import { h, clear } from "./dom.js";
import * as felt from "./felt.js";
import { t, number } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as notify from "./notify.js";
import * as presence from "./presence.js";
import * as W from "./table-words.js";
import { board, handPanel, playersPanel, seatedHere } from "./table-board.js";
import { me, myTurn, tournamentOf } from "./table-facts.js";
import { header } from "./table-head.js";
import { movesPanel } from "./table-moves.js";
import { logPanel, resultsPanel, roundsPanel, shortcutsPanel } from "./table-results.js";
import { openPage } from "./table.js";

// ------------------------------------------------------------------------------------ clocks and state

function clockText(p) {
  const g = p.game;
  if (!g || g.status !== "playing" || !g.turn) {
    if (g && g.next_round_at) {
      const s = Math.max(0, Math.ceil((Date.parse(g.next_round_at) - Date.now()) / 1000));
      return s > 0 ? t("Next deal in %(time)s.", { time: W.duration(s) }) : t("Dealing the next round…");
    }
    if (g && g.status === "closed") return "";
    if (tournamentOf(p)) return g && g.round ? t("The next deal comes once the tournament has counted the round.") : t("Waiting for the tournament's first deal.");
    return g && g.status === "waiting" ? t("Waiting for two seated players with chips.") : "";
  }
  const turn = g.turn;
  const deadline = turn.deadline ? Date.parse(turn.deadline) : null;
  if (deadline === null) return turn.player ? t("%(player)s to play.", { player: turn.player }) : "";
  const left = Math.max(0, (deadline - Date.now()) / 1000);
  if (g.phase === "claims") return t("Rummy! calls are open for %(time)s: %(players)s may call.", { time: W.seconds(Math.ceil(left)), players: (turn.claims || []).join(", ") });
  const row = (g.players || []).find((x) => x.username === turn.player);
  const bank = row && row.time_bank !== null && row.time_bank !== undefined ? Number(row.time_bank) : 0;
  const turnLeft = Math.ceil(Math.max(0, left - bank));
  const bankLeft = Math.ceil(Math.min(bank, left));
  const mine = turn.player === me();
  if (turnLeft > 0 && bankLeft > 0) {
    return mine ? t("Your turn: %(turn)s left, then %(bank)s of time bank.", { turn: W.seconds(turnLeft), bank: W.seconds(bankLeft) })
      : t("%(player)s's turn: %(turn)s left, then %(bank)s of time bank.", { player: turn.player, turn: W.seconds(turnLeft), bank: W.seconds(bankLeft) });
  }
  if (turnLeft > 0) return mine ? t("Your turn: %(turn)s left.", { turn: W.seconds(turnLeft) }) : t("%(player)s's turn: %(turn)s left.", { player: turn.player, turn: W.seconds(turnLeft) });
  return mine ? t("Your turn, on your time bank: %(bank)s left.", { bank: W.seconds(bankLeft) }) : t("%(player)s's turn, on the time bank: %(bank)s left.", { player: turn.player, bank: W.seconds(bankLeft) });
}

function statusText(g) {
  if (!g) return "";
  if (g.status === "closed") return t("The table is closed.");
  if (g.phase === "over") return t("Round %(round)s is over.", { round: number(g.round) });
  if (g.round) return t("Round %(round)s · %(phase)s", { round: number(g.round), phase: W.phaseWord(g.phase) });
  return t("No round yet.");
}

// ------------------------------------------------------------------------------------------- drawing

function draw(p) {
  if (openPage() !== p) return;
  if (p.hand.dragging) {
    p.pendingDraw = true;
    return;
  }
  p.pendingDraw = false;
  const root = p.content;
  const g = p.game;
  // Focus and scroll survive the redraw: the element with the same data-focus key gets the focus back.
  const active = document.activeElement;
  const wasCard = !!(active && root.contains(active) && active.dataset && active.dataset.role === "hand-card");
  // on a card, the hand's own focus (the arrow keys and drags move it) is where the focus goes back
  const focusKey = p.focusNext || (wasCard && p.hand.focus ? `card:${p.hand.focus}` : active && root.contains(active) && active.dataset ? active.dataset.focus : null);
  p.focusNext = null;
  const scroll = window.scrollY;
  clear(root);
  const clock = h("p", { class: "clock", dataset: { role: "clock" } }, clockText(p));
  p.oneScreen = !!g && seatedHere(p);
  felt.atTable(p.oneScreen);
  if (p.oneScreen) root.append(oneScreen(p, g, clock));
  else root.append(
    h("section", { class: `table-page${tournamentOf(p) ? " tournament-table" : ""}`, dataset: { role: "table-page", table: p.table.id, game: g ? g.id : "", version: g ? g.version : "", phase: (g && g.phase) || "", round: (g && g.round) || "", tournament: tournamentOf(p) ? tournamentOf(p).id : "" } },
      header(p),
      // a finished tournament's winner, once, to its players: the seats were cashed out, so no longer one screen
      p.tour && p.tour.detail.status === "finished" && p.tour.standings.some((r) => r.username === me()) ? felt.moment(p, me()) : null,
      p.away && g ? presence.panel(p.away, g, me(), !!p.table.practice, () => { p.away = null; p.focusNext = "heading"; draw(p); }) : null,
      g ? h("div", { class: "status-line" }, h("strong", { dataset: { role: "status" } }, statusText(g)), clock) : h("p", { class: "hint" }, t("Sit to see the game.")),
      resultsPanel(p, g),
      g ? h("div", { class: "table-grid" },
        h("div", { class: "left" }, board(p, g), handPanel(p, g), movesPanel(p, g)),
        h("div", { class: "right" }, playersPanel(p, g), logPanel(p), shortcutsPanel(p))) : null,
      roundsPanel(p)));
  if (focusKey) {
    let el = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
    // the element is gone (a played card, a draw that is no longer offered): the hand, else the heading
    if (!el || el.disabled) el = root.querySelector("[data-role=hand-card][tabindex='0']");
    if (!el || el.disabled) el = root.querySelector("[data-focus=heading]");
    if (el) el.focus({ preventScroll: true });
  }
  window.scrollTo(window.scrollX, scroll);
  if (p.oneScreen) {
    felt.fit(root);
    felt.tick(p, me());
  }
  turnNotice(p);
  // The one hook for guides over the table (demo.js): the page as just drawn.
  window.dispatchEvent(new CustomEvent("ramino:table-drawn", { detail: p }));
}

/** A long name cut at a word, to fit the strip's two lines ("Torneo della domenica…"). */
function shortName(name, most = 20) {
  if (name.length <= most) return name;
  const cut = name.slice(0, most - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > most / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Seated at a game: one screen, no scrolling (felt.css): the strip (title, state, clock, the drawer's button),
 * the turn bar, a tournament's strip, the felt (seats, stock, pile, melds; the results and the moments over it),
 * the hand with its action bar, and the drawer with the rest (the table's head, players, every legal move, what
 * happened, the keys, the round history). */
function oneScreen(p, g, clock) {
  const head = header(p);
  const tour = tournamentOf(p);
  // the head's heading goes to the strip; the drawer's head keeps the same words as its first line
  let title = head.querySelector("h1");
  if (title) title.replaceWith(h("p", { class: "head-title" }, title.textContent));
  else title = h("h1", { tabindex: "-1", dataset: { focus: "heading" } }, t("Table %(id)s · %(game)s", { id: `#${p.table.id}`, game: lobby.gameName(p.table.game) }));
  // on a phone's strip, short words that fit in two lines: the game (a tournament's name) and the table's number
  if (!p.table.practice) title.textContent = t("%(name)s · Table %(table)s", { name: tour ? shortName(tour.name) : lobby.gameName(p.table.game), table: String(p.table.id) });
  title.dataset.role = "strip-title";
  const mine = myTurn(g);
  return h("section", { class: `table-page one-screen${tour ? " tournament-table" : ""}${mine ? " my-turn" : ""}`, dataset: { role: "table-page", table: p.table.id, game: g.id, version: g.version, phase: g.phase || "", round: g.round || "", tournament: tour ? tour.id : "", myTurn: String(mine) } },
    h("div", { class: "table-strip" },
      title,
      h("div", { class: "strip-state" }, h("strong", { dataset: { role: "status" } }, statusText(g)), clock),
      felt.drawerToggle(p, () => draw(p))),
    felt.turnBar(),
    felt.strip(p, g, me()),
    h("div", { class: "felt-area" },
      board(p, g),
      // over the felt: what the player must read before playing on (the results panel, the summary of moves
      // played while away, a tournament's moment); results-slot is the results panel's place
      h("div", { class: "felt-overlays", dataset: { role: "results-slot" } },
        p.away ? presence.panel(p.away, g, me(), !!p.table.practice, () => { p.away = null; p.focusNext = "heading"; draw(p); }) : null,
        resultsPanel(p, g),
        felt.moment(p, me()))),
    handPanel(p, g),
    felt.drawer(p, () => draw(p), [head, playersPanel(p, g), movesPanel(p, g), logPanel(p), shortcutsPanel(p), roundsPanel(p)]));
}

/** "Your turn": said once by the live region when it starts, and to the tab (notify, when the page has it). */
function turnNotice(p) {
  const mine = myTurn(p.game);
  if (mine === p.myTurn) return;
  p.myTurn = mine;
  if (notify && typeof notify.yourTurn === "function") notify.yourTurn(mine);
  if (mine) {
    const g = p.game;
    announce(p, g.phase === "draw" ? t("Your turn: draw from the stock or the discard pile.") : g.phase === "claims" ? t("You may call Rummy! now.") : t("Your turn."));
  }
}

/** Words for the live region; what comes within two seconds joins what was just said (a move, then "your
 * turn"), and each time it is a new node, so the same words twice are read twice. */
function announce(p, text) {
  if (!text) return;
  const now = Date.now();
  p.said = p.said && now - p.saidAt < 2000 ? `${p.said} ${text}` : text;
  p.saidAt = now;
  clear(p.live).append(h("span", {}, p.said));
}


export { clockText, statusText, draw, oneScreen, turnNotice, announce };
