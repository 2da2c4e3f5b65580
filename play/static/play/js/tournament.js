/* A tournament's page (#/tournament/ID): its settings and state, the standings (chips, table, place) and the open
 * tables, refreshed whenever the tournament's event log moves (GET /tournaments/ID/events/ long-poll). */
(function (R) {
  "use strict";

  const { h, clear, chips, when, sleep, flash } = R.dom;
  const PAGE_SIZE = 100; // standings and tables shown: the first page of each (the API pages them)

  let page = null; // the open tournament page; replaced (and its long-poll stopped) on every navigation

  function summary(t) {
    const facts = [
      ["Status", t.status, "tournament-status"],
      ["Game", R.lobby.gameName(t.game)],
      ["Buy-in + fee", `${chips(t.buy_in)} + ${chips(t.fee)}`],
      ["Entrants", `${t.entrants} / ${t.max_entrants}`, "entrants"],
      ["Prize pool", chips(t.prize_pool), "prize-pool"],
    ];
    if (t.kind === "multi") {
      facts.push(["Starts", when(t.starts_at), "starts-at"], ["Level", t.level || "–", "level"]);
      facts.push(["Starting stack", chips(t.starting_stack)], ["PCR by level", (t.pcr_schedule || []).join(", ")]);
    }
    return h("dl", { class: "facts", dataset: { role: "tournament-facts" } },
      facts.map(([name, value, role]) => [h("dt", {}, name), h("dd", { dataset: role ? { role } : {} }, value)]));
  }

  // A scheduled start that failed (API `error`): retried for a while, then the tournament is cancelled and refunded.
  function startProblem(t) {
    if (!t.error) return null;
    const words = t.status === "cancelled"
      ? "This tournament could not start, so it was cancelled. Every entrant got their buy-in and fee back in their wallet."
      : "The start is late: it failed and the server is trying again every few seconds. If it keeps failing, the tournament is cancelled and every buy-in and fee refunded.";
    return h("div", { class: "error", dataset: { role: "tournament-error" } },
      h("p", {}, words), h("p", { class: "hint" }, `Reason: ${t.error}`));
  }

  function standingsTable(rows) {
    if (!rows.length) return h("p", { class: "empty", dataset: { role: "standings-empty" } }, "Nobody has registered yet.");
    return h("table", { class: "grid", dataset: { role: "standings" } },
      h("thead", {}, h("tr", {}, ["#", "Player", "Status", "Chips", "Table", "Place", "Prize"].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map((r, i) => h("tr", { dataset: { role: "standing-row", username: r.username } },
        h("td", {}, i + 1),
        h("td", { dataset: { role: "standing-name" } }, r.username),
        h("td", { dataset: { role: "standing-status" } }, r.status),
        h("td", { dataset: { role: "standing-chips" } }, r.chips === null ? (r.total === null ? "–" : `${r.total} pts`) : chips(r.chips)),
        h("td", { dataset: { role: "standing-table" } }, r.table ? h("a", { href: `#/table/${r.table}` }, `#${r.table}`) : "–"),
        h("td", { dataset: { role: "standing-place" } }, r.place === null ? "–" : r.place),
        h("td", {}, r.prize ? chips(r.prize) : "–")))));
  }

  function tablesTable(rows) {
    if (!rows.length) return h("p", { class: "empty", dataset: { role: "tables-empty" } }, "No table is open.");
    return h("table", { class: "grid", dataset: { role: "tournament-tables" } },
      h("thead", {}, h("tr", {}, ["Table", "Level", "PCR", "Players", ""].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows.map((t) => h("tr", { dataset: { role: "tournament-table-row", table: t.table } },
        h("td", {}, `#${t.table}`),
        h("td", { dataset: { role: "table-level" } }, t.level ?? "–"),
        h("td", {}, t.pcr ?? "–"),
        h("td", { class: "names", dataset: { role: "table-players" } },
          t.players.map((p) => `${p.username} (${p.chips === null ? "–" : chips(p.chips)})`).join(", ") || "empty"),
        h("td", {}, h("a", { href: `#/table/${t.table}`, dataset: { role: "watch-table" } }, "Open"))))));
  }

  function actions(p) {
    const t = p.tournament;
    const lateOpen = t.kind === "multi" && t.status === "running" && t.level <= t.late_registration_levels;
    const act = async (action) => {
      try {
        await R.api.post(`/tournaments/${t.id}/${action}/`);
        flash(action === "register" ? `Registered for ${t.name}.` : `Unregistered from ${t.name}; refunded.`, "info");
        await refresh(p);
      } catch (err) {
        flash(err.describe ? err.describe() : String(err), "error");
      }
    };
    if (lateOpen && t.reentry && t.entry_status === "busted")
      return h("button", { type: "button", dataset: { role: "reenter" }, onclick: () => act("register") }, "Re-enter");
    if ((t.status === "registering" || lateOpen) && !t.registered)
      return h("button", { type: "button", dataset: { role: "register" }, onclick: () => act("register") }, "Register");
    if (t.status === "registering" && t.registered)
      return h("button", { type: "button", dataset: { role: "unregister" }, onclick: () => act("unregister") }, "Unregister");
    return null;
  }

  function draw(p) {
    const t = p.tournament;
    clear(p.root).append(
      h("section", { class: "tournament", dataset: { role: "tournament", tournament: t.id, version: p.version } },
        h("div", { class: "lobby-head" }, h("h1", {}, t.name), h("p", {}, h("a", { href: "#/lobby" }, "Back to the lobby"))),
        h("section", { class: "panel" }, startProblem(t), summary(t), actions(p)),
        h("section", { class: "panel" }, h("h2", {}, "Standings"), standingsTable(p.standings),
          p.standingsCount > p.standings.length ? h("p", { class: "empty" }, `First ${p.standings.length} of ${p.standingsCount}.`) : null),
        h("section", { class: "panel" }, h("h2", {}, "Tables"), tablesTable(p.tables))));
  }

  async function refresh(p) {
    const id = p.tournamentId;
    const [t, standings, tables] = await Promise.all([
      R.api.get(`/tournaments/${id}/`),
      R.api.get(`/tournaments/${id}/standings/?page_size=${PAGE_SIZE}`),
      R.api.get(`/tournaments/${id}/tables/?page_size=${PAGE_SIZE}`),
    ]);
    if (page !== p) return;
    p.tournament = t;
    p.standings = standings.results;
    p.standingsCount = standings.count;
    p.tables = tables.results;
    draw(p);
  }

  async function follow(p) {
    while (page === p) {
      try {
        const answer = await R.api.call("GET", `/tournaments/${p.tournamentId}/events/?after=${p.version}&wait=25`, { signal: p.abort.signal });
        const body = answer.data;
        if (body.events.length) {
          p.version = body.next_after;
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

  function stop() {
    if (!page) return;
    page.abort.abort();
    page = null;
  }

  async function load(root, tournamentId) {
    stop();
    const p = { root, tournamentId, tournament: null, standings: [], standingsCount: 0, tables: [], version: 0, abort: new AbortController() };
    page = p;
    clear(root).append(h("p", {}, "Loading the tournament…"));
    await refresh(p);
    if (page !== p) return;
    p.version = p.tournament.version;
    follow(p);
  }

  R.tournament = { load, stop };
})((window.Ramino = window.Ramino || {}));
