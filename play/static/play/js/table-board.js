/* The table's board and hand: everyone's melds (who placed which cards), the seats, the player's own hand with
 * its actions, and the players' list with the totals. */
import { card } from "./cards.js";
import { h } from "./dom.js";
import * as felt from "./felt.js";
import * as hand from "./hand.js";
import { t, tn, number } from "./i18n.js";
import * as players from "./players.js";
import * as presence from "./presence.js";
import * as W from "./table-words.js";
import { chipUnit, me, myTurn, scoresPoints, tournamentOf } from "./table-facts.js";
import { barButtons, moveButton, pickPanel, play } from "./table-moves.js";
import { draw } from "./table-view.js";

// ------------------------------------------------------------------------------------------ the board

/** A meld's cards, who placed them said once for each group of cards one player put down (and not at all
 * when the meld's owner placed every card: its heading names them). Shared with the replay. */
function meldCards(m, colours) {
  const runs = W.placedRuns(m);
  const named = runs.length > 1 || (runs.length === 1 && runs[0].placer && runs[0].placer !== m.owner);
  // at the table each placer has a colour (their seat's): a line under their cards, the name for screen readers
  const colour = (who) => (colours && who in colours ? ` placer-${colours[who]}` : "");
  return h("div", { class: "meld-cards" }, runs.map((run) =>
    h("span", { class: `placed-run${colour(run.placer)}`, dataset: { role: "placed-run", placer: run.placer } },
      h("span", { class: "run-cards" }, run.cards.map((code) => card(code))),
      named ? h("small", { class: "placer", dataset: { role: "placer" } }, run.placer) : null)));
}

/** A seated player (not one who has left): their cards come with the deal. */
function seatedHere(p) {
  return !!(p.table && (p.table.players || []).some((x) => x.username === me() && x.status !== "left"));
}

function board(p, g) {
  const moves = g.legal_moves || [];
  const stockMove = moves.find((m) => m.type === "draw" && m.source === "stock");
  const pileMoves = new Map(moves.filter((m) => m.type === "draw" && m.source === "discard").map((m) => [m.index, m]));
  const stockText = t("Stock · %(n)s", { n: number(g.stock_count ?? 0) });
  // on one screen the stock is a card back with its count on it; the words stay for screen readers
  const stockFace = p.oneScreen ? [h("span", { class: "visually-hidden" }, stockText), h("span", { class: "stock-count", "aria-hidden": "true" }, number(g.stock_count ?? 0))] : stockText;
  const stock = stockMove ? moveButton(g, stockMove, stockFace, "stock") : h("span", { class: "stock", dataset: { role: "stock" } }, stockFace);
  const pile = (g.discard_pile || []).map((code, index) => {
    const move = pileMoves.get(index);
    return move ? moveButton(g, move, card(code, { title: W.label(move, g) }), "pile-card") : card(code, { class: "pile-card" });
  });
  const targets = p.pick && p.pick.kind === "lay_off" ? new Map(p.pick.moves.map((m) => [m.meld, m])) : new Map();
  const colours = p.oneScreen ? felt.placerColours(g) : null;
  const melds = (g.melds || []).map((m) => {
    const cards = meldCards(m, colours);
    const target = targets.get(m.id);
    if (target) {
      return h("button", { type: "button", class: "meld target", dataset: { role: "lay-off-target", meld: m.id, focus: `target:${m.id}` }, title: W.label(target, g), onclick: () => play(target) },
        h("span", { class: "meld-id" }, t("Lay off here · %(owner)s", { owner: m.owner })), cards);
    }
    return h("div", { class: "meld", dataset: { role: "meld", meld: m.id } }, h("div", { class: "meld-id" }, m.owner), cards);
  });
  if (!g.round) {
    // nothing is dealt yet: no stock or pile to show (an empty stock of 0 would say the opposite)
    return h("section", { class: "board panel", "aria-labelledby": "board-title", dataset: { role: "board" } },
      h("h2", { id: "board-title", class: "visually-hidden" }, t("The table")),
      h("p", { class: "hint", dataset: { role: "no-deal" } }, t("The cards are not dealt yet.")));
  }
  const stockBox = p.oneScreen ? h("div", { class: "stock-box", dataset: { role: "stock-box" } }, h("h3", {}, t("Stock")), h("span", { class: "card-back big", "aria-hidden": "true" }), stock) : h("div", {}, h("h3", {}, t("Stock")), stock);
  return h("section", { class: "board panel", "aria-labelledby": "board-title", dataset: { role: "board" } },
    h("h2", { id: "board-title", class: "visually-hidden" }, t("The table")),
    p.oneScreen ? felt.seats(p, g, me(), { score: (pl) => seatScore(p, pl) }) : null,
    h("div", { class: "piles" },
      stockBox,
      h("div", { class: "discard" }, h("h3", {}, t("Discard pile (bottom → top)")), h("div", { class: "pile", dataset: { role: "discard-pile" } }, pile.length ? pile : t("empty")))),
    h("h3", { id: "melds-title" }, t("Melds")),
    // on one screen the melds scroll in their own box: focusable, so a keyboard can scroll it too
    h("div", { class: "melds", dataset: { role: "melds" }, ...(p.oneScreen ? { tabindex: "0", role: "region", "aria-labelledby": "melds-title" } : {}) }, melds.length ? melds : h("span", { class: "empty" }, t("No melds yet."))));
}

