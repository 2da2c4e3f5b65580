/* The table: the game as the API shows this player (their own hand, the pile, everyone's melds with who
 * placed each card, hand counts, scores, the turn clock and time bank), the legal moves as things to click,
 * live updates from the events long-poll, and each round's results with the settlement and the deal check. */
(function (R) {
  "use strict";

  const { h, clear, flash, chips, sleep, when } = R.dom;
  const { card, cardList } = R.cards;

  let page = null; // the open table page; replaced (and its loops stopped) on every navigation

  function me() {
    const s = R.api.session();
    return s ? s.username : null;
  }

  function label(move) {
    const c = (code) => R.cards.face(code).text;
    switch (move.type) {
      case "draw":
        return move.source === "stock" ? "Draw from the stock" : `Take ${c(move.card)} from the pile (position ${move.index + 1})`;
      case "meld":
        return `Meld ${(move.cards || []).map(c).join(" ")}`;
      case "lay_off":
        return `Lay off ${(move.cards || []).map(c).join(" ")} on ${move.meld}`;
      case "swap_joker":
        return `Swap ${c(move.card)} for the joker in ${move.meld}`;
      case "discard":
        return `Discard ${c(move.card)}`;
      case "call_rummy":
        return `Rummy! ${c(move.card)} on ${move.meld}`;
      case "pass_claim":
        return "Pass (no Rummy! call)";
      case "end_round":
        return "End the round";
      case "close":
        return "Close the round";
      case "keep_deal":
        return "Keep the deal";
      case "refuse_deal":
        return "Refuse the deal";
      default:
        return `${move.type} ${JSON.stringify(move)}`;
    }
  }

  const GROUPS = [
    ["draw", "Draw"],
    ["meld", "Meld"],
    ["lay_off", "Lay off"],
    ["swap_joker", "Swap a joker"],
    ["call_rummy", "Rummy!"],
    ["pass_claim", ""],
    ["close", ""],
    ["end_round", ""],
    ["keep_deal", ""],
    ["refuse_deal", ""],
    ["discard", "Discard (ends your turn)"],
  ];

  function moveButton(move, content, extraClass) {
    return h("button", { type: "button", class: `move ${extraClass || ""}`.trim(), dataset: { role: "move", type: move.type, move: JSON.stringify(move) }, onclick: () => play(move) }, content || label(move));
  }

  async function play(move) {
    const current = page;
    if (!current || !current.game || current.busy) return;
    current.busy = true;
    document.querySelectorAll("[data-role=move]").forEach((b) => (b.disabled = true));
    try {
      await R.api.post(`/games/${current.game.id}/moves/`, { ...move, expected_version: current.game.version }, { headers: { "Idempotency-Key": R.api.newKey() } });
    } catch (err) {
      if (err.code !== "game.stale_version") flash(err.describe ? err.describe() : String(err), "error");
    } finally {
      current.busy = false;
    }
    if (page === current) await refreshGame(current);
  }

  // ------------------------------------------------------------------------------------------ rendering

  function header(p) {
    const t = p.table;
    const seated = t.players.some((x) => x.username === me() && x.status !== "left");
    const opts = t.options || {};
    return h("div", { class: "table-head", dataset: { role: "table-head" } },
      h("h1", {}, `Table #${t.id} · ${R.lobby.gameName(t.game)}`),
      h("p", { class: "facts" },
        `PCR ${t.pcr}${t.multiplier > 1 ? ` × ${t.multiplier}` : ""} · buy-in ${chips(t.min_buy_in)}–${chips(t.max_buy_in)} · `,
        `${t.seats} seats · turn ${opts.turn_seconds ?? "default"}s + bank ${opts.time_bank_seconds ?? "default"}s · ${t.status}`),
      t.code ? h("p", { class: "code" }, "Private table code: ", h("strong", { dataset: { role: "table-code" } }, t.code), " — give it to the players you invite.") : null,
      h("div", { class: "seat-actions" },
        t.status === "open" ? R.lobby.buyInForm(t, (hash) => (hash === location.hash ? load(p.root, t.id) : (location.hash = hash)), seated ? "Top up" : "Sit") : null,
        seated ? h("button", { type: "button", dataset: { role: "leave" }, onclick: () => leave(p) }, "Leave the table") : null));
  }

  async function leave(p) {
    try {
      p.table = await R.api.post(`/tables/${p.table.id}/leave/`);
      flash("You leave the table: now between rounds, or once this round is over and settled.", "info");
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
    await refreshGame(p);
  }

  function playersPanel(g) {
    const turn = g.turn && g.turn.player;
    const results = (g.result && g.result.scores) || {};
    return h("table", { class: "grid players", dataset: { role: "players" } },
      h("thead", {}, h("tr", {}, ["Player", "Seat", "Chips", "Cards", "Round scores", "Total", "Time bank", "Status"].map((x) => h("th", {}, x)))),
      h("tbody", {}, (g.players || []).map((pl) => {
        const scores = (pl.scores || []).filter((s) => s !== null && s !== undefined);
        const total = scores.reduce((a, b) => a + b, 0);
        return h("tr", { class: pl.username === turn ? "to-play" : "", dataset: { role: "player", username: pl.username } },
          h("td", {}, pl.username, pl.username === me() ? " (you)" : "", pl.username === g.dealer ? h("span", { class: "tag" }, "dealer") : null),
          h("td", {}, pl.seat ?? ""),
          h("td", { dataset: { role: "chips" } }, chips(pl.chips)),
          h("td", { dataset: { role: "hand-count" } }, pl.hand_count ?? ""),
          h("td", {}, scores.join(", ") || "–", results[pl.username] !== undefined ? ` (this round ${results[pl.username]})` : ""),
          h("td", { dataset: { role: "total" } }, String(total)),
          h("td", {}, pl.time_bank === null || pl.time_bank === undefined ? "–" : `${Math.round(pl.time_bank)}s`),
          h("td", {}, pl.status));
      })));
  }

  function board(g) {
    const moves = g.legal_moves || [];
    const stockMove = moves.find((m) => m.type === "draw" && m.source === "stock");
    const pileMoves = new Map(moves.filter((m) => m.type === "draw" && m.source === "discard").map((m) => [m.index, m]));
    const stock = stockMove
      ? moveButton(stockMove, `Stock · ${g.stock_count ?? 0}`, "stock")
      : h("span", { class: "stock" }, `Stock · ${g.stock_count ?? "–"}`);
    stock.dataset.role = stockMove ? "move" : "stock";
    const pile = (g.discard_pile || []).map((code, index) => {
      const move = pileMoves.get(index);
      return move ? moveButton(move, card(code), "pile-card") : card(code, { class: "pile-card" });
    });
    const melds = (g.melds || []).map((m) =>
      h("div", { class: "meld", dataset: { role: "meld", meld: m.id } },
        h("div", { class: "meld-id" }, `${m.id} · ${m.owner}`),
        h("div", { class: "meld-cards" }, (m.cards || []).map((code, i) =>
          h("span", { class: "placed" }, card(code), h("small", { class: "placer", dataset: { role: "placer" } }, (m.placers || [])[i] || ""))))));
    return h("section", { class: "board panel", dataset: { role: "board" } },
      h("div", { class: "piles" },
        h("div", {}, h("h3", {}, "Stock"), stock),
        h("div", { class: "discard" }, h("h3", {}, "Discard pile (bottom → top)"), h("div", { class: "pile", dataset: { role: "discard-pile" } }, pile.length ? pile : "empty"))),
      h("h3", {}, "Melds"),
      h("div", { class: "melds", dataset: { role: "melds" } }, melds.length ? melds : h("span", { class: "empty" }, "No melds yet.")));
  }

  function handPanel(g) {
    if (!Array.isArray(g.hand)) return h("p", { class: "hint", dataset: { role: "spectating" } }, "You are watching: players' hands are theirs alone.");
    const obligations = g.obligations;
    return h("section", { class: "panel hand", dataset: { role: "hand" } },
      h("h3", {}, `Your hand (${g.hand.length})`),
      h("div", { class: "cards" }, g.hand.map((c) => card(c))),
      obligations && Object.keys(obligations).length ? h("p", { class: "hint" }, `This turn you must still: ${JSON.stringify(obligations)}`) : null);
  }

  function movesPanel(g) {
    const moves = g.legal_moves || [];
    if (!moves.length) {
      const turn = g.turn && g.turn.player;
      const text = g.status !== "playing" ? "" : turn === me() ? "Waiting…" : turn ? `Waiting for ${turn}.` : "";
      return h("section", { class: "panel moves", dataset: { role: "moves", empty: "true" } }, h("h3", {}, "Your moves"), h("p", { class: "hint" }, text || "Nothing to do right now."));
    }
    const known = new Set(GROUPS.map(([t]) => t));
    const groups = GROUPS.map(([type, title]) => [title, moves.filter((m) => m.type === type)]);
    groups.push(["Other", moves.filter((m) => !known.has(m.type))]);
    return h("section", { class: "panel moves", dataset: { role: "moves", empty: "false" } },
      h("h3", {}, "Your moves"),
      groups.filter(([, list]) => list.length).map(([title, list]) =>
        h("div", { class: "move-group" }, title ? h("h4", {}, title) : null, list.map((m) => moveButton(m)))));
  }

  function clockText(g, table) {
    if (!g || g.status !== "playing" || !g.turn) {
      if (g && g.next_round_at) {
        const s = Math.max(0, Math.ceil((Date.parse(g.next_round_at) - Date.now()) / 1000));
        return `Next round in ${s}s`;
      }
      return g && g.status === "waiting" ? "Waiting for two seated players with chips." : "";
    }
    const t = g.turn;
    const deadline = t.deadline ? Date.parse(t.deadline) : null;
    if (deadline === null) return t.player ? `${t.player} to play` : "";
    const left = Math.max(0, (deadline - Date.now()) / 1000);
    if (g.phase === "claims") return `"Rummy!" calls open: ${Math.ceil(left)}s (${(t.claims || []).join(", ")} may call)`;
    const row = (g.players || []).find((x) => x.username === t.player);
    const bank = row && row.time_bank !== null && row.time_bank !== undefined ? Number(row.time_bank) : 0;
    const turnLeft = Math.max(0, left - bank);
    const bankLeft = Math.min(bank, left);
    const who = t.player === me() ? "Your turn" : `${t.player} to play`;
    return `${who} · turn ${Math.ceil(turnLeft)}s · bank ${Math.ceil(bankLeft)}s`;
  }

  function status(g) {
    if (!g) return "";
    if (g.status === "closed") return "The table is closed.";
    if (g.phase === "over") return `Round ${g.round} is over: results below.`;
    if (g.round) return `Round ${g.round} · ${g.phase}`;
    return "No round yet.";
  }

  function roundsPanel(p) {
    const rows = p.rounds || [];
    return h("section", { class: "panel rounds", dataset: { role: "rounds" } },
      h("h2", {}, "Round results"),
      rows.length ? rows.slice().reverse().map((r) => roundView(r)) : h("p", { class: "empty" }, "No round has been played yet."));
  }

  function roundView(r) {
    const scores = r.scores || {};
    const verdict = h("span", { class: "verdict", dataset: { role: "verify-result" } });
    const verify = r.deck && r.salt
      ? h("button", { type: "button", dataset: { role: "verify" }, onclick: async () => {
          const { ok, computed } = await R.sha256.verifyDeal(r.deal_commitment, r.deck, r.salt);
          verdict.dataset.ok = String(ok);
          verdict.textContent = ok ? `✓ SHA-256 of the revealed deck and salt matches the commitment (${computed}).` : `✗ Mismatch: computed ${computed}.`;
        } }, "Verify the deal")
      : h("span", { class: "hint" }, "The deck and salt are revealed when the round is over.");
    return h("article", { class: "round", dataset: { role: "round", number: r.number, settled: String(r.settled) } },
      h("h3", {}, `Round ${r.number}`, r.ended_at ? ` · ended ${when(r.ended_at)}` : " · in play"),
      r.scores ? h("table", { class: "grid" },
        h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Score"))),
        h("tbody", {}, Object.entries(scores).map(([name, score]) => h("tr", { dataset: { role: "round-score", username: name } }, h("td", {}, name), h("td", {}, String(score)))))) : null,
      r.ended_at ? h("div", { dataset: { role: "transfers" } }, h("h4", {}, "Settlement"),
        (r.transfers || []).length
          ? h("ul", {}, r.transfers.map((t) => h("li", { dataset: { role: "transfer", from: t.from, to: t.to, amount: t.amount } }, `${t.from} → ${t.to}: ${chips(t.amount)} chips (${t.kind})`)))
          : h("p", { class: "empty" }, r.settled ? "Nothing to transfer (a tie)." : "Not settled yet.")) : null,
      h("div", { class: "commitment" },
        h("p", {}, "Deal commitment: ", h("code", { dataset: { role: "commitment" } }, r.deal_commitment)),
        r.deck ? h("details", {}, h("summary", {}, "Revealed deck and salt"), h("p", {}, "Salt: ", h("code", { dataset: { role: "salt" } }, r.salt)), cardList(r.deck)) : null,
        verify, " ", verdict));
  }

  function eventText(e) {
    switch (e.kind) {
      case "move": {
        const move = e.move || {};
        const what = move.type ? label(move) : "a move";
        return `${e.player}${e.server_played ? " (played by the server)" : ""}: ${what}`;
      }
      case "round_started":
        return `Round ${e.round} dealt (dealer ${e.dealer})`;
      case "round_over":
        return `Round ${e.round} over: ${Object.entries(e.scores || {}).map(([k, v]) => `${k} ${v}`).join(", ")}`;
      default:
        return e.kind;
    }
  }

  function draw(p) {
    const root = p.root;
    const g = p.game;
    clear(root);
    const clock = h("p", { class: "clock", dataset: { role: "clock" } }, clockText(g, p.table));
    root.append(
      h("section", { class: "table-page", dataset: { role: "table-page", table: p.table.id, game: g ? g.id : "", version: g ? g.version : "", phase: (g && g.phase) || "", round: (g && g.round) || "" } },
        header(p),
        g ? h("div", { class: "status-line" }, h("strong", { dataset: { role: "status" } }, status(g)), clock) : h("p", { class: "hint" }, "Sit to see the game."),
        g ? h("div", { class: "table-grid" },
          h("div", { class: "left" }, board(g), handPanel(g), movesPanel(g)),
          h("div", { class: "right" }, playersPanel(g),
            h("section", { class: "panel log" }, h("h3", {}, "Events (newest first)"), h("ol", { dataset: { role: "events" } }, p.log.slice(-30).reverse().map((e) => h("li", {}, `v${e.version} ${eventText(e)}`)))))) : null,
        roundsPanel(p)));
  }

  // ---------------------------------------------------------------------------------------- data loops

  async function refreshGame(p) {
    try {
      p.table = await R.api.get(`/tables/${p.tableId}/`);
    } catch (err) {
      if (err.status !== 404) throw err;
      flash("No such table (or it is private and you are not seated).", "error");
      return;
    }
    const gid = p.table.current_game || (p.game && p.game.id);
    try {
      p.game = gid ? await R.api.get(`/games/${gid}/`) : null;
    } catch (err) {
      // A private table's creator sees the table before sitting, but its game only once seated.
      if (err.status !== 404) throw err;
      p.game = null;
    }
    if (page === p) draw(p);
  }

  async function refreshRounds(p) {
    if (!p.game) return;
    try {
      const answer = await R.api.get(`/games/${p.game.id}/rounds/?page_size=500`);
      p.rounds = answer.results || [];
    } catch (err) {
      p.rounds = []; // not a player of this table (403): no history to show
    }
    if (page === p) draw(p);
  }

  async function pollEvents(p) {
    let after = p.game ? p.game.version : 0;
    while (page === p && p.game) {
      try {
        const answer = await R.api.call("GET", `/games/${p.game.id}/events/?after=${after}&wait=25`, { signal: p.abort.signal });
        const body = answer.data;
        after = body.next_after;
        if (body.events.length) {
          p.log.push(...body.events);
          await refreshGame(p);
          if (body.events.some((e) => e.kind === "round_over" || e.kind === "round_started" || e.kind === "table_closed")) await refreshRounds(p);
        } else if (answer.headers.get("Retry-After")) {
          await sleep(1000 * Number(answer.headers.get("Retry-After") || 1));
        } else {
          // a quiet spell: seats may have changed (sitting is no game event)
          await refreshGame(p);
        }
      } catch (err) {
        if (page !== p || (err && err.name === "AbortError")) return;
        if (err.status === 403 || err.status === 404) {
          // a spectator reads no event stream: refresh the public view now and then instead
          await sleep(3000);
          await refreshGame(p).catch(() => {});
          continue;
        }
        await sleep(2000);
      }
    }
  }

  function stop() {
    if (!page) return;
    page.abort.abort();
    clearInterval(page.timer);
    page = null;
  }

  async function load(root, tableId) {
    stop();
    const p = { root, tableId, table: null, game: null, rounds: [], log: [], busy: false, abort: new AbortController(), timer: null };
    page = p;
    clear(root).append(h("p", {}, "Loading the table…"));
    await refreshGame(p);
    if (page !== p || !p.table) return;
    R.lobby.remember(p.table.id);
    await refreshRounds(p);
    p.timer = setInterval(() => {
      const el = root.querySelector("[data-role=clock]");
      if (el && page === p) el.textContent = clockText(p.game, p.table);
    }, 250);
    pollEvents(p);
  }

  R.table = { load, stop, label };
})((window.Ramino = window.Ramino || {}));
