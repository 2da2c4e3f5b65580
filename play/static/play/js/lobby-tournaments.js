/* The lobby's tournaments (lobby.js): each with its game, format, status and start, and what this player may
 * do (register, unregister, open their table or the tournament's page). */
import * as api from "./api.js";
import { h, clear, flash } from "./dom.js";
import { t, tn, number, dateTime } from "./i18n.js";
import { cell, gameName, problem, remember, replace, statusName } from "./lobby.js";

function kindName(kind) {
  return { quick: t("Quick game"), single: t("Sit-and-go"), multi: t("Multi-table") }[kind] || kind;
}

/* The tournament's format in words (docs/rules.md "Tickets and satellites"): a satellite's prizes, tickets only. */
function formatWords(tour) {
  const words = [];
  if (tour.satellite_target) words.push(t("satellite: tickets to tournament #%(id)s", { id: tour.satellite_target }));
  if (tour.satellite_template) words.push(t("satellite: tickets to the next recurring tournament"));
  if (tour.tickets_only) words.push(t("entry with a ticket only"));
  return words;
}

async function tournamentAction(tour, action, go, where) {
  try {
    await api.post(`/tournaments/${tour.id}/${action}/`);
    flash(action === "register" ? t("Registered for %(name)s.", { name: tour.name }) : t("Unregistered from %(name)s; refunded.", { name: tour.name }), "info");
    renderTournaments(where, go);
  } catch (err) {
    problem(err);
  }
}

async function openTournamentTable(tour, go) {
  try {
    if (tour.my_table) {
      remember(tour.my_table);
      go(`#/table/${tour.my_table}`);
      return;
    }
    const tables = await api.get(`/tournaments/${tour.id}/tables/`);
    if (tables.results.length) {
      remember(tables.results[0].table);
      go(`#/table/${tables.results[0].table}`);
    }
  } catch (err) {
    problem(err);
  }
}

function goal(tour) {
  if (tour.kind === "multi") {
    return t("%(stack)s chips, level %(level)s", { stack: number(tour.starting_stack), level: tour.level ? number(tour.level) : "–" });
  }
  if (tour.kind === "quick") return tn("%(n)s round", "%(n)s rounds", tour.rounds, { n: number(tour.rounds) });
  return tn("to %(n)s point", "to %(n)s points", tour.target_score, { n: number(tour.target_score) });
}

function tournamentAction_(tour, go, where) {
  const lateOpen = tour.kind === "multi" && tour.status === "running" && tour.level <= tour.late_registration_levels;
  const reEntry = lateOpen && tour.reentry && tour.entry_status === "busted";
  const button = (role, words, action) => h("button", { type: "button", dataset: { role }, onclick: () => tournamentAction(tour, action, go, where) }, words);
  if (reEntry) return button("reenter", t("Re-enter"), "register");
  if (tour.status === "registering" || (lateOpen && !tour.registered)) {
    return tour.registered ? button("unregister", t("Unregister"), "unregister") : button("register", t("Enter"), "register");
  }
  if ((tour.status === "running" || tour.status === "paused") && tour.registered && tour.kind !== "multi") {
    return h("button", { type: "button", dataset: { role: "open-tournament-table" }, onclick: () => openTournamentTable(tour, go) }, t("Open table"));
  }
  return null;
}

function tournamentRow(tour, go, where) {
  return h("tr", { dataset: { role: "tournament-row", tournament: tour.id } },
    h("th", { scope: "row", class: "card-title" }, h("a", { href: `#/tournament/${tour.id}`, dataset: { role: "open-tournament" } }, tour.name),
      h("span", { class: "card-sub" }, `${kindName(tour.kind)} · ${gameName(tour.game)}`)),
    cell(t("Kind"), { dataset: { role: "tournament-format" } }, [`${kindName(tour.kind)}, ${goal(tour)}`, ...formatWords(tour)].join(" · ")),
    cell(t("Starts"), { dataset: { role: "starts-at" } }, tour.starts_at ? dateTime(tour.starts_at) : t("when full")),
    cell(t("Game"), { class: "wide-only" }, gameName(tour.game)),
    cell(t("Entrants"), { dataset: { role: "entrants" } }, `${number(tour.entrants)} / ${number(tour.max_entrants)}`),
    cell(t("Buy-in + fee"), {}, `${number(tour.buy_in)} + ${number(tour.fee)}`),
    cell(t("Prize pool"), {}, number(tour.prize_pool)),
    cell(t("Status"), { dataset: { role: "tournament-status" } }, statusWords(tour)),
    h("td", { class: "action" }, tournamentAction_(tour, go, where)));
}

// A scheduled start that failed (`error`) says so: delayed while retried, then cancelled with every entry refunded.
function statusWords(tour) {
  if (!tour.error) return statusName(tour.status);
  return tour.status === "cancelled" ? t("cancelled: could not start (refunded)") : t("%(status)s: start delayed", { status: statusName(tour.status) });
}

const DAY_MS = 24 * 3600 * 1000;

async function renderTournaments(where, go) {
  try {
    const page = await api.get("/tournaments/?page_size=50");
    // Cancelled tournaments are hidden, but for a day not those whose start failed: their entrants look for them.
    const failedLately = (x) => x.error && x.finished_at && Date.now() - Date.parse(x.finished_at) < DAY_MS;
    const shown = page.results.filter((x) => (x.status !== "cancelled" || failedLately(x)) && (x.status !== "finished" || x.registered));
    if (!shown.length) {
      replace(where, h("p", { class: "empty", dataset: { role: "tournaments-empty" } }, t("No tournaments are open yet.")));
      return;
    }
    const heads = [t("Name"), t("Kind"), t("Starts"), t("Game"), t("Entrants"), t("Buy-in + fee"), t("Prize pool"), t("Status")];
    replace(where, h("table", { class: "grid lobby-list", dataset: { role: "tournaments-table" } },
      h("caption", { class: "visually-hidden" }, t("Tournaments")),
      h("thead", {}, h("tr", {}, heads.map((c, i) => h("th", { scope: "col", class: i === 3 ? "wide-only" : null }, c)),
        h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Actions"))))),
      h("tbody", {}, shown.map((x) => tournamentRow(x, go, where)))));
  } catch (err) {
    clear(where).append(h("p", { class: "error" }, err.message));
  }
}

/* ---- forms ---- */

export { kindName, formatWords, tournamentAction, openTournamentTable, goal, tournamentAction_, tournamentRow, statusWords, DAY_MS, renderTournaments };
