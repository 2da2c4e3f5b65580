/* A tournament's page (#/tournament/ID): its state, structure (levels with their PCR and rounds, or the target and
 * rounds of a one-table game), the payout table with amounts, countdowns (to the start, to the end of late
 * registration), the entrants and standings (points or chips, table, place, prize), the open tables, and the last
 * round's result. Refreshed whenever the tournament's event log moves (GET /tournaments/ID/events/ long-poll): a
 * one-table tournament records each round's result, so its totals move as rounds are played. */
import * as api from "./api.js";
import * as chat from "./chat.js";
import * as deals from "./deal.js";
import { h, clear, sleep, flash } from "./dom.js";
import { t, tn, number, dateTime } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as players from "./players.js";
import * as socket from "./socket.js";

const PAGE_SIZE = 100; // standings and tables shown: the first page of each (the API pages them)

let page = null; // the open tournament page; replaced (and its long-poll stopped) on every navigation

function statusName(status) {
  return lobby.statusName(status);
}

function entryStatusName(status) {
  return { registered: t("registered"), playing: t("playing"), busted: t("out"), finished: t("finished") }[status] || status;
}

/* "1 d 4 h", "2 h 05 min 30 s", "4 min 09 s", "12 s": the time left until `iso`. */
function left(iso) {
  const ms = Date.parse(iso) - Date.now();
  if (!(ms > 0)) return null;
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (d) return t("%(d)s d %(h)s h", { d: number(d), h: number(hh) });
  if (hh) return t("%(h)s h %(m)s min %(s)s s", { h: number(hh), m: two(mm), s: two(ss) });
  if (mm) return t("%(m)s min %(s)s s", { m: number(mm), s: two(ss) });
  return t("%(s)s s", { s: number(ss) });
}

function startWords(tour) {
  if (tour.kind !== "multi") {
    if (tour.status !== "registering") return tour.started_at ? dateTime(tour.started_at) : "–";
    const missing = Math.max(0, tour.max_entrants - tour.entrants);
    return tn("when full: %(n)s more player", "when full: %(n)s more players", missing, { n: number(missing) });
  }
  if (tour.status === "scheduled" || tour.status === "registering") {
    const rest = left(tour.starts_at);
    return rest ? t("in %(left)s (%(at)s)", { left: rest, at: dateTime(tour.starts_at) }) : t("starting now (%(at)s)", { at: dateTime(tour.starts_at) });
  }
  return dateTime(tour.started_at || tour.starts_at);
}

/* Late registration lasts to the end of a level, and levels are counted in rounds: the countdown is in levels. */
function lateWords(tour) {
  if (tour.kind !== "multi" || !tour.late_registration_levels) return null;
  const until = tour.late_registration_levels;
  if (tour.status === "scheduled" || tour.status === "registering") {
    return tn("open until the end of level %(level)s (%(n)s round a level)", "open until the end of level %(level)s (%(n)s rounds a level)", tour.rounds_per_level, { level: number(until), n: number(tour.rounds_per_level) });
  }
  if (tour.late_registration_open) {
    const levelsLeft = until - Math.max(tour.level, 1) + 1;
    return tn("open: %(n)s level left, to the end of level %(level)s", "open: %(n)s levels left, to the end of level %(level)s", levelsLeft, { n: number(levelsLeft), level: number(until) });
  }
  return t("closed");
}