/** A seat's chips or points, in words, for the seats around the felt. */
function seatScore(p, pl) {
  if (p.table.practice) return "";
  if (scoresPoints(p)) return W.points(totals(p)[pl.username] || 0);
  if (pl.chips === null || pl.chips === undefined) return "";
  return chipUnit(p)(pl.chips);
}

// ------------------------------------------------------------------------------------------- the hand

function handPanel(p, g) {
  if (!Array.isArray(g.hand)) {
    // a seated player without cards waits for a deal (the first, or the next one after sitting mid-round)
    if (seatedHere(p)) {
      return h("p", { class: "hint", dataset: { role: "waiting-deal" } }, g.round && g.phase !== "over"
        ? t("You are seated: you play from the next deal.")
        : t("You are seated: your cards come with the deal."));
    }
    return h("p", { class: "hint", dataset: { role: "spectating" } }, t("You are watching: players' hands are theirs alone."));
  }
  const hs = p.hand;
  hs.order = hand.ordered(g.id, g.hand);
  hand.prune(hs);
  const redraw = () => draw(p);
  const selected = hand.selectedCodes(hs);
  const fit = hand.actions(g.legal_moves, selected);
  const duties = W.obligations(g.obligations);
  const act = (kind, moves) => {
    if (moves.length === 1) return play(moves[0]);
    p.pick = { kind, moves };
    p.focusNext = kind === "lay_off" ? `target:${moves[0].meld}` : "pick:0";
    draw(p);
    return null;
  };
  const button = (kind, text, moves, focus) => h("button", { type: "button", disabled: !moves.length || p.busy, dataset: { act: kind, role: `act-${kind}`, focus }, onclick: () => act(kind, moves) }, text);
  const hint = selected.length
    ? [
        tn("%(n)s card selected.", "%(n)s cards selected.", selected.length, { n: number(selected.length) }),
        fit.meld.length || fit.lay_off.length || fit.discard.length || fit.swap_joker.length ? "" : myTurn(g) ? t("These cards make no legal move now.") : t("Wait for your turn to play them."),
      ].filter(Boolean).join(" ")
    : myTurn(g) ? (g.phase === "draw" ? t("Draw a card: the stock, or a card of the discard pile.") : t("Select cards to meld, lay off or discard them.")) : t("Select cards to plan your play; you act on your turn.");
  return h("section", { class: "panel hand", "aria-labelledby": "hand-title", dataset: { role: "hand" } },
    h("div", { class: "hand-head" },
      h("h2", { id: "hand-title" }, tn("Your hand (%(n)s card)", "Your hand (%(n)s cards)", g.hand.length, { n: number(g.hand.length) })),
      h("div", { class: "sorts", role: "group", "aria-label": t("Sort your hand") },
        h("button", { type: "button", dataset: { role: "sort-suit", focus: "sort-suit" }, onclick: () => { hand.sortHand(g.id, hs, "suit"); redraw(); } }, t("Sort by suit")),
        h("button", { type: "button", dataset: { role: "sort-rank", focus: "sort-rank" }, onclick: () => { hand.sortHand(g.id, hs, "rank"); redraw(); } }, t("Sort by rank")))),
    duties.length ? h("ul", { class: "duties", dataset: { role: "obligations" } }, duties.map((x) => h("li", {}, x))) : null,
    hand.render(g.id, hs, redraw),
    h("p", { class: "hint", dataset: { role: "selection-hint" } }, hint),
    h("div", { class: "hand-actions", role: "group", "aria-label": t("Play the selected cards") },
      button("meld", t("Meld"), fit.meld, "act-meld"),
      button("lay_off", t("Lay off"), fit.lay_off, "act-lay-off"),
      fit.swap_joker.length ? button("swap_joker", t("Swap for the joker"), fit.swap_joker, "act-swap") : null,
      button("discard", t("Discard"), fit.discard, "act-discard"),
      h("button", { type: "button", disabled: !selected.length, dataset: { role: "act-clear", focus: "act-clear" }, onclick: () => { hs.selected.clear(); p.pick = null; redraw(); } }, t("Clear the selection")),
      // on one screen the turn's moves that use no selected card are in the bar too (the list is in the drawer)
      p.oneScreen ? barButtons(p, g) : null),
    p.pick ? pickPanel(p, g) : null);
}

