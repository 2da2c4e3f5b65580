/* The lobby: the wallet balance, open tables, tournaments (register, unregister, open one's table or a tournament's
 * page), the tables this player sat at or created (private ones are never listed by the API), joining by code, a
 * private table. It updates by itself: every few seconds it asks GET /lobby/version/ with If-None-Match (304 while
 * nothing changed) and re-reads the lists only when the version moved (docs/web.md "The lobby updates by itself").
 * On a phone the lists' rows become cards (lobby.css). */
import * as api from "./api.js";
import * as chat from "./chat.js";
import { h, clear, formValues, flash, sleep } from "./dom.js";
import { t, number } from "./i18n.js";
import * as quickSeat from "./quickseat.js";
import * as tableWords from "./table-words.js";
import * as tournament from "./tournament.js";
import { formatWords, kindName, renderTournaments } from "./lobby-tournaments.js";

const POLL_MS = 3000;
// Every preset's name (a family's rating is named by its first preset's); the games a table can be made with.
const GAME_NAMES = {
  rummy500: () => t("Rummy 500"),
  rummy500_household: () => t("Rummy 500 (household)"),
  basic: () => t("Basic Rummy"),
  block: () => t("Block Rummy"),
  wrotham: () => t("Wrotham"),
  romme: () => t("Rommé"),
  board: () => t("Board Rummy"),
};
// Every game the server deals (the seven presets): a private table may be made with any of them.
const GAMES = Object.keys(GAME_NAMES);

function gameName(code) {
  return GAME_NAMES[code] ? GAME_NAMES[code]() : code;
}

// Words for the API's statuses (tables and tournaments).
function statusName(status) {
  const words = {
    open: t("open"),
    playing: t("playing"),
    closed: t("closed"),
    error: t("stopped by an error"),
    scheduled: t("scheduled"),
    registering: t("registering"),
    running: t("running"),
    paused: t("paused"),
    finished: t("finished"),
    cancelled: t("cancelled"),
  };
  return words[status] || status;
}

// The tables this player opened in this browser: how the lobby finds private ones again.
function recentKey() {
  const s = api.session();
  return `ramino.tables.${s ? s.username : ""}`;
}
function recentTables() {
  try {
    return JSON.parse(localStorage.getItem(recentKey()) || "[]");
  } catch (_) {
    return [];
  }
}
function remember(tableId) {
  const ids = [tableId, ...recentTables().filter((id) => id !== tableId)].slice(0, 12);
  localStorage.setItem(recentKey(), JSON.stringify(ids));
}
function forget(tableId) {
  localStorage.setItem(recentKey(), JSON.stringify(recentTables().filter((id) => id !== tableId)));
}

function seatedHere(table) {
  const s = api.session();
  return table.players.some((p) => s && p.username === s.username && p.status !== "left");
}

function problem(err) {
  flash(err.describe ? err.describe() : String(err), "error");
}

function buyInForm(table, go, label) {
  return h("form", { class: "inline", dataset: { role: "sit-form", table: table.id }, onsubmit: async (event) => {
      event.preventDefault();
      const { buy_in } = formValues(event.target);
      try {
        // A private table is sat at by its code, its creator included (the API's rule).
        if (table.private && table.code) await api.post("/tables/join/", { code: table.code, buy_in });
        else await api.post(`/tables/${table.id}/sit/`, { buy_in });
        remember(table.id);
        go(`#/table/${table.id}`);
      } catch (err) {
        problem(err);
      }
    } },
    h("input", { name: "buy_in", type: "number", min: table.min_buy_in, max: table.max_buy_in, value: table.min_buy_in, required: true, "aria-label": t("Buy-in for table %(id)s", { id: table.id }), dataset: { role: "buy-in" } }),
    h("button", { type: "submit", dataset: { role: "sit" } }, label || t("Sit")));
}

// A cell that shows its column's name before the value when the row is a card (narrow screens, lobby.css).
function cell(label, attrs, ...children) {
  return h("td", { ...(attrs || {}), "data-label": label }, ...children);
}

function clockWords(options) {
  return tableWords.clock(options) || t("standard");
}

