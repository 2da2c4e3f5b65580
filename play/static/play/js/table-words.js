/* The table's words for people: moves, events, obligations, clocks and results as sentences, in the page's
 * language (R.i18n: Django's JavaScript catalog, Italian and English). Cards appear as on the table (7♥) in
 * what is shown, and by name ("7 of hearts") in what a screen reader announces. */
import { face, name } from "./cards.js";
import { t, tn, number } from "./i18n.js";
import * as i18n from "./i18n.js";


const shown = (code) => face(code).text;

function seconds(n) {
  return tn("%(n)s second", "%(n)s seconds", n, { n: number(n) });
}

/** A countdown: seconds up to two minutes, then minutes (rounded up). */
function duration(s) {
  if (s < 120) return seconds(s);
  const m = Math.ceil(s / 60);
  return tn("%(n)s minute", "%(n)s minutes", m, { n: number(m) });
}

/** A setting's time exactly, in minutes where it is whole minutes ("5 minutes", "1 minute 30 seconds",
 * "45 seconds"): the clock settings read as a person says them. */
function span(total) {
  const s = Math.max(0, Math.round(Number(total) || 0));
  if (s < 60) return seconds(s);
  const m = Math.floor(s / 60);
  const rest = s % 60;
  const minutes = tn("%(n)s minute", "%(n)s minutes", m, { n: number(m) });
  return rest ? t("%(minutes)s %(seconds)s", { minutes, seconds: seconds(rest) }) : minutes;
}

/** A table's clock in words ("turn 30 seconds + time bank 1 minute"; no bank named when it is zero), or null
 * when the table keeps the server's usual clock. */
function clock(options) {
  if (!options || !options.turn_seconds) return null;
  const bank = Number(options.time_bank_seconds) || 0;
  return bank
    ? t("turn %(turn)s + time bank %(bank)s", { turn: span(options.turn_seconds), bank: span(bank) })
    : t("turn %(turn)s", { turn: span(options.turn_seconds) });
}

/** A meld's cards grouped by who placed them, in order: [{placer, cards}] — a name said once for the cards
 * one player put down together, not under every card. */
function placedRuns(meld) {
  const runs = [];
  (meld.cards || []).forEach((code, i) => {
    const placer = (meld.placers || [])[i] || "";
    const last = runs[runs.length - 1];
    if (last && last.placer === placer) last.cards.push(code);
    else runs.push({ placer, cards: [code] });
  });
  return runs;
}

function points(n) {
  return tn("%(n)s point", "%(n)s points", Math.abs(n), { n: number(n) });
}

function list(codes, c) {
  return (codes || []).map(c || shown).join(" ");
}

/** A meld on the table in words: its cards and who put it down ("7♥ 8♥ 9♥ (bob)"). */
function meldText(game, id, c) {
  const meld = ((game && game.melds) || []).find((m) => m.id === id);
  if (!meld) return id;
  return t("%(cards)s (%(owner)s)", { cards: list(meld.cards, c), owner: meld.owner });
}

/** A legal move as the button that plays it says it. */
function label(move, game) {
  switch (move.type) {
    case "draw":
      return move.source === "stock" ? t("Draw from the stock") : t("Take %(card)s from the pile (position %(position)s)", { card: shown(move.card), position: number(move.index + 1) });
    case "meld":
      return t("Meld %(cards)s", { cards: move.melds ? move.melds.map((m) => list(m)).join(" + ") : list(move.cards) });
    case "lay_off":
      return t("Lay off %(cards)s on %(meld)s", { cards: list(move.cards), meld: meldText(game, move.meld) });
    case "swap_joker":
      return t("Swap %(card)s for the joker in %(meld)s", { card: shown(move.card), meld: meldText(game, move.meld) });
    case "discard":
      return t("Discard %(card)s", { card: shown(move.card) });
    case "call_rummy":
      return t("Rummy! %(card)s on %(meld)s", { card: shown(move.card), meld: meldText(game, move.meld) });
    case "pass_claim":
      return t("Pass (no Rummy! call)");
    case "end_round":
      return t("End the round");
    case "close":
      return move.discard ? t("Close the round, discarding %(card)s", { card: shown(move.discard) }) : t("Close the round");
    case "keep_deal":
      return t("Keep the deal");
    case "refuse_deal":
      return t("Refuse the deal");
    default:
      return t("Another move (%(type)s)", { type: move.type });
  }
}

