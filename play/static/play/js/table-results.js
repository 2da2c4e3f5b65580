/* A round's end at the table: the results in words, the countdown to the next deal, the round history, the
 * keyboard shortcuts' help and the log of what happened. */
import { h } from "./dom.js";
import { t, number, dateTime } from "./i18n.js";
import * as practice from "./practice.js";
import * as results from "./results.js";
import * as seal from "./seal.js";
import * as W from "./table-words.js";
import { totals } from "./table-board.js";
import { chipUnit, me, scoresPoints, tournamentOf } from "./table-facts.js";
import { draw } from "./table-view.js";
import { openPage } from "./table.js";

// ------------------------------------------------------------------------------------------- results

function isTie(scores) {
  const values = Object.values(scores || {});
  return values.length > 1 && values.every((v) => v === values[0]);
}

/** What the round did to this player, in words. */
function resultSentences(p, r) {
  const out = [];
  const name = me();
  const scores = r.scores || {};
  const tour = tournamentOf(p);
  if (p.table.practice) return practice.resultSentences(r, name);
  if (scoresPoints(p)) {
    const gained = (r.game_points || scores)[name];
    if (gained !== undefined) {
      const sums = totals(p);
      const total = sums[name] || 0;
      if (tour.kind === "single" && tour.target_score) {
        const left = tour.target_score - total;
        out.push(left > 0
          ? t("You scored %(points)s this round; %(left)s to reach %(target)s.", { points: W.points(gained), left: W.points(left), target: number(tour.target_score) })
          : t("You scored %(points)s this round: you reached the target of %(target)s.", { points: W.points(gained), target: number(tour.target_score) }));
      } else {
        out.push(t("You scored %(points)s this round; your total is %(total)s.", { points: W.points(gained), total: W.points(total) }));
      }
    }
    out.push(isTie(scores) ? t("A tie: every player scored the same.") : t("Tournament rounds score points; no chips change hands until the prizes."));
    return out;
  }
  const transfers = r.transfers || [];
  let net = 0;
  for (const x of transfers) {
    if (x.to === name) net += x.amount;
    if (x.from === name) net -= x.amount;
  }
  const unit = (n) => chipUnit(p)(Math.abs(n));
  if (!r.settled) out.push(t("The settlement is being posted…"));
  else if (!transfers.length) out.push(noTransferText(scores));
  else if (net > 0) out.push(t("You won %(chips)s.", { chips: unit(net) }));
  else if (net < 0) out.push(t("You lost %(chips)s.", { chips: unit(net) }));
  else if (name in scores) out.push(t("You neither won nor lost chips this round."));
  return out;
}

/** Why a settled round moved no chips: a real tie, no scores at all (a refused deal), or empty stacks (the
 * PCR settlement caps each payment at the stacks at stake, ledger/settlement.py). */
function noTransferText(scores) {
  const page = openPage();
  if (page && page.table && page.table.practice) return t("Practice: no chips change hands.");
  if (!Object.keys(scores || {}).length) return t("Nothing was scored this round: no chips change hands.");
  return isTie(scores) ? t("A tie: no chips change hands.") : t("No chips change hands: the stacks at stake were empty.");
}

function winnersText(scores) {
  const entries = Object.entries(scores || {});
  if (!entries.length || isTie(scores)) return "";
  const top = Math.max(...entries.map(([, v]) => v));
  const winners = entries.filter(([, v]) => v === top).map(([k]) => k);
  return winners.length === 1 ? t("%(player)s won the round.", { player: winners[0] }) : t("%(players)s share the top score.", { players: winners.join(", ") });
}

function countdownText(p) {
  const g = p.game;
  if (g && g.next_round_at) {
    const s = Math.max(0, Math.ceil((Date.parse(g.next_round_at) - Date.now()) / 1000));
    return s > 0 ? t("Next deal in %(time)s.", { time: W.duration(s) }) : t("Dealing the next round…");
  }
  if (p.table.status === "closed" || (g && g.status === "closed")) return tournamentOf(p) ? t("The tournament's play here is over: see your place and prize on the tournament page.") : t("The table is closed.");
  return tournamentOf(p) ? t("The next deal comes once the tournament has counted the round.") : t("The next deal comes once two players with chips are seated.");
}

