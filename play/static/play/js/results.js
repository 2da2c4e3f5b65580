/* A round's results that tell the round (docs/web.md "The table page", Results): why it ended, what each player
 * melded and still held (the engine's `details` of GET /games/{id}/rounds/), the points each scored and how,
 * the chips that moved, in words; the deal's seal (seal.js), verified in the page; the countdown to the next deal.
 * table.js calls `R.results.panel(...)` once, with what only the table page knows (its sentences for the player,
 * the countdown, the dismiss button's action); the replay uses `reasonText`. */
import * as cards from "./cards.js";
import { h } from "./dom.js";
import { t, tn, number } from "./i18n.js";
import * as seal from "./seal.js";
import * as W from "./table-words.js";


function chipsText(n) {
  return tn("%(n)s chip", "%(n)s chips", Math.abs(n || 0), { n: number(Math.abs(n || 0)) });
}

/** Why the round ended, in words (the engine's `details.reason`). */
function reasonText(details) {
  const d = details || {};
  switch (d.reason) {
    case "out":
      return d.went_out ? t("%(player)s went out.", { player: d.went_out }) : t("A player went out.");
    case "close":
      return t("%(player)s closed the round.", { player: d.closer || d.went_out || "" });
    case "stock":
      return t("The stock ran out.");
    case "stall":
      return t("Nobody could make progress any more: the round was stopped.");
    case "end_round":
      return t("The round was ended with the stock empty.");
    case "refused":
      return t("%(player)s refused the deal: it is dealt again.", { player: d.refused_by || "" });
    default:
      return "";
  }
}

function cardsOf(codes) {
  return h("span", { class: "cards inline-cards" }, cards.sorted(codes, "suit").map((code) => cards.card(code)));
}

/** Net chips each player won (+) or paid (−) in the round's transfers. */
function netChips(transfers) {
  const net = {};
  for (const x of transfers || []) {
    net[x.from] = (net[x.from] || 0) - x.amount;
    net[x.to] = (net[x.to] || 0) + x.amount;
  }
  return net;
}

/** Board Rummy's hand tiers (the engine's `details.hand.tier`), in words. */
function tierWord(tier) {
  return { small: t("a simple hand"), big: t("a big hand"), special: t("a special hand") }[tier] || tier || "";
}

/** How a player's score was reached, in words, from the family's details. */
function scoreWords(name, score, d, details) {
  if (d.placed_value !== undefined && d.hand_value !== undefined) {
    // Rummy 500: placed minus in hand
    return t("%(placed)s placed minus %(hand)s in hand: %(score)s.", { placed: W.points(d.placed_value), hand: W.points(d.hand_value), score: W.points(score) });
  }
  if (details.closer !== undefined || details.trump !== undefined) {
    // Board Rummy: the closer's hand scores
    if (details.closer === name && details.hand) {
      return t("Closed with a hand worth %(score)s (%(tier)s).", { score: W.points(score), tier: tierWord(details.hand.tier) });
    }
    return t("%(score)s: only the player who closes scores.", { score: W.points(score) });
  }
  if (d.hand_value !== undefined) {
    if (details.went_out === name) return details.going_rummy ? t("Went out in one go (rummy): %(score)s.", { score: W.points(score) }) : t("Went out: %(score)s.", { score: W.points(score) });
    return t("%(hand)s left in hand: %(score)s.", { hand: W.points(d.hand_value), score: W.points(score) });
  }
  return W.points(score);
}