/** Someone's move as a sentence; `c` writes a card (shown or named). */
function moveSentence(player, move, game, c) {
  c = c || shown;
  const v = { player };
  switch (move.type) {
    case "draw":
      return move.source === "stock" || !move.card ? t("%(player)s drew from the stock.", v) : t("%(player)s took %(card)s from the pile.", { ...v, card: c(move.card) });
    case "meld":
      return t("%(player)s melded %(cards)s.", { ...v, cards: move.melds ? move.melds.map((m) => list(m, c)).join(", ") : list(move.cards, c) });
    case "lay_off":
      return t("%(player)s laid off %(cards)s on %(meld)s.", { ...v, cards: list(move.cards, c), meld: meldText(game, move.meld, c) });
    case "swap_joker":
      return t("%(player)s swapped %(card)s for a joker.", { ...v, card: c(move.card) });
    case "discard":
      return t("%(player)s discarded %(card)s.", { ...v, card: c(move.card) });
    case "call_rummy":
      return t("%(player)s called Rummy! with %(card)s.", { ...v, card: c(move.card) });
    case "pass_claim":
      return t("%(player)s passed.", v);
    case "end_round":
      return t("%(player)s ended the round.", v);
    case "close":
      return t("%(player)s closed the round.", v);
    case "keep_deal":
      return t("%(player)s kept the deal.", v);
    case "refuse_deal":
      return t("%(player)s refused the deal.", v);
    default:
      return t("%(player)s made a move.", v);
  }
}

/** An event of the table's stream as a sentence (the log shows it; the live region reads others' moves). */
function eventSentence(e, game, c) {
  switch (e.kind) {
    case "move": {
      const text = moveSentence(e.player, e.move || {}, game, c);
      return e.server_played ? t("%(text)s (played by the server)", { text }) : text;
    }
    case "round_started":
      return t("Round %(round)s dealt by %(dealer)s.", { round: number(e.round), dealer: e.dealer });
    case "round_over":
      return t("Round %(round)s is over.", { round: number(e.round) });
    case "claims_closed":
      return t("The Rummy! calls are closed.");
    case "reconnect_wait":
      return t("Waiting for %(players)s to reconnect, until %(time)s.", { players: (e.players || []).join(", "), time: new Date(e.deadline).toLocaleTimeString(i18n.lang()) });
    case "table_closed":
      return t("The table is closed.");
    case "table_error":
      return t("The table is out of service.");
    default:
      return t("Something happened at the table.");
  }
}

/** What the player in turn still owes this turn, as sentences (the game view's `obligations`). */
function obligations(o) {
  if (!o) return [];
  const out = [];
  if (o.must_use) out.push(t("You must use the %(card)s you took from the pile: meld it or lay it off before you discard.", { card: shown(o.must_use) }));
  const blocked = (o.not_discardable || []).filter((code) => code !== o.must_use);
  if (blocked.length) out.push(t("You may not discard %(cards)s this turn.", { cards: list(blocked) }));
  if (o.jokers_to_meld) out.push(tn("You must meld the joker you took back this turn.", "You must meld the %(n)s jokers you took back this turn.", o.jokers_to_meld, { n: number(o.jokers_to_meld) }));
  if (o.must_close) out.push(t("You took the pile's card with the stock empty: you must close this turn."));
  return out;
}

function phaseWord(phase) {
  switch (phase) {
    case "deal":
      return t("the deal");
    case "draw":
      return t("drawing");
    case "play":
      return t("melding and discarding");
    case "claims":
      return t("Rummy! calls");
    case "over":
      return t("over");
    default:
      return phase || "";
  }
}

function seatStatus(status) {
  switch (status) {
    case "active":
      return "";
    case "leaving":
      return t("leaving");
    case "absent":
      return t("away (played by the server)");
    case "sitting_out":
      return t("waiting for the next deal");
    case "left":
      return t("has left");
    default:
      return status || "";
  }
}

function tournamentKind(kind) {
  switch (kind) {
    case "quick":
      return t("quick game");
    case "single":
      return t("single-table tournament");
    case "multi":
      return t("multi-table tournament");
    default:
      return kind;
  }
}

export { seconds, duration, span, clock, placedRuns, points, label, moveSentence, eventSentence, obligations, phaseWord, seatStatus, tournamentKind, meldText, name as named, shown };