// ---------------------------------------------------------------------------------------- the players

function totals(p) {
  const out = {};
  for (const r of p.rounds || []) {
    if (!r.ended_at) continue;
    for (const [name, v] of Object.entries(r.game_points || r.scores || {})) out[name] = (out[name] || 0) + v;
  }
  return out;
}

function playersPanel(p, g) {
  const turn = g.turn && g.turn.player;
  const points = scoresPoints(p);
  const multi = tournamentOf(p) && !points;
  const chipless = !!p.table.practice; // a practice table's stacks are empty: no chips column
  const sums = totals(p);
  const rows = [...(g.players || []), ...(g.waiting_players || [])];
  return h("section", { class: "panel players-panel", "aria-labelledby": "players-title" },
    h("h2", { id: "players-title" }, t("Players")),
    h("table", { class: "grid players", dataset: { role: "players" } },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col" }, t("Cards")),
        chipless ? null : h("th", { scope: "col" }, points ? t("Points") : multi ? t("Tournament chips") : t("Chips")),
        h("th", { scope: "col" }, t("Time bank")))),
      h("tbody", {}, rows.map((pl) => {
        const tags = [
          pl.username === me() ? t("you") : "",
          pl.username === g.dealer ? t("dealer") : "",
          pl.username === turn ? t("to play") : "",
          W.seatStatus(pl.status),
        ].filter(Boolean);
        const scores = (pl.scores || []).filter((s) => s !== null && s !== undefined);
        const total = sums[pl.username] ?? scores.reduce((a, b) => a + b, 0);
        return h("tr", { class: pl.username === turn ? "to-play" : "", dataset: { role: "player", username: pl.username } },
          h("th", { scope: "row" }, pl.username, players ? players.ratingBadge(pl.username, p.table.game) : null,
            tags.map((x) => h("span", { class: "tag" }, x)),
            // who is connected (docs/rules.md "Presence and reconnection"): words, not only a colour
            pl.connected === undefined ? null : h("span", { class: `tag presence ${pl.connected ? "on" : "off"}`, dataset: { role: "presence", connected: String(pl.connected) } }, presence.word(pl.connected))),
          h("td", { dataset: { role: "hand-count" } }, pl.hand_count === undefined ? "–" : number(pl.hand_count)),
          chipless ? null : h("td", { dataset: { role: points ? "points" : "chips" } }, points ? number(total) : pl.chips === null || pl.chips === undefined ? "–" : number(pl.chips)),
          h("td", {}, pl.time_bank === null || pl.time_bank === undefined ? "–" : W.seconds(Math.round(pl.time_bank))));
      }))),
    progressLine(p, sums));
}

/** "380 points to reach 500" (a sit-and-go), "round 2 of 5" (a quick game). */
function progressLine(p, sums) {
  const tour = tournamentOf(p);
  if (!tour || !me()) return null;
  const mine = sums[me()] || 0;
  let text = "";
  if (tour.kind === "single" && tour.target_score) {
    const left = tour.target_score - mine;
    text = left > 0
      ? t("You have %(points)s; %(left)s to reach %(target)s.", { points: W.points(mine), left: W.points(left), target: number(tour.target_score) })
      : t("You have %(points)s: the target of %(target)s is reached.", { points: W.points(mine), target: number(tour.target_score) });
  } else if (tour.kind === "quick" && tour.rounds) {
    const played = (p.rounds || []).filter((r) => r.ended_at).length;
    text = t("You have %(points)s after %(played)s of %(rounds)s rounds.", { points: W.points(mine), played: number(played), rounds: number(tour.rounds) });
  }
  return text ? h("p", { class: "progress", dataset: { role: "progress" } }, text) : null;
}


export { meldCards, seatedHere, board, seatScore, handPanel, totals, playersPanel, progressLine };