function summary(tour) {
  const facts = [
    [t("Status"), statusName(tour.status), "tournament-status"],
    [t("Kind"), lobby.kindName(tour.kind)],
    ...(lobby.formatWords(tour).length ? [[t("Format"), lobby.formatWords(tour).join(" · "), "tournament-format"]] : []),
    [t("Game"), lobby.gameName(tour.game)],
    [t("Buy-in + fee"), `${number(tour.buy_in)} + ${number(tour.fee)}`],
    [t("Entrants"), `${number(tour.entrants)} / ${number(tour.max_entrants)}`, "entrants"],
    [t("Prize pool"), number(tour.prize_pool), "prize-pool"],
    [t("Starts"), startWords(tour), "countdown-start"],
  ];
  const late = lateWords(tour);
  if (late) facts.push([t("Late registration"), late, "countdown-late"]);
  if (tour.kind === "multi") facts.push([t("Level"), tour.level ? number(tour.level) : "–", "level"], [t("Starting stack"), number(tour.starting_stack)]);
  if (tour.rebuy_levels) {
    facts.push([t("Rebuys"), t("until level %(level)s: %(price)s for %(chips)s chips", { level: number(tour.rebuy_levels), price: `${number(tour.rebuy_cost)} + ${number(tour.rebuy_fee)}`, chips: number(tour.rebuy_chips || tour.starting_stack) }), "rebuy-terms"]);
    if (tour.addon_chips) facts.push([t("Add-on"), t("once, after level %(level)s: %(price)s for %(chips)s chips", { level: number(tour.rebuy_levels), price: `${number(tour.addon_cost)} + ${number(tour.addon_fee)}`, chips: number(tour.addon_chips) }), "addon-terms"]);
  }
  if (tour.bounty_share) facts.push([t("Bounty"), t("%(share)s percent of the buy-in on each head; half paid at once to whoever knocks a player out", { share: number(tour.bounty_share) }), "bounty-terms"]);
  if (tour.stage === "tiebreak") facts.push([t("Stage"), tn("tie-breaker: %(n)s round played", "tie-breaker: %(n)s rounds played", tour.tiebreaks_played, { n: number(tour.tiebreaks_played) }), "stage"]);
  return h("dl", { class: "facts", dataset: { role: "tournament-facts" } },
    facts.map(([name, value, role]) => [h("dt", {}, name), h("dd", { dataset: role ? { role } : {} }, value)]));
}