function tableRow(table, go) {
  const taken = table.players.filter((p) => p.status !== "left").length;
  const names = table.players.filter((p) => p.status !== "left").map((p) => p.username).join(", ");
  let action;
  if (seatedHere(table)) {
    action = h("a", { href: `#/table/${table.id}`, class: "button", dataset: { role: "open-table" }, onclick: () => remember(table.id) }, t("Open"));
  } else if (table.status === "open") {
    action = buyInForm(table, go);
  } else {
    action = h("a", { href: `#/table/${table.id}`, class: "button" }, t("Watch"));
  }
  return h("tr", { dataset: { role: "table-row", table: table.id } },
    h("th", { scope: "row", class: "card-title" }, t("Table %(id)s", { id: table.id }), table.private ? h("span", { class: "tag" }, t("private")) : null,
      h("span", { class: "card-sub" }, gameName(table.game))),
    cell(t("Game"), { class: "wide-only" }, gameName(table.game)),
    cell(t("Seats"), { dataset: { role: "seats" } }, `${number(taken)} / ${number(table.seats)}`),
    cell(t("PCR"), {}, table.multiplier > 1 ? `${number(table.pcr)} ×${number(table.multiplier)}` : number(table.pcr)),
    cell(t("Buy-in"), {}, `${number(table.min_buy_in)} – ${number(table.max_buy_in)}`),
    cell(t("Clock"), { dataset: { role: "clock" } }, clockWords(table.options || {})),
    cell(t("Players"), { class: "names", dataset: { role: "players" } }, names || t("nobody yet")),
    cell(t("Status"), { dataset: { role: "table-status" } }, statusName(table.status)),
    h("td", { class: "action" }, action));
}

