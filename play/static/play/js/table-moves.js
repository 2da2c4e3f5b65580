/* The table's moves: playing one (a legal move from the server, with the game's version and an idempotency
 * key), the buttons that play them (the action bar, the choice among several, every legal move as a list) and
 * the keyboard shortcuts. */
import * as api from "./api.js";
import { h, flash } from "./dom.js";
import { t, number } from "./i18n.js";
import { barMoves, groupMoves, moveBody, pileDraw, stockDraw } from "./lib/moves.mjs";
import * as W from "./table-words.js";
import { errorText, me, sent } from "./table-facts.js";
import { draw } from "./table-view.js";
import { openPage, refreshGame } from "./table.js";

// --------------------------------------------------------------------------------------------- moves

async function play(move) {
  const current = openPage();
  if (!current || !current.game || current.busy) return;
  current.busy = true;
  current.pick = null;
  current.content.querySelectorAll("[data-role=move], [data-act]").forEach((b) => (b.disabled = true));
  try {
    await api.post(`/games/${current.game.id}/moves/`, moveBody(move, current.game.version), sent({ "Idempotency-Key": api.newKey() }));
    current.hand.selected.clear();
  } catch (err) {
    if (err.code !== "game.stale_version") flash(t("The move was refused: %(message)s", { message: errorText(err) }), "error");
  } finally {
    current.busy = false;
  }
  if (openPage() === current) await refreshGame(current, true);
}

function moveButton(g, move, content, extraClass) {
  return h("button", {
    type: "button",
    class: `move ${extraClass || ""}`.trim(),
    dataset: { role: "move", type: move.type, move: JSON.stringify(move), focus: `move:${JSON.stringify(move)}${extraClass ? `:${extraClass}` : ""}` },
    onclick: () => play(move),
  }, content || W.label(move, g));
}

/** The legal moves a selection does not make (drawing, passing a call, closing, ending the round, keeping or
 * refusing the deal, a "Rummy!" call), as buttons of the action bar. */
function barButtons(p, g) {
  const out = [];
  const { stock, top, others, calls } = barMoves(g.legal_moves, g.discard_pile);
  if (stock) out.push(moveButton(g, stock, t("Draw"), "bar"));
  if (top) out.push(moveButton(g, top, t("Take %(card)s", { card: W.shown(top.card) }), "bar"));
  for (const m of others) out.push(moveButton(g, m, null, "bar"));
  if (calls.length === 1) out.push(moveButton(g, calls[0], null, "bar"));
  else if (calls.length > 1) out.push(h("button", { type: "button", class: "move bar", dataset: { role: "act-calls", focus: "act-calls" }, onclick: () => { p.open.drawer = true; p.open.moves = true; p.focusNext = "moves-toggle"; draw(p); } }, t("Rummy! (%(n)s ways)", { n: number(calls.length) })));
  return out;
}

/** Several legal moves use the selection: the player chooses (a meld on the table is also a button). */
function pickPanel(p, g) {
  const title = p.pick.kind === "lay_off" ? t("Which meld? Click it on the table or choose here.") : t("Which way? Choose one.");
  return h("div", { class: "pick", role: "group", "aria-label": title, dataset: { role: "pick" } },
    h("p", { class: "hint" }, title),
    p.pick.moves.map((m, i) => h("button", { type: "button", dataset: { role: "pick-move", focus: `pick:${i}`, move: JSON.stringify(m) }, onclick: () => play(m) }, W.label(m, g))),
    h("button", { type: "button", dataset: { role: "pick-cancel", focus: "pick-cancel" }, onclick: () => { p.pick = null; draw(p); } }, t("Cancel")));
}

/** Every legal move as a button: the accessible fallback, in a collapsible list. */
function movesPanel(p, g) {
  const moves = g.legal_moves || [];
  const turn = g.turn && g.turn.player;
  const groups = [
    ["draw", t("Draw")],
    ["meld", t("Meld")],
    ["lay_off", t("Lay off")],
    ["swap_joker", t("Swap a joker")],
    ["call_rummy", t("Rummy!")],
    ["pass_claim", ""],
    ["close", ""],
    ["end_round", ""],
    ["keep_deal", ""],
    ["refuse_deal", ""],
    ["discard", t("Discard (ends your turn)")],
  ];
  const lists = groupMoves(moves, groups, t("Other"));
  const details = h("details", { class: "panel moves", open: p.open.moves, dataset: { role: "moves", empty: String(!moves.length) } },
    h("summary", { dataset: { role: "moves-toggle", focus: "moves-toggle" } }, t("Every legal move as a list (%(n)s)", { n: number(moves.length) })),
    moves.length
      ? lists.map(([title, l]) => h("div", { class: "move-group" }, title ? h("h3", {}, title) : null, l.map((m) => moveButton(g, m))))
      : h("p", { class: "hint" }, g.status !== "playing" ? t("Nothing to do right now.") : turn && turn !== me() ? t("Waiting for %(player)s.", { player: turn }) : t("Nothing to do right now.")));
  details.addEventListener("toggle", () => (p.open.moves = details.open));
  return details;
}

// ------------------------------------------------------------------------------------------ keyboard

function onKey(p, event) {
  if (openPage() !== p || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.closest("input, textarea, select") || target.isContentEditable)) return;
  const g = p.game;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const moves = (g && g.legal_moves) || [];
  const click = (css) => {
    const el = p.content.querySelector(css);
    if (el && !el.disabled) {
      event.preventDefault();
      el.click();
    }
  };
  switch (key) {
    case "s": {
      const m = stockDraw(moves);
      if (m) {
        event.preventDefault();
        play(m);
      }
      break;
    }
    case "p": {
      const m = pileDraw(moves, g && g.discard_pile);
      if (m) {
        event.preventDefault();
        play(m);
      }
      break;
    }
    case "m":
      click("[data-role=act-meld]");
      break;
    case "l":
      click("[data-role=act-lay_off]");
      break;
    case "d":
      click("[data-role=act-discard]");
      break;
    case "h": {
      const el = p.content.querySelector("[data-role=hand-card][tabindex='0']");
      if (el) {
        event.preventDefault();
        el.focus();
      }
      break;
    }
    case "Escape":
      if (p.hand.selected.size || p.pick || p.confirmLeave) {
        event.preventDefault();
        p.hand.selected.clear();
        p.pick = null;
        p.confirmLeave = false;
        draw(p);
      }
      break;
    default:
  }
}


export { play, moveButton, barButtons, pickPanel, movesPanel, onKey };