function structure(tour) {
  const rows = [];
  if (tour.kind === "multi") {
    rows.push(h("table", { class: "grid compact", dataset: { role: "levels" } },
      h("caption", {}, t("Levels")),
      h("thead", {}, h("tr", {}, [t("Level"), t("PCR (chips per point)"), t("Rounds")].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, tour.levels.map((l) => h("tr", { dataset: { role: "level-row", level: l.level }, class: l.level === tour.level ? "current" : null },
        h("td", {}, number(l.level)), h("td", { dataset: { role: "level-pcr" } }, number(l.pcr)),
        h("td", { dataset: { role: "level-rounds" } }, l.level === tour.levels.length ? t("%(n)s, then to the end", { n: number(l.rounds) }) : number(l.rounds)))))));
  } else {
    const words = tour.kind === "quick"
      ? tn("%(n)s round; the highest total wins.", "%(n)s rounds; the highest total wins.", tour.rounds, { n: number(tour.rounds) })
      : tn("Rounds until a player reaches %(n)s point; the highest total wins.", "Rounds until a player reaches %(n)s points; the highest total wins.", tour.target_score, { n: number(tour.target_score) });
    rows.push(h("p", { dataset: { role: "structure-words" } }, words));
  }
  rows.push(h("p", { class: "hint" }, tour.tiebreak_rounds
    ? tn("A tie at the top is played off in up to %(n)s tie-breaker round, then shared.", "A tie at the top is played off in up to %(n)s tie-breaker rounds, then shared.", tour.tiebreak_rounds, { n: number(tour.tiebreak_rounds) })
    : t("A tie at the top is shared.")));
  return rows;
}

function payoutTable(tour) {
  return h("table", { class: "grid compact", dataset: { role: "payouts" } },
    h("caption", { class: "visually-hidden" }, t("Prizes")),
    h("thead", {}, h("tr", {}, [t("Place"), t("Share"), t("Prize (chips)")].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, tour.payout_table.map((p) => h("tr", { dataset: { role: "payout-row", place: p.place } },
      h("td", {}, number(p.place)), h("td", {}, `${number(p.percent)} %`), h("td", { dataset: { role: "payout-amount" } }, number(p.amount))))));
}

// Why the tournament is over without being played to the end: cancelled (refunded, or the pool shared), or a start that failed.
function notice(tour, standings) {
  if (tour.error) {
    const words = tour.status === "cancelled"
      ? t("This tournament could not start, so it was cancelled. Every entrant got their buy-in and fee back in their wallet.")
      : t("The start is late: it failed and the server is trying again every few seconds. If it keeps failing, the tournament is cancelled and every buy-in and fee refunded.");
    return h("div", { class: "error", dataset: { role: "tournament-error" } },
      h("p", {}, words), h("p", { class: "hint" }, t("Reason: %(reason)s", { reason: tour.error })));
  }
  if (tour.status !== "cancelled") return null;
  const shared = tour.started_at && standings.some((r) => r.prize > 0);
  return h("div", { class: "notice", dataset: { role: "tournament-cancelled" } },
    h("p", {}, h("strong", {}, t("This tournament was cancelled."))),
    h("p", {}, shared
      ? t("It was cancelled while being played: the prize pool was shared among the players still in (half equally, half by their totals), as listed below.")
      : t("Every entry was refunded: the buy-in and the fee went back to each player's wallet.")));
}

function score(tour, r) {
  if (r.chips !== null) return t("%(chips)s chips", { chips: number(r.chips) });
  if (r.total === null) return "–";
  const main = tn("%(n)s pt", "%(n)s pts", r.total, { n: number(r.total) });
  return r.tiebreak_total === null ? main : t("%(main)s (tie-breaker %(tb)s)", { main, tb: number(r.tiebreak_total) });
}

function standingsTable(tour, rows) {
  if (!rows.length) {
    const words = tour.status === "cancelled" ? t("No entries are left: every one was refunded.") : t("Nobody has registered yet.");
    return h("p", { class: "empty", dataset: { role: "standings-empty" } }, words);
  }
  return h("table", { class: "grid lobby-list", dataset: { role: "standings" } },
    h("caption", { class: "visually-hidden" }, t("Standings")),
    h("thead", {}, h("tr", {}, [t("Player"), "#", t("Status"), tour.kind === "multi" ? t("Chips") : t("Points"), t("Table"), t("Place"), t("Prize")].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows.map((r, i) => h("tr", { dataset: { role: "standing-row", username: r.username } },
      h("th", { scope: "row", class: "card-title" }, h("span", { dataset: { role: "standing-name" } }, r.username),
        players ? players.ratingBadge(r.username, tour.game) : null,
        tour.bounty_share && r.bounty ? h("span", { class: "bounty", dataset: { role: "standing-bounty" } }, t("bounty %(n)s", { n: number(r.bounty) })) : null,
        r.rebuys || r.addon ? h("span", { class: "hint", dataset: { role: "standing-rebuys" } }, " ", tn("%(n)s rebuy", "%(n)s rebuys", r.rebuys, { n: number(r.rebuys) }), r.addon ? t(", add-on") : "") : null),
      h("td", { "data-label": "#" }, number(i + 1)),
      h("td", { "data-label": t("Status"), dataset: { role: "standing-status" } }, entryStatusName(r.status)),
      h("td", { "data-label": tour.kind === "multi" ? t("Chips") : t("Points"), dataset: { role: "standing-chips" } }, r.chips === null ? score(tour, r) : number(r.chips)),
      h("td", { "data-label": t("Table"), dataset: { role: "standing-table" } }, r.table ? h("a", { href: `#/table/${r.table}` }, `#${r.table}`) : "–"),
      h("td", { "data-label": t("Place"), dataset: { role: "standing-place" } }, r.place === null ? "–" : number(r.place)),
      h("td", { "data-label": t("Prize"), dataset: { role: "standing-prize" } }, r.prize ? number(r.prize) : "–")))));
}

function seatWords(p) {
  const words = p.chips === null ? p.username : `${p.username} (${number(p.chips)})`;
  return p.bounty ? `${words} · ${t("bounty %(n)s", { n: number(p.bounty) })}` : words;
}

function tablesTable(rows) {
  if (!rows.length) return h("p", { class: "empty", dataset: { role: "tables-empty" } }, t("No table is open."));
  return h("table", { class: "grid lobby-list", dataset: { role: "tournament-tables" } },
    h("caption", { class: "visually-hidden" }, t("Tables")),
    h("thead", {}, h("tr", {}, [t("Table"), t("Level"), t("PCR"), t("Players")].map((c) => h("th", { scope: "col" }, c)),
      h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Actions"))))),
    h("tbody", {}, rows.map((x) => h("tr", { dataset: { role: "tournament-table-row", table: x.table } },
      h("th", { scope: "row", class: "card-title" }, `#${x.table}`),
      h("td", { "data-label": t("Level"), dataset: { role: "table-level" } }, x.level === null ? "–" : number(x.level)),
      h("td", { "data-label": t("PCR") }, x.pcr === null ? "–" : number(x.pcr)),
      h("td", { "data-label": t("Players"), class: "names", dataset: { role: "table-players" } },
        x.players.map(seatWords).join(", ") || t("nobody yet")),
      h("td", { class: "action" }, h("a", { href: `#/table/${x.table}`, class: "button", dataset: { role: "watch-table" } }, t("Open")))))));
}

// The last round's result (a one-table tournament's `round_result` event): who scored what.
function lastRound(p) {
  const r = p.lastRound;
  if (!r) return null;
  const parts = Object.entries(r.points).map(([who, pts]) => t("%(player)s %(points)s", { player: who, points: number(pts) })).join(", ");
  const title = r.tiebreak ? t("Tie-breaker round %(n)s", { n: number(r.round) }) : t("Round %(n)s", { n: number(r.round) });
  return h("p", { class: "last-round", dataset: { role: "last-round", round: r.round } }, h("strong", {}, title), " ", parts);
}

/* Who may enter (docs/rules.md "Entry rules"), in words: the rating band, newcomers only, private, freeroll. */
function entryRules(tour) {
  const rules = [];
  if (tour.freeroll) rules.push(t("Freeroll: no buy-in, no fee."));
  if (tour.min_rating !== null && tour.max_rating !== null) rules.push(t("Ratings from %(min)s to %(max)s in this game only.", { min: number(tour.min_rating), max: number(tour.max_rating) }));
  else if (tour.min_rating !== null) rules.push(t("Ratings of %(min)s or more in this game only.", { min: number(tour.min_rating) }));
  else if (tour.max_rating !== null) rules.push(t("Ratings up to %(max)s in this game only.", { max: number(tour.max_rating) }));
  if (tour.max_rated_results !== null) rules.push(tn("Newcomers only: fewer than %(n)s rated result in this game.", "Newcomers only: fewer than %(n)s rated results in this game.", tour.max_rated_results, { n: number(tour.max_rated_results) }));
  if (tour.private) rules.push(tour.code ? t("Private: joined with the code %(code)s.", { code: tour.code }) : t("Private: joined with its code."));
  if (!rules.length) return null;
  return h("ul", { class: "entry-rules", dataset: { role: "entry-rules" } }, rules.map((r) => h("li", {}, r)));
}

/* An entry rule's refusal in words, with the values that refused (the API's `details`). */
function refusalWords(err) {
  if (err.code !== "tournament.entry_rule") return err.describe ? err.describe() : String(err);
  const d = err.details;
  if (d.rule === "newcomers") return t("This tournament is for newcomers: you have %(n)s rated results in this game; it takes fewer than %(max)s.", { n: number(d.rated_results), max: number(d.max_rated_results) });
  return t("Your rating in this game is %(rating)s: this tournament takes ratings from %(min)s to %(max)s.", { rating: number(d.rating), min: d.min_rating === null ? "–" : number(d.min_rating), max: d.max_rating === null ? "–" : number(d.max_rating) });
}

function actions(p) {
  const tour = p.tournament;
  const act = async (action, payment) => {
    try {
      await api.post(`/tournaments/${tour.id}/${action}/`, payment ? { payment } : undefined);
      flash(action === "register" ? t("Registered for %(name)s.", { name: tour.name }) : t("Unregistered from %(name)s; refunded.", { name: tour.name }), "info");
      await refresh(p);
    } catch (err) {
      flash(refusalWords(err), "error");
    }
  };
  const button = (role, words, action, payment) => h("button", { type: "button", dataset: { role }, onclick: () => act(action, payment) }, words);
  // A ticket to it pays the entry (docs/rules.md "Tickets"); where only tickets are taken, chips do not.
  const ticket = (p.tickets || []).find((x) => x.chip_type === `ticket:tournament:${tour.id}`);
  const entering = (tour.status === "registering" || tour.late_registration_open) && (!tour.registered || (tour.late_registration_open && tour.reentry && tour.entry_status === "busted"));
  if (entering && (ticket || tour.tickets_only)) {
    return h("div", { class: "actions" },
      ticket ? button("register-ticket", tn("Enter with your ticket (%(n)s held)", "Enter with a ticket (%(n)s held)", ticket.count, { n: number(ticket.count) }), "register", "ticket") : h("p", { dataset: { role: "tickets-only" } }, t("Only a ticket enters this tournament: win one in a satellite.")),
      tour.tickets_only ? null : button("register", t("Enter with chips"), "register", "chips"));
  }
  if (tour.late_registration_open && tour.reentry && tour.entry_status === "busted") return button("reenter", t("Re-enter"), "register");
  if ((tour.status === "registering" || tour.late_registration_open) && !tour.registered) return button("register", t("Enter"), "register");
  if (tour.status === "registering" && tour.registered) return button("unregister", t("Unregister"), "unregister");
  if (tour.my_table) return h("a", { href: `#/table/${tour.my_table}`, class: "button primary", dataset: { role: "my-tournament-table" } }, t("Go to your table"));
  return null;
}

/* Rebuy and add-on (multi, docs/rules.md "Rebuys and the add-on"): the buttons while the server says they may be
 * bought now (GET /tournaments/ID/rebuy/), with what they cost and give. */
function buys(p) {
  const b = p.buy;
  if (!b || !(b.can_rebuy || b.can_addon)) return null;
  const buy = async (action) => {
    try {
      p.buy = await api.post(`/tournaments/${p.tournament.id}/${action}/`);
      flash(action === "rebuy" ? t("Rebought: %(chips)s chips added.", { chips: number(p.buy.rebuy_chips) }) : t("Add-on taken: %(chips)s chips added.", { chips: number(p.buy.addon_chips) }), "info");
      await refresh(p);
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
  };
  return h("div", { class: "actions", dataset: { role: "buys" } },
    b.chips <= 0 ? h("p", { class: "notice", dataset: { role: "rebuy-wait" } }, t("You have no chips left: rebuy before your table's next deal to stay in.")) : null,
    b.can_rebuy ? h("button", { type: "button", class: "primary", dataset: { role: "rebuy" }, onclick: () => buy("rebuy") },
      t("Rebuy: %(chips)s chips for %(price)s", { chips: number(b.rebuy_chips), price: number(b.rebuy_price) })) : null,
    b.can_addon ? h("button", { type: "button", dataset: { role: "addon" }, onclick: () => buy("addon") },
      t("Add-on: %(chips)s chips for %(price)s", { chips: number(b.addon_chips), price: number(b.addon_price) })) : null);
}

function results(p) {
  const tour = p.tournament;
  if (tour.status !== "finished") return null;
  const me = api.session() && p.standings.find((r) => r.username === api.session().username);
  const winners = p.standings.filter((r) => r.place === 1).map((r) => r.username);
  return h("div", { class: "notice", dataset: { role: "tournament-results" } },
    h("p", {}, h("strong", {}, tn("Finished. Winner: %(names)s.", "Finished. Winners: %(names)s.", winners.length, { names: winners.join(", ") }))),
    me && me.place !== null ? h("p", { dataset: { role: "my-result" } },
      me.prize ? t("You finished in place %(place)s and won %(prize)s chips.", { place: number(me.place), prize: number(me.prize) })
        : t("You finished in place %(place)s.", { place: number(me.place) })) : null);
}

function draw(p) {
  const tour = p.tournament;
  const active = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.role : null;
  clear(p.root).append(
    h("section", { class: "tournament", dataset: { role: "tournament", tournament: tour.id, version: p.version } },
      h("div", { class: "lobby-head" }, h("h1", {}, tour.name), h("p", {}, h("a", { href: "#/lobby" }, t("Back to the lobby")))),
      h("section", { class: "panel" }, notice(tour, p.standings), results(p), summary(tour), entryRules(tour), actions(p), buys(p)),
      deals.panel(p),
      h("div", { class: "tournament-grid" },
        h("section", { class: "panel", dataset: { role: "structure" } }, h("h2", {}, t("Structure")), structure(tour)),
        // Cancelled before its start, nothing was ever paid out: the refunds say it all.
        tour.status === "cancelled" && !tour.started_at ? null : h("section", { class: "panel", dataset: { role: "prizes" } }, h("h2", {}, t("Prizes")), payoutTable(tour),
          h("p", { class: "hint" }, tour.status === "finished" || tour.status === "cancelled"
            ? t("What was paid is in the standings.") : t("From the prize pool as it stands; it grows with every entrant.")))),
      h("section", { class: "panel" }, h("h2", {}, tour.status === "registering" ? t("Entrants") : t("Standings")),
        lastRound(p), standingsTable(tour, p.standings),
        p.standingsCount > p.standings.length ? h("p", { class: "empty" }, t("First %(shown)s of %(all)s.", { shown: number(p.standings.length), all: number(p.standingsCount) })) : null),
      // Tables while it is played: none to open before the start, nor once it is over (its tables closed).
      ["registering", "scheduled", "finished", "cancelled"].includes(tour.status) ? null
        : h("section", { class: "panel", dataset: { role: "tables-panel" } }, h("h2", {}, t("Tables")), tablesTable(p.tables.filter((x) => x.status !== "closed")))));
  if (active) {
    const again = p.root.querySelector(`[data-role='${active}']`);
    if (again) again.focus();
  }
}

async function refresh(p) {
  const id = p.tournamentId;
  const [tour, standings, tables, tickets] = await Promise.all([
    api.get(`/tournaments/${id}/`),
    api.get(`/tournaments/${id}/standings/?page_size=${PAGE_SIZE}`),
    api.get(`/tournaments/${id}/tables/?page_size=${PAGE_SIZE}`),
    // The caller's tickets (none when signed out): a ticket to it offers "Enter with a ticket".
    api.session() ? api.get("/me/tickets/").then((answer) => answer.tickets).catch(() => []) : Promise.resolve([]),
  ]);
  // What the caller may buy now (rebuy, add-on), while they play a tournament that sells them.
  const buy = tour.rebuy_levels && tour.entry_status === "playing" && api.session()
    ? await api.get(`/tournaments/${id}/rebuy/`).catch(() => null) : null;
  if (page !== p) return;
  p.buy = buy;
  const deal = await deals.read(tour);
  if (page !== p) return;
  p.deal = deal;
  p.refresh = () => refresh(p);
  p.tournament = tour;
  p.standings = standings.results;
  p.standingsCount = standings.count;
  p.tables = tables.results;
  p.tickets = tickets;
  draw(p);
}

function noteEvents(p, events) {
  for (const e of events) if (e.kind === "round_result") p.lastRound = e.data;
}

async function follow(p) {
  while (page === p) {
    try {
      const answer = (await socket.events(`tournament:${p.tournamentId}`, p.version, p.abort.signal)) || (await api.call("GET", `/tournaments/${p.tournamentId}/events/?after=${p.version}&wait=25`, { signal: p.abort.signal }));
      const body = answer.data;
      if (body.events.length) {
        p.version = body.next_after;
        noteEvents(p, body.events);
        await refresh(p);
      } else if (answer.headers.get("Retry-After")) {
        await sleep(1000 * Number(answer.headers.get("Retry-After") || 1));
      } else {
        p.version = body.next_after;
      }
    } catch (err) {
      if (page !== p || (err && err.name === "AbortError")) return;
      await sleep(2000);
    }
  }
}

// The countdowns move every second without asking the server.
function tick(p) {
  if (page !== p || !p.tournament) return;
  const start = p.root.querySelector("[data-role=countdown-start]");
  if (start) start.textContent = startWords(p.tournament);
  deals.tick(p.root);
}

function stop() {
  if (!page) return;
  page.abort.abort();
  clearInterval(page.timer);
  page = null;
}

async function load(root, tournamentId) {
  stop();
  const p = { root, tournamentId, tournament: null, standings: [], standingsCount: 0, tables: [], version: 0, lastRound: null, deal: null, refresh: null, abort: new AbortController(), timer: null };
  page = p;
  clear(root).append(h("p", {}, t("Loading the tournament…")));
  try {
    // The last round's result, from the event log (a one-table tournament records one per round).
    const log = await api.get(`/tournaments/${tournamentId}/events/?after=0`);
    noteEvents(p, log.events);
  } catch (_) {
    // the page works without it
  }
  await refresh(p);
  if (page !== p) return;
  p.version = p.tournament.version;
  chat.mount(`tournament:${tournamentId}`);
  p.timer = setInterval(() => tick(p), 1000);
  follow(p);
}

export { load, stop, refusalWords };