function playerPart(name, ctx) {
  const r = ctx.round;
  const details = r.details || {};
  const d = (details.players || {})[name] || {};
  const score = (r.scores || {})[name];
  const points = (r.game_points || {})[name];
  const net = ctx.net[name] || 0;
  const you = name === ctx.me;
  const placed = d.placed || [];
  const hand = d.hand || [];
  const closedHere = details.closer === name && details.arrangement;
  const lines = [
    h("h3", { class: "result-player-name" }, name, you ? h("span", { class: "tag" }, t("you")) : null),
    score === undefined ? null : h("p", { dataset: { role: "result-score-words" } }, scoreWords(name, score, d, details)),
    points !== undefined && points !== score ? h("p", {}, t("Game points: %(points)s.", { points: number(points) })) : null,
    closedHere
      ? h("div", { dataset: { role: "result-closed" } }, h("span", { class: "result-label" }, t("Closed with:")), " ",
        details.arrangement.groups.map((g) => h("span", { class: "meld-group" }, cardsOf(g))))
      : null,
    details.closer !== undefined ? null
      : h("div", { dataset: { role: "result-melded" } }, h("span", { class: "result-label" }, t("Melded:")), " ",
        placed.length ? cardsOf(placed) : t("nothing")),
    closedHere ? null
      : h("div", { dataset: { role: "result-held" } }, h("span", { class: "result-label" }, t("Held:")), " ",
        hand.length ? cardsOf(hand) : t("no cards left")),
    ctx.chips ? h("p", { class: `result-chips ${net > 0 ? "won" : net < 0 ? "lost" : ""}`, dataset: { role: "result-chips", net } },
      net > 0 ? t("Won %(chips)s.", { chips: ctx.chips(net) }) : net < 0 ? t("Paid %(chips)s.", { chips: ctx.chips(-net) }) : t("No chips moved.")) : null,
  ];
  return h("li", { class: `result-player${you ? " mine" : ""}`, dataset: { role: "result-player", username: name } }, lines);
}

/**
 * The results panel. `ctx`: round (a rounds row, over), me, sentences (what it did to the player), winners
 * (a sentence or ""), countdown (text), chips (n -> words; null where no chips move: points, practice),
 * tournamentId, noTransfer (why no chips moved), onDismiss.
 */
function panel(ctx) {
  const r = ctx.round;
  const details = r.details || {};
  const transfers = r.transfers || [];
  const names = (r.players && r.players.length ? r.players : Object.keys(r.scores || {}));
  const inner = { ...ctx, net: netChips(transfers) };
  const reason = reasonText(details);
  return h("section", { class: "panel results", "aria-labelledby": "results-title", dataset: { role: "results", round: r.number } },
    h("h2", { id: "results-title", tabindex: "-1", dataset: { focus: "results-title" } }, t("Round %(round)s results", { round: number(r.number) })),
    reason ? h("p", { class: "result-reason", dataset: { role: "result-reason" } }, reason) : null,
    (ctx.sentences || []).map((x) => h("p", { class: "result-line", dataset: { role: "result-line" } }, x)),
    ctx.winners ? h("p", {}, ctx.winners) : null,
    h("ul", { class: "result-players", dataset: { role: "result-players" } }, names.map((name) => playerPart(name, inner))),
    (r.bonuses || []).length ? h("ul", { class: "result-bonuses" }, r.bonuses.map((b) => h("li", {}, b.reason === "trump"
      ? t("Trump bonus: %(player)s, %(points)s from each opponent.", { player: b.player, points: W.points(b.points) })
      : t("Bonus: %(player)s, %(points)s", { player: b.player, points: W.points(b.points) })))) : null,
    ctx.chips ? h("div", { class: "result-settlement", dataset: { role: "result-settlement" } },
      transfers.length
        ? h("ul", {}, transfers.map((x) => h("li", { dataset: { role: "result-transfer", from: x.from, to: x.to, amount: x.amount } }, t("%(from)s paid %(to)s %(chips)s.", { from: x.from, to: x.to, chips: ctx.chips(x.amount) }))))
        : h("p", { class: "empty" }, ctx.noTransfer || "")) : null,
    seal.seal(r),
    h("p", { class: "countdown", dataset: { role: "countdown" } }, ctx.countdown || ""),
    h("div", { class: "seat-actions" },
      ctx.tournamentId ? h("a", { href: `#/tournament/${ctx.tournamentId}`, class: "button", dataset: { focus: "results-tournament" } }, t("The tournament's page")) : null,
      h("a", { href: `#/replay/${ctx.gameId}/${r.number}`, class: "button", dataset: { role: "results-replay", focus: "results-replay" } }, t("Replay the round")),
      h("button", { type: "button", dataset: { role: "results-dismiss", focus: "results-dismiss" }, onclick: ctx.onDismiss }, t("Close the results"))));
}

export { panel, reasonText, netChips, chipsText };