/** The results of the round just played (results.js tells the round): they stay until dismissed or the next deal. */
function resultsPanel(p, g) {
  if (!g || g.phase !== "over" || !g.round || p.dismissed === g.round) return null;
  const r = (p.rounds || []).find((x) => x.number === g.round);
  if (!r || !r.ended_at) return null;
  const tour = tournamentOf(p);
  return results.panel({
    round: r, gameId: g.id, me: me(), sentences: resultSentences(p, r), winners: winnersText(r.scores || {}), countdown: countdownText(p),
    chips: scoresPoints(p) || p.table.practice ? null : chipUnit(p), noTransfer: r.settled ? noTransferText(r.scores || {}) : t("Not settled yet."),
    tournamentId: tour ? tour.id : null, onDismiss: () => { p.dismissed = g.round; p.focusNext = "heading"; draw(p); },
  });
}

function roundsPanel(p) {
  const rows = p.rounds || [];
  return h("section", { class: "panel rounds", "aria-labelledby": "rounds-title", dataset: { role: "rounds" } },
    h("h2", { id: "rounds-title" }, t("Round history")),
    rows.length ? rows.slice().reverse().map((r) => roundView(p, r)) : h("p", { class: "empty" }, t("No round has been played yet.")));
}

function roundView(p, r) {
  const scores = r.scores || {};
  const points = scoresPoints(p);
  let settlement = null;
  if (r.ended_at) {
    const transfers = r.transfers || [];
    settlement = h("div", { dataset: { role: "transfers" } }, h("h4", {}, t("Settlement")),
      transfers.length
        ? h("ul", {}, transfers.map((x) => h("li", { dataset: { role: "transfer", from: x.from, to: x.to, amount: x.amount } }, t("%(from)s paid %(to)s %(chips)s.", { from: x.from, to: x.to, chips: chipUnit(p)(x.amount) }))))
        : h("p", { class: "empty", dataset: { role: "no-transfer" } },
          points ? t("Tournament rounds score points; no chips change hands until the prizes.")
            : !r.settled ? t("Not settled yet.") : noTransferText(scores)));
  }
  return h("article", { class: "round", dataset: { role: "round", number: r.number, settled: String(r.settled) } },
    h("h3", {}, r.ended_at ? t("Round %(round)s · ended %(when)s", { round: number(r.number), when: dateTime(r.ended_at) }) : t("Round %(round)s · being played", { round: number(r.number) })),
    r.scores ? h("table", { class: "grid round-scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Score")))),
      h("tbody", {}, Object.entries(scores).map(([name, score]) => h("tr", { dataset: { role: "round-score", username: name } }, h("td", {}, name), h("td", {}, String(score)))))) : null,
    settlement,
    seal.seal(r));
}

function shortcutsPanel(p) {
  const keys = [
    ["← →", t("move between your cards")],
    ["Space, Enter", t("select or unselect the card")],
    ["Shift + ← →", t("move the card in your hand")],
    ["S", t("draw from the stock")],
    ["P", t("take the top card of the discard pile")],
    ["M", t("meld the selected cards")],
    ["L", t("lay off the selected cards")],
    ["D", t("discard the selected card")],
    ["H", t("go to your hand")],
    ["Esc", t("clear the selection")],
  ];
  const details = h("details", { class: "panel shortcuts", open: p.open.shortcuts, dataset: { role: "shortcuts" } },
    h("summary", { dataset: { focus: "shortcuts-toggle" } }, t("Keyboard shortcuts")),
    h("dl", {}, keys.map(([k, what]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, what)])));
  details.addEventListener("toggle", () => (p.open.shortcuts = details.open));
  return details;
}

function logPanel(p) {
  return h("section", { class: "panel log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("What happened (newest first)")),
    // it scrolls (play.css): focusable, so a keyboard can scroll it too
    h("ol", { tabindex: "0", "aria-labelledby": "log-title", dataset: { role: "events", focus: "events" } }, p.log.slice(-30).reverse().map((e) => h("li", {}, W.eventSentence(e, p.game)))));
}


export { isTie, resultSentences, noTransferText, winnersText, countdownText, resultsPanel, roundsPanel, roundView, shortcutsPanel, logPanel };
