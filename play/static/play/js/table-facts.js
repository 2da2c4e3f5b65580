/* The table page's facts about the open table, read by each of its modules (table.js and table-*.js): who
 * this player is, the chips the table counts in, whether it is a tournament's, whether it is this player's turn. */
import * as api from "./api.js";
import { tn, number } from "./i18n.js";
import * as i18n from "./i18n.js";

function me() {
  const s = api.session();
  return s ? s.username : null;
}

function chipsText(n) {
  return tn("%(n)s chip", "%(n)s chips", Math.abs(n || 0), { n: number(n || 0) });
}

/** Chips as the table counts them: a multi-table tournament's are tournament chips. */
function chipUnit(p) {
  return tournamentOf(p) ? (n) => tn("%(n)s tournament chip", "%(n)s tournament chips", Math.abs(n || 0), { n: number(n || 0) }) : chipsText;
}

// Messages the server writes follow the page's language (the API's Accept-Language).
function sent(extra) {
  return { headers: { "Accept-Language": i18n.lang(), ...(extra || {}) } };
}

function errorText(err) {
  return err && err.describe ? err.describe() : String(err);
}

function tournamentOf(p) {
  return (p.table && p.table.tournament) || null;
}

/** One-table tournaments score points, never chips; multi-table ones play for tournament chips. */
function scoresPoints(p) {
  const tour = tournamentOf(p);
  return !!tour && tour.kind !== "multi";
}

function myTurn(g) {
  return !!(g && (g.legal_moves || []).length);
}

function inRunningRound(p) {
  const g = p.game;
  return !!(g && g.status === "playing" && g.phase && g.phase !== "over" && (g.players || []).some((x) => x.username === me() && x.hand_count !== undefined));
}


export { me, chipsText, chipUnit, sent, errorText, tournamentOf, scoresPoints, myTurn, inRunningRound };
