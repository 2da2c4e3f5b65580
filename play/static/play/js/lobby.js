/* The lobby: the wallet balance, open tables, tournaments (register, unregister, open one's table or a tournament's
 * page), the tables this player sat at or created (private ones are never listed by the API), joining by code, a
 * private table. */
(function (R) {
  "use strict";

  const { h, clear, formValues, chips, flash, when } = R.dom;
  const GAMES = [
    ["rummy500", "Rummy 500"],
    ["rummy500_household", "Rummy 500 (household)"],
  ];

  function gameName(code) {
    const found = GAMES.find(([c]) => c === code);
    return found ? found[1] : code;
  }

  // The tables this player opened in this browser: how the lobby finds private ones again.
  function recentKey() {
    const s = R.api.session();
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
    const s = R.api.session();
    return table.players.some((p) => s && p.username === s.username && p.status !== "left");
  }

  function buyInForm(table, go, label) {
    return h("form", { class: "inline", dataset: { role: "sit-form", table: table.id }, onsubmit: async (event) => {
        event.preventDefault();
        const { buy_in } = formValues(event.target);
        try {
          // A private table is sat at by its code, its creator included (the API's rule).
          if (table.private && table.code) await R.api.post("/tables/join/", { code: table.code, buy_in });
          else await R.api.post(`/tables/${table.id}/sit/`, { buy_in });
          remember(table.id);
          go(`#/table/${table.id}`);
        } catch (err) {
          flash(err.describe ? err.describe() : String(err), "error");
        }
      } },
      h("input", { name: "buy_in", type: "number", min: table.min_buy_in, max: table.max_buy_in, value: table.min_buy_in, required: true, "aria-label": "Buy-in", dataset: { role: "buy-in" } }),
      h("button", { type: "submit", dataset: { role: "sit" } }, label || "Sit"));
  }

  function tableRow(table, go) {
    const taken = table.players.filter((p) => p.status !== "left").length;
    const clocks = table.options || {};
    return h("tr", { dataset: { role: "table-row", table: table.id } },
      h("td", {}, `#${table.id}`, table.private ? h("span", { class: "tag" }, "private") : null),
      h("td", {}, gameName(table.game)),
      h("td", { dataset: { role: "seats" } }, `${taken} / ${table.seats}`),
      h("td", {}, `${table.pcr}${table.multiplier > 1 ? ` ×${table.multiplier}` : ""}`),
      h("td", {}, `${chips(table.min_buy_in)} – ${chips(table.max_buy_in)}`),
      h("td", {}, clocks.turn_seconds ? `${clocks.turn_seconds}s + ${clocks.time_bank_seconds ?? 0}s bank` : "default"),
      h("td", { class: "names" }, table.players.map((p) => p.username).join(", ") || "empty"),
      h("td", {}, table.status),
      h("td", {},
        seatedHere(table)
          ? h("a", { href: `#/table/${table.id}`, class: "button", dataset: { role: "open-table" }, onclick: () => remember(table.id) }, "Open")
          : table.status === "open" ? buyInForm(table, go) : h("a", { href: `#/table/${table.id}` }, "Watch")));
  }

  function tablesTable(tables, go, role) {
    if (!tables.length) return h("p", { class: "empty", dataset: { role: `${role}-empty` } }, "None right now.");
    return h("table", { class: "grid", dataset: { role } },
      h("thead", {}, h("tr", {}, ["Table", "Game", "Seats", "PCR", "Buy-in", "Clock", "Players", "Status", ""].map((t) => h("th", {}, t)))),
      h("tbody", {}, tables.map((t) => tableRow(t, go))));
  }

  async function render(root, go) {
    clear(root);
    const balance = h("strong", { dataset: { role: "balance" } }, "…");
    const openTables = h("div", { dataset: { role: "open-tables" } }, "Loading…");
    const mine = h("div", { dataset: { role: "my-tables" } });
    const tournaments = h("div", { dataset: { role: "tournament-list" } }, "Loading…");
    root.append(
      h("section", { class: "lobby", dataset: { role: "lobby" } },
        h("div", { class: "lobby-head" }, h("h1", {}, "Lobby"), h("p", {}, "Wallet: ", balance, " chips · ", h("a", { href: "#/wallet" }, "history"))),
        h("section", { class: "panel" }, h("h2", {}, "Open tables"), openTables),
        h("section", { class: "panel" }, h("h2", {}, "Your tables"), mine),
        h("section", { class: "panel", dataset: { role: "tournaments" } }, h("h2", {}, "Tournaments"), tournaments),
        h("div", { class: "lobby-forms" }, joinForm(go), createForm(go))));

    R.api.get("/wallet/").then((w) => (balance.textContent = chips(w.balance))).catch(() => (balance.textContent = "?"));
    try {
      const page = await R.api.get("/tables/?page_size=100");
      clear(openTables).append(tablesTable(page.results, go, "tables"));
    } catch (err) {
      clear(openTables).append(h("p", { class: "error" }, err.message));
    }
    renderTournaments(tournaments, go);
    const found = [];
    for (const id of recentTables()) {
      try {
        found.push(await R.api.get(`/tables/${id}/`));
      } catch (err) {
        if (err.status === 404) forget(id);
      }
    }
    clear(mine).append(found.length ? tablesTable(found, go, "my-tables-list") : h("p", { class: "empty" }, "Tables you sit at or create show here."));
  }

  const KINDS = { quick: "Quick game", single: "Sit-and-go", multi: "Multi-table" };

  async function tournamentAction(t, action, go, where) {
    try {
      await R.api.post(`/tournaments/${t.id}/${action}/`);
      flash(action === "register" ? `Registered for ${t.name}.` : `Unregistered from ${t.name}; refunded.`, "info");
      renderTournaments(where, go);
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
  }

  async function openTournamentTable(t, go) {
    try {
      const tables = await R.api.get(`/tournaments/${t.id}/tables/`);
      if (tables.results.length) {
        remember(tables.results[0].table);
        go(`#/table/${tables.results[0].table}`);
      }
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
  }

  function tournamentRow(t, go, where) {
    let action = null;
    // A multi-table tournament also takes late registrations (and re-entries) while running, up to its level.
    const lateOpen = t.kind === "multi" && t.status === "running" && t.level <= t.late_registration_levels;
    const reEntry = lateOpen && t.reentry && t.entry_status === "busted";
    if (reEntry) {
      action = h("button", { type: "button", dataset: { role: "reenter" }, onclick: () => tournamentAction(t, "register", go, where) }, "Re-enter");
    } else if (t.status === "registering" || (lateOpen && !t.registered)) {
      action = t.registered
        ? h("button", { type: "button", dataset: { role: "unregister" }, onclick: () => tournamentAction(t, "unregister", go, where) }, "Unregister")
        : h("button", { type: "button", dataset: { role: "register" }, onclick: () => tournamentAction(t, "register", go, where) }, "Register");
    } else if ((t.status === "running" || t.status === "paused") && t.registered && t.kind !== "multi") {
      action = h("button", { type: "button", dataset: { role: "open-tournament-table" }, onclick: () => openTournamentTable(t, go) }, "Open table");
    }
    const goal = t.kind === "multi"
      ? `${chips(t.starting_stack)} chips, level ${t.level || "–"}`
      : t.kind === "quick" ? `${t.rounds} round${t.rounds === 1 ? "" : "s"}` : `to ${t.target_score}`;
    return h("tr", { dataset: { role: "tournament-row", tournament: t.id } },
      h("td", {}, h("a", { href: `#/tournament/${t.id}`, dataset: { role: "open-tournament" } }, t.name)),
      h("td", {}, `${KINDS[t.kind] || t.kind}, ${goal}`),
      h("td", { dataset: { role: "starts-at" } }, t.starts_at ? when(t.starts_at) : "when full"),
      h("td", {}, gameName(t.game)),
      h("td", { dataset: { role: "entrants" } }, `${t.entrants} / ${t.max_entrants}`),
      h("td", {}, `${chips(t.buy_in)} + ${chips(t.fee)}`),
      h("td", {}, chips(t.prize_pool)),
      h("td", { dataset: { role: "tournament-status" } }, statusWords(t)),
      h("td", {}, action));
  }

  // A scheduled start that failed (`error`) says so: delayed while retried, then cancelled with every entry refunded.
  function statusWords(t) {
    if (!t.error) return t.status;
    return t.status === "cancelled" ? "cancelled: could not start (refunded)" : `${t.status}: start delayed`;
  }

  const DAY_MS = 24 * 3600 * 1000;

  async function renderTournaments(where, go) {
    try {
      const page = await R.api.get("/tournaments/?page_size=50");
      // Cancelled tournaments are hidden, but for a day not those whose start failed: their entrants look for them.
      const failedLately = (t) => t.error && t.finished_at && Date.now() - Date.parse(t.finished_at) < DAY_MS;
      const shown = page.results.filter((t) => (t.status !== "cancelled" || failedLately(t)) && (t.status !== "finished" || t.registered));
      if (!shown.length) {
        clear(where).append(h("p", { class: "empty", dataset: { role: "tournaments-empty" } }, "No tournaments are open yet."));
        return;
      }
      clear(where).append(h("table", { class: "grid", dataset: { role: "tournaments-table" } },
        h("thead", {}, h("tr", {}, ["Name", "Kind", "Starts", "Game", "Entrants", "Buy-in + fee", "Prize pool", "Status", ""].map((c) => h("th", {}, c)))),
        h("tbody", {}, shown.map((t) => tournamentRow(t, go, where)))));
    } catch (err) {
      clear(where).append(h("p", { class: "error" }, err.message));
    }
  }

  function joinForm(go) {
    return h("form", { class: "panel", dataset: { role: "join-form" }, onsubmit: async (event) => {
        event.preventDefault();
        const { code, buy_in } = formValues(event.target);
        try {
          const table = await R.api.post("/tables/join/", { code, buy_in });
          remember(table.id);
          go(`#/table/${table.id}`);
        } catch (err) {
          flash(err.describe ? err.describe() : String(err), "error");
        }
      } },
      h("h2", {}, "Join a private table"),
      h("label", {}, "Code", h("input", { name: "code", required: true, autocomplete: "off", dataset: { role: "join-code" } })),
      h("label", {}, "Buy-in", h("input", { name: "buy_in", type: "number", min: 1, required: true, dataset: { role: "join-buy-in" } })),
      h("button", { type: "submit", dataset: { role: "join" } }, "Join"));
  }

  function createForm(go) {
    const number = (name, label, value, min) => h("label", {}, label, h("input", { name, type: "number", min: min ?? 1, value, required: true, dataset: { role: `create-${name}` } }));
    return h("form", { class: "panel", dataset: { role: "create-form" }, onsubmit: async (event) => {
        event.preventDefault();
        const v = formValues(event.target);
        try {
          const table = await R.api.post("/tables/", {
            game: v.game, seats: v.seats, pcr: v.pcr, min_buy_in: v.min_buy_in, max_buy_in: v.max_buy_in, private: true,
            options: { turn_seconds: v.turn_seconds, time_bank_seconds: v.time_bank_seconds },
          });
          remember(table.id);
          go(`#/table/${table.id}`);
        } catch (err) {
          flash(err.describe ? err.describe() : String(err), "error");
        }
      } },
      h("h2", {}, "Start a private table"),
      h("label", {}, "Game", h("select", { name: "game", dataset: { role: "create-game" } }, GAMES.map(([code, name]) => h("option", { value: code }, name)))),
      number("seats", "Seats", 2, 2), number("pcr", "PCR (chips per point)", 1),
      number("min_buy_in", "Minimum buy-in", 100), number("max_buy_in", "Maximum buy-in", 1000),
      number("turn_seconds", "Turn seconds", 30), number("time_bank_seconds", "Time bank seconds", 30, 0),
      h("button", { type: "submit", dataset: { role: "create" } }, "Create"));
  }

  R.lobby = { render, remember, gameName, buyInForm };
})((window.Ramino = window.Ramino || {}));
