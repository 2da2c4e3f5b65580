/* Presence at a table and the "I'm back" panel (docs/rules.md "Presence and reconnection"; docs/web.md).
 * `word(connected)` is what the players' list says beside a name; `check(gameId)` reads GET
 * /games/{id}/while-away/ and answers the summary when the server played for this player while their connection
 * was down and the player has not closed that summary yet (remembered per game in localStorage), else null;
 * `panel(summary, game, onClose)` shows it: each round's moves in words and what the round cost or won. */
import * as api from "./api.js";
import { h } from "./dom.js";
import { t, tn, number, dateTime } from "./i18n.js";
import * as W from "./table-words.js";

const KEY = "ramino.while-away.";

function word(connected) {
  return connected ? t("connected") : t("disconnected");
}

function closedAlready(gameId, backAt) {
  try {
    return window.localStorage.getItem(KEY + gameId) === backAt;
  } catch (_) {
    return false;
  }
}

function close(gameId, backAt) {
  try {
    window.localStorage.setItem(KEY + gameId, backAt);
  } catch (_) {
    /* private browsing: the panel may show again on the next page */
  }
}

async function check(gameId) {
  let summary;
  try {
    summary = await api.get(`/games/${gameId}/while-away/`);
  } catch (_) {
    return null; // not a player of this game (403), or no such game
  }
  if (!summary.moves || !summary.back_at || closedAlready(gameId, summary.back_at)) return null;
  return summary;
}

function resultText(r, chipless) {
  if (!r.over) return t("The round is not over yet.");
  const points = t("%(points)s points", { points: number(r.points) });
  if (chipless || r.chips === 0) return t("Round over: %(points)s; no chips changed hands for you.", { points });
  if (r.chips > 0) return tn("Round over: %(points)s; you won %(n)s chip.", "Round over: %(points)s; you won %(n)s chips.", r.chips, { points, n: number(r.chips) });
  return tn("Round over: %(points)s; it cost you %(n)s chip.", "Round over: %(points)s; it cost you %(n)s chips.", -r.chips, { points, n: number(-r.chips) });
}

function moveText(m, game, me) {
  const text = W.moveSentence(me, m.move || {}, game, W.named);
  const drawn = m.card ? [m.card] : m.cards || [];
  return drawn.length ? t("%(text)s (you drew %(cards)s)", { text, cards: drawn.map((c) => W.named(c)).join(", ") }) : text;
}

function panel(summary, game, me, chipless, onClose) {
  return h("section", { class: "panel while-away", role: "region", "aria-labelledby": "while-away-title", dataset: { role: "while-away" } },
    h("h2", { id: "while-away-title", tabindex: "-1", dataset: { focus: "while-away" } }, t("Welcome back")),
    h("p", {}, tn(
      "While your connection was down (from %(from)s to %(to)s) the server played %(n)s move for you.",
      "While your connection was down (from %(from)s to %(to)s) the server played %(n)s moves for you.",
      summary.moves, { n: number(summary.moves), from: dateTime(summary.away_since), to: dateTime(summary.back_at) })),
    summary.truncated ? h("p", { class: "hint" }, t("Only the latest moves are listed.")) : null,
    summary.rounds.map((r) => h("article", { class: "while-away-round", dataset: { role: "while-away-round", round: r.round } },
      h("h3", {}, t("Round %(round)s", { round: number(r.round) })),
      h("p", { dataset: { role: "while-away-result" } }, resultText(r, chipless)),
      h("ol", {}, r.moves.map((m) => h("li", { dataset: { role: "while-away-move" } }, moveText(m, game, me)))))),
    h("button", { type: "button", dataset: { role: "while-away-close", focus: "while-away-close" }, onclick: () => { close(summary.game, summary.back_at); onClose(); } }, t("Close the summary")));
}

export { word, check, panel };