function tablesTable(tables, go, role, caption) {
  if (!tables.length) return h("p", { class: "empty", dataset: { role: `${role}-empty` } }, t("None right now."));
  const heads = [t("Table"), t("Game"), t("Seats"), t("PCR"), t("Buy-in"), t("Clock"), t("Players"), t("Status")];
  return h("table", { class: "grid lobby-list", dataset: { role } },
    h("caption", { class: "visually-hidden" }, caption),
    h("thead", {}, h("tr", {}, heads.map((c, i) => h("th", { scope: "col", class: i === 1 ? "wide-only" : null }, c)),
      h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Actions"))))),
    h("tbody", {}, tables.map((x) => tableRow(x, go))));
}

/* ---- the page, and keeping it live ---- */

let live = null; // the open lobby: {go, parts, stop, pending}

/** The list's query: the filters the player chose (GET /tables/'s game, stake, seats, free_seats). */
function filterQuery(filters) {
  const q = new URLSearchParams({ page_size: "100" });
  for (const [key, value] of Object.entries(filters || {})) if (value) q.set(key, value);
  return q.toString();
}

async function readTables(state) {
  // the filters may change while a read is on its way: only the newest read is drawn
  const seq = (state.reads = (state.reads || 0) + 1);
  try {
    const page = await api.get(`/tables/?${filterQuery(state.filters)}`);
    if (live !== state || seq !== state.reads) return;
    // the stakes and sizes seen feed the filters' and play now's choices
    for (const x of page.results) {
      state.stakes.add(x.pcr * x.multiplier);
      state.sizes.add(x.seats);
    }
    quickSeat.update(state);
    const filtered = Object.values(state.filters).some(Boolean);
    replace(state.parts.openTables, page.results.length || !filtered
      ? tablesTable(page.results, state.go, "tables", t("Open tables"))
      : h("p", { class: "empty", dataset: { role: "tables-filtered-empty" } }, t("No open table matches these filters.")));
  } catch (err) {
    clear(state.parts.openTables).append(h("p", { class: "error" }, err.message));
  }
}

async function readMine(state) {
  const found = [];
  for (const id of recentTables()) {
    try {
      found.push(await api.get(`/tables/${id}/`));
    } catch (err) {
      if (err.status === 404) forget(id);
    }
  }
  if (live !== state) return;
  replace(state.parts.mine, found.length ? tablesTable(found, state.go, "my-tables-list", t("Your tables")) : h("p", { class: "empty" }, t("Tables you sit at or create show here.")));
}

/* Put `content` in `where`, keeping the keyboard focus on the same control when it is redrawn. */
function replace(where, content) {
  const active = document.activeElement;
  let again = null;
  if (active && where.contains(active) && active.dataset && active.dataset.role) {
    const row = active.closest("[data-table],[data-tournament]");
    again = { role: active.dataset.role, table: row && row.dataset.table, tournament: row && row.dataset.tournament };
  }
  clear(where).append(content);
  if (again) {
    const scope = again.table ? `[data-table='${again.table}'] ` : again.tournament ? `[data-tournament='${again.tournament}'] ` : "";
    const found = where.querySelector(`${scope}[data-role='${again.role}']`);
    if (found) found.focus();
  }
}

// Typing a buy-in in a list: its refresh waits until the field is left.
function busy(state) {
  const active = document.activeElement;
  return active && active.tagName === "INPUT" && (state.parts.openTables.contains(active) || state.parts.mine.contains(active));
}

async function refresh(state) {
  api.get("/wallet/").then((w) => (state.parts.balance.textContent = number(w.balance))).catch(() => {});
  await Promise.all([readTables(state), renderTournaments(state.parts.tournaments, state.go), readMine(state)]);
  if (live === state) state.parts.root.dataset.refreshed = String((Number(state.parts.root.dataset.refreshed) || 0) + 1);
}

// The lobby's version now (its ETag), or null when it cannot be read.
async function versionTag() {
  try {
    return (await api.call("GET", "/lobby/version/")).headers.get("ETag");
  } catch (_) {
    return null;
  }
}

/* `etag`: the version read before the lists were, so that a change made while they were read is not missed. */
async function follow(state, etag) {
  while (live === state) {
    await sleep(POLL_MS);
    if (live !== state) return;
    if (document.hidden && !state.pending) continue; // a tab in the background asks nothing
    try {
      const answer = await api.call("GET", "/lobby/version/", { headers: etag ? { "If-None-Match": etag } : {} });
      if (etag !== null) state.pending = true;
      etag = answer.headers.get("ETag");
    } catch (err) {
      if (err && err.status !== 304) etag = null;
    }
    if (live !== state) return;
    if (state.pending && !busy(state)) {
      state.pending = false;
      await refresh(state);
    }
  }
}

function stop() {
  live = null;
}

// Every game's how-to-play page (server-rendered, /play/learn/PRESET/: docs/web.md "How to play").
function learnLinks() {
  return h("section", { class: "panel", dataset: { role: "learn-links" } }, h("h2", {}, t("How to play")),
    h("ul", { class: "learn-links" }, Object.keys(GAME_NAMES).map((code) => h("li", {},
      h("a", { href: `/play/learn/${code}/`, dataset: { role: "learn-link", game: code } }, t("How to play %(game)s", { game: gameName(code) }))))));
}

async function render(root, go) {
  stop();
  clear(root);
  const parts = {
    balance: h("strong", { dataset: { role: "balance" } }, "…"),
    openTables: h("div", { dataset: { role: "open-tables" } }, t("Loading…")),
    mine: h("div", { dataset: { role: "my-tables" } }),
    tournaments: h("div", { dataset: { role: "tournament-list" } }, t("Loading…")),
    playNow: h("div", { dataset: { role: "play-now-box" } }),
    filters: h("div", { dataset: { role: "filters-box" } }),
  };
  parts.root = h("section", { class: "lobby", dataset: { role: "lobby" } },
    h("div", { class: "lobby-head" }, h("h1", {}, t("Lobby")),
      h("p", {}, t("Wallet:"), " ", parts.balance, " ", t("chips"), " · ", h("a", { href: "#/wallet" }, t("history"))),
      h("a", { href: "#/practice", class: "button primary", dataset: { role: "lobby-practice" } }, t("Practise against bots"))),
    parts.playNow,
    h("section", { class: "panel", "aria-labelledby": "open-tables-title" }, h("h2", { id: "open-tables-title" }, t("Open tables")), parts.filters, parts.openTables),
    h("section", { class: "panel" }, h("h2", {}, t("Your tables")), parts.mine),
    h("section", { class: "panel", dataset: { role: "tournaments" } }, h("h2", {}, t("Tournaments")), parts.tournaments),
    h("div", { class: "lobby-forms" }, joinForm(go), tournamentJoinForm(go), createForm(go)),
    learnLinks());
  root.append(parts.root);
  const state = { go, parts, pending: false, filters: { game: "", stake: "", seats: "", free_seats: "" }, stakes: new Set(), sizes: new Set() };
  quickSeat.mount(state, () => live === state && readTables(state));
  live = state;
  chat.mount("lobby");
  const etag = await versionTag();
  await refresh(state);
  follow(state, etag);
}


/* The link a private table's players share (#/join/CODE): whoever opens it signs in if need be, then joins. */
function shareLink(code) {
  return `${location.origin}/play/#/join/${encodeURIComponent(code)}`;
}

function joinForm(go, code) {
  return h("form", { class: "panel", dataset: { role: "join-form" }, onsubmit: async (event) => {
      event.preventDefault();
      const { code, buy_in } = formValues(event.target);
      try {
        const table = await api.post("/tables/join/", { code, buy_in });
        remember(table.id);
        go(`#/table/${table.id}`);
      } catch (err) {
        problem(err);
      }
    } },
    h("h2", {}, t("Join a private table")),
    h("label", {}, t("Code"), h("input", { name: "code", required: true, autocomplete: "off", value: code || "", dataset: { role: "join-code" } })),
    h("label", {}, t("Buy-in"), h("input", { name: "buy_in", type: "number", min: 1, required: true, dataset: { role: "join-buy-in" } })),
    h("button", { type: "submit", dataset: { role: "join" } }, t("Join")));
}

/* A private tournament is listed to no one: its entrants enter it with its code (POST /tournaments/join/). */
function tournamentJoinForm(go) {
  return h("form", { class: "panel", dataset: { role: "tournament-join-form" }, onsubmit: async (event) => {
      event.preventDefault();
      const { code } = formValues(event.target);
      try {
        const entry = await api.post("/tournaments/join/", { code });
        flash(t("You entered the private tournament."), "info");
        go(`#/tournament/${entry.tournament}`);
      } catch (err) {
        flash(tournament ? tournament.refusalWords(err) : String(err), "error");
      }
    } },
    h("h2", {}, t("Join a private tournament")),
    h("label", {}, t("Tournament code"), h("input", { name: "code", required: true, autocomplete: "off", dataset: { role: "tournament-join-code" } })),
    h("button", { type: "submit", dataset: { role: "tournament-join" } }, t("Enter")));
}

function createForm(go) {
  const field = (name, label, value, min) => h("label", {}, label, h("input", { name, type: "number", min: min ?? 1, value, required: true, dataset: { role: `create-${name}` } }));
  return h("form", { class: "panel", dataset: { role: "create-form" }, onsubmit: async (event) => {
      event.preventDefault();
      const v = formValues(event.target);
      try {
        // The creator sits at the new table with their buy-in, in the same request (the API's `buy_in`).
        const table = await api.post("/tables/", {
          game: v.game, seats: v.seats, pcr: v.pcr, min_buy_in: v.min_buy_in, max_buy_in: v.max_buy_in, private: true,
          buy_in: v.buy_in, options: { turn_seconds: v.turn_seconds, time_bank_seconds: v.time_bank_seconds },
        });
        remember(table.id);
        go(`#/table/${table.id}`);
      } catch (err) {
        problem(err);
      }
    } },
    h("h2", {}, t("Start a private table")),
    h("label", {}, t("Game"), h("select", { name: "game", dataset: { role: "create-game" } }, GAMES.map((code) => h("option", { value: code }, gameName(code))))),
    field("seats", t("Seats"), 2, 2), field("pcr", t("PCR (chips per point)"), 1),
    field("min_buy_in", t("Minimum buy-in"), 100), field("max_buy_in", t("Maximum buy-in"), 1000),
    field("buy_in", t("Your buy-in (you sit down at once)"), 100),
    field("turn_seconds", t("Turn seconds"), 30), field("time_bank_seconds", t("Time bank seconds"), 30, 0),
    h("button", { type: "submit", dataset: { role: "create" } }, t("Create")));
}

/* #/join/CODE: the page a shared link opens (after signing in): the code filled in, the buy-in to choose. */
function joinPage(root, go, code) {
  stop();
  clear(root);
  root.append(h("section", { class: "lobby", dataset: { role: "join-page" } },
    h("h1", { tabindex: "-1" }, t("You are invited to a private table")),
    h("p", {}, t("Choose your buy-in and join: the table's limits are the ones its creator set.")),
    joinForm(go, code),
    h("p", {}, h("a", { href: "#/lobby" }, t("Back to the lobby")))));
}

export { render, stop, remember, gameName, buyInForm, statusName, kindName, formatWords, shareLink, joinPage, problem, cell, replace };
