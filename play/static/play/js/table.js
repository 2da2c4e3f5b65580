/* The table: the game as the API shows this player (their own hand to select and act on, the pile, everyone's
 * melds with who placed each card, hand counts, scores, the turn clock and time bank in words), the legal moves
 * (the server's, the only source of truth) through the hand's actions and as a list, live updates from the
 * events long-poll (others' moves and "your turn" read out by a live region), each round's results in words
 * with a countdown to the next deal, and the round history with the deal check. A tournament's table shows
 * its tournament, points toward the target or tournament chips, and no buy-in, top-up or leave. */
(function (R) {
  "use strict";

  const { h, clear, flash, sleep } = R.dom;
  const { t, tn, number, dateTime } = R.i18n;
  const { card, cardList } = R.cards;
  const W = R.tableWords;

  let page = null; // the open table page; replaced (and its loops stopped) on every navigation
  let moved = null; // {from, to}: the move the last page followed, for the table it went to to say

  function me() {
    const s = R.api.session();
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
    return { headers: { "Accept-Language": R.i18n.lang(), ...(extra || {}) } };
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

  // --------------------------------------------------------------------------------------------- moves

  async function play(move) {
    const current = page;
    if (!current || !current.game || current.busy) return;
    current.busy = true;
    current.pick = null;
    current.content.querySelectorAll("[data-role=move], [data-act]").forEach((b) => (b.disabled = true));
    try {
      await R.api.post(`/games/${current.game.id}/moves/`, { ...move, expected_version: current.game.version }, sent({ "Idempotency-Key": R.api.newKey() }));
      current.hand.selected.clear();
    } catch (err) {
      if (err.code !== "game.stale_version") flash(t("The move was refused: %(message)s", { message: errorText(err) }), "error");
    } finally {
      current.busy = false;
    }
    if (page === current) await refreshGame(current, true);
  }

  function moveButton(g, move, content, extraClass) {
    return h("button", {
      type: "button",
      class: `move ${extraClass || ""}`.trim(),
      dataset: { role: "move", type: move.type, move: JSON.stringify(move), focus: `move:${JSON.stringify(move)}${extraClass ? `:${extraClass}` : ""}` },
      onclick: () => play(move),
    }, content || W.label(move, g));
  }

  // ------------------------------------------------------------------------------------------- the head

  function header(p) {
    const tb = p.table;
    const tour = tournamentOf(p);
    const mine = tb.players.find((x) => x.username === me() && x.status !== "left");
    const opts = tb.options || {};
    // A practice table (no chips, ended rather than left): its head is practice.js's.
    if (tb.practice) return R.practice.head(p, { mine, midRound: inRunningRound(p), redraw: () => draw(p), refresh: () => refreshGame(p, true) });
    if (tour) {
      const goal = tour.kind === "single" && tour.target_score ? t("first to %(points)s wins", { points: W.points(tour.target_score) })
        : tour.kind === "quick" && tour.rounds ? tn("%(n)s round", "%(n)s rounds", tour.rounds, { n: number(tour.rounds) })
        : tour.kind === "multi" ? t("played for tournament chips") : "";
      return h("div", { class: "table-head", dataset: { role: "table-head", tournament: tour.id } },
        h("h1", { tabindex: "-1", dataset: { focus: "heading" } }, t("Tournament table · %(name)s", { name: tour.name })),
        h("p", { class: "facts" }, [R.lobby.gameName(tb.game), W.tournamentKind(tour.kind), goal].filter(Boolean).join(" · ")),
        p.moved ? h("p", { class: "notice", dataset: { role: "moved" } }, t("You were moved to table %(table)s (from table %(from)s).", { table: number(p.moved.to), from: number(p.moved.from) })) : null,
        tour.my_table && tour.my_table !== tb.id
          ? h("p", { class: "notice", dataset: { role: "my-table" } }, t("You play at table %(table)s.", { table: number(tour.my_table) }), " ",
            h("a", { href: `#/table/${tour.my_table}`, dataset: { role: "my-table-link", focus: "my-table-link" } }, t("Go to your table")))
          : null,
        h("p", { class: "facts" }, h("a", { href: `#/tournament/${tour.id}`, dataset: { role: "tournament-link", focus: "tournament-link" } }, t("The tournament's page: standings, prizes")),
          " · ", t("The tournament seats its players and plays them to the end: there is no buy-in, top-up or leaving here.")));
    }
    const clock = opts.turn_seconds
      ? t("turn %(turn)s + time bank %(bank)s", { turn: W.span(opts.turn_seconds), bank: W.span(opts.time_bank_seconds || 0) })
      : t("the server's usual clock");
    const facts = [
      tb.multiplier > 1 ? t("PCR %(pcr)s × %(multiplier)s", { pcr: number(tb.pcr), multiplier: number(tb.multiplier) }) : t("PCR %(pcr)s", { pcr: number(tb.pcr) }),
      t("buy-in %(min)s–%(max)s chips", { min: number(tb.min_buy_in), max: number(tb.max_buy_in) }),
      tn("%(n)s seat", "%(n)s seats", tb.seats, { n: number(tb.seats) }),
      clock,
      tb.status === "open" ? t("open") : tb.status === "closed" ? t("closed") : t("out of service"),
    ];
    return h("div", { class: "table-head", dataset: { role: "table-head" } },
      h("h1", { tabindex: "-1", dataset: { focus: "heading" } }, t("Table %(id)s · %(game)s", { id: `#${tb.id}`, game: R.lobby.gameName(tb.game) })),
      h("p", { class: "facts" }, facts.join(" · ")),
      tb.code ? shareBox(tb) : null,
      h("div", { class: "seat-actions" },
        tb.status === "open" ? buyIn(p, tb, mine) : null,
        mine && mine.status === "leaving" ? h("p", { class: "hint", dataset: { role: "leaving" } }, t("You are leaving: the server plays your hand to the end of this round, then your chips go back to your wallet.")) : null,
        mine && mine.status !== "leaving" ? h("button", { type: "button", dataset: { role: "leave", focus: "leave" }, onclick: () => { p.confirmLeave = true; p.focusNext = "leave-confirm"; draw(p); } }, t("Leave the table")) : null),
      p.confirmLeave && mine ? leaveConfirm(p, mine) : null);
  }

  /** A private table's code and the link to share it by (#/join/CODE), with a button that copies the link. */
  function shareBox(tb) {
    const link = R.lobby.shareLink(tb.code);
    const field = h("input", { id: `share-${tb.id}`, type: "url", readonly: true, value: link, dataset: { role: "share-link" }, onfocus: (e) => e.target.select() });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(link);
      } catch (_) {
        field.select();
        document.execCommand("copy");
      }
      R.dom.flash(t("Link copied: send it to the players you invite."), "info");
    };
    return h("div", { class: "code share", dataset: { role: "share" } },
      h("p", {}, t("Private table code:"), " ", h("strong", { dataset: { role: "table-code" } }, tb.code)),
      h("label", { for: `share-${tb.id}` }, t("Link to share with the players you invite")),
      h("div", { class: "share-row" }, field, h("button", { type: "button", dataset: { role: "copy-link" }, onclick: copy }, t("Copy the link"))));
  }

  /** The lobby's buy-in form (sit, or top up), its amount and focus kept across redraws. */
  function buyIn(p, tb, mine) {
    const form = R.lobby.buyInForm(tb, (hash) => (hash === location.hash ? load(p.root, tb.id) : (location.hash = hash)), mine ? t("Top up") : t("Sit"));
    const input = form.querySelector("input");
    if (input) {
      input.dataset.focus = "buy-in";
      if (p.buyIn) input.value = p.buyIn;
      input.addEventListener("input", () => (p.buyIn = input.value));
    }
    const button = form.querySelector("button");
    if (button) button.dataset.focus = "sit";
    return form;
  }

  /** Leaving asks first, and says what really happens (tournaments/live/tables.py `leave`). */
  function leaveConfirm(p, mine) {
    const midRound = inRunningRound(p);
    const text = midRound
      ? [
          t("This round is still being played. If you leave now, the server plays your hand at once, every turn until the round ends: it draws from the stock, uses a card you already had to use, and discards your highest card. It never melds for you, so the cards left in your hand count against you."),
          t("The round is then settled as usual: you pay what your hand loses, at most your stack of %(chips)s. What is left of your stack goes back to your wallet.", { chips: chipsText(mine.chips) }),
        ]
      : [t("Your stack of %(chips)s goes back to your wallet now.", { chips: chipsText(mine.chips) })];
    return h("section", { class: "confirm panel", role: "group", "aria-labelledby": "leave-title", dataset: { role: "leave-confirmation", midRound: String(midRound) } },
      h("h2", { id: "leave-title" }, midRound ? t("Leave in the middle of a round?") : t("Leave the table?")),
      text.map((x) => h("p", { dataset: { role: "leave-explanation" } }, x)),
      h("div", { class: "seat-actions" },
        h("button", { type: "button", class: "danger", dataset: { role: "leave-confirm", focus: "leave-confirm" }, onclick: () => leave(p, midRound) }, midRound ? t("Leave now and let the server play my hand") : t("Leave now")),
        h("button", { type: "button", dataset: { role: "leave-cancel", focus: "leave-cancel" }, onclick: () => { p.confirmLeave = false; p.focusNext = "leave"; draw(p); } }, t("Stay at the table"))));
  }

  async function leave(p, midRound) {
    p.confirmLeave = false;
    try {
      p.table = await R.api.post(`/tables/${p.table.id}/leave/`, undefined, sent());
      flash(midRound ? t("You are leaving: the server plays your hand to the end of this round, then your chips go back to your wallet.") : t("You left the table: your chips are back in your wallet."), "info");
    } catch (err) {
      flash(errorText(err), "error");
    }
    await refreshGame(p, true);
  }

  // ------------------------------------------------------------------------------------------ the board

  /** A meld's cards, who placed them said once for each group of cards one player put down (and not at all
   * when the meld's owner placed every card: its heading names them). Shared with the replay. */
  function meldCards(m) {
    const runs = W.placedRuns(m);
    const named = runs.length > 1 || (runs.length === 1 && runs[0].placer && runs[0].placer !== m.owner);
    return h("div", { class: "meld-cards" }, runs.map((run) =>
      h("span", { class: "placed-run", dataset: { role: "placed-run", placer: run.placer } },
        h("span", { class: "run-cards" }, run.cards.map((code) => card(code))),
        named ? h("small", { class: "placer", dataset: { role: "placer" } }, run.placer) : null)));
  }

  /** A seated player (not one who has left): their cards come with the deal. */
  function seatedHere(p) {
    return !!(p.table && (p.table.players || []).some((x) => x.username === me() && x.status !== "left"));
  }

  function board(p, g) {
    const moves = g.legal_moves || [];
    const stockMove = moves.find((m) => m.type === "draw" && m.source === "stock");
    const pileMoves = new Map(moves.filter((m) => m.type === "draw" && m.source === "discard").map((m) => [m.index, m]));
    const stockText = t("Stock · %(n)s", { n: number(g.stock_count ?? 0) });
    const stock = stockMove ? moveButton(g, stockMove, stockText, "stock") : h("span", { class: "stock", dataset: { role: "stock" } }, stockText);
    const pile = (g.discard_pile || []).map((code, index) => {
      const move = pileMoves.get(index);
      return move ? moveButton(g, move, card(code, { title: W.label(move, g) }), "pile-card") : card(code, { class: "pile-card" });
    });
    const targets = p.pick && p.pick.kind === "lay_off" ? new Map(p.pick.moves.map((m) => [m.meld, m])) : new Map();
    const melds = (g.melds || []).map((m) => {
      const cards = meldCards(m);
      const target = targets.get(m.id);
      if (target) {
        return h("button", { type: "button", class: "meld target", dataset: { role: "lay-off-target", meld: m.id, focus: `target:${m.id}` }, title: W.label(target, g), onclick: () => play(target) },
          h("span", { class: "meld-id" }, t("Lay off here · %(owner)s", { owner: m.owner })), cards);
      }
      return h("div", { class: "meld", dataset: { role: "meld", meld: m.id } }, h("div", { class: "meld-id" }, m.owner), cards);
    });
    if (!g.round) {
      // nothing is dealt yet: no stock or pile to show (an empty stock of 0 would say the opposite)
      return h("section", { class: "board panel", "aria-labelledby": "board-title", dataset: { role: "board" } },
        h("h2", { id: "board-title", class: "visually-hidden" }, t("The table")),
        h("p", { class: "hint", dataset: { role: "no-deal" } }, t("The cards are not dealt yet.")));
    }
    return h("section", { class: "board panel", "aria-labelledby": "board-title", dataset: { role: "board" } },
      h("h2", { id: "board-title", class: "visually-hidden" }, t("The table")),
      h("div", { class: "piles" },
        h("div", {}, h("h3", {}, t("Stock")), stock),
        h("div", { class: "discard" }, h("h3", {}, t("Discard pile (bottom → top)")), h("div", { class: "pile", dataset: { role: "discard-pile" } }, pile.length ? pile : t("empty")))),
      h("h3", {}, t("Melds")),
      h("div", { class: "melds", dataset: { role: "melds" } }, melds.length ? melds : h("span", { class: "empty" }, t("No melds yet."))));
  }

  // ------------------------------------------------------------------------------------------- the hand

  function handPanel(p, g) {
    if (!Array.isArray(g.hand)) {
      // a seated player without cards waits for a deal (the first, or the next one after sitting mid-round)
      if (seatedHere(p)) {
        return h("p", { class: "hint", dataset: { role: "waiting-deal" } }, g.round && g.phase !== "over"
          ? t("You are seated: you play from the next deal.")
          : t("You are seated: your cards come with the deal."));
      }
      return h("p", { class: "hint", dataset: { role: "spectating" } }, t("You are watching: players' hands are theirs alone."));
    }
    const hs = p.hand;
    hs.order = R.hand.ordered(g.id, g.hand);
    R.hand.prune(hs);
    const redraw = () => draw(p);
    const selected = R.hand.selectedCodes(hs);
    const fit = R.hand.actions(g.legal_moves, selected);
    const duties = W.obligations(g.obligations);
    const act = (kind, moves) => {
      if (moves.length === 1) return play(moves[0]);
      p.pick = { kind, moves };
      p.focusNext = kind === "lay_off" ? `target:${moves[0].meld}` : "pick:0";
      draw(p);
      return null;
    };
    const button = (kind, text, moves, focus) => h("button", { type: "button", disabled: !moves.length || p.busy, dataset: { act: kind, role: `act-${kind}`, focus }, onclick: () => act(kind, moves) }, text);
    const hint = selected.length
      ? [
          tn("%(n)s card selected.", "%(n)s cards selected.", selected.length, { n: number(selected.length) }),
          fit.meld.length || fit.lay_off.length || fit.discard.length || fit.swap_joker.length ? "" : myTurn(g) ? t("These cards make no legal move now.") : t("Wait for your turn to play them."),
        ].filter(Boolean).join(" ")
      : myTurn(g) ? (g.phase === "draw" ? t("Draw a card: the stock, or a card of the discard pile.") : t("Select cards to meld, lay off or discard them.")) : t("Select cards to plan your play; you act on your turn.");
    return h("section", { class: "panel hand", "aria-labelledby": "hand-title", dataset: { role: "hand" } },
      h("div", { class: "hand-head" },
        h("h2", { id: "hand-title" }, tn("Your hand (%(n)s card)", "Your hand (%(n)s cards)", g.hand.length, { n: number(g.hand.length) })),
        h("div", { class: "sorts", role: "group", "aria-label": t("Sort your hand") },
          h("button", { type: "button", dataset: { role: "sort-suit", focus: "sort-suit" }, onclick: () => { R.hand.sortHand(g.id, hs, "suit"); redraw(); } }, t("Sort by suit")),
          h("button", { type: "button", dataset: { role: "sort-rank", focus: "sort-rank" }, onclick: () => { R.hand.sortHand(g.id, hs, "rank"); redraw(); } }, t("Sort by rank")))),
      duties.length ? h("ul", { class: "duties", dataset: { role: "obligations" } }, duties.map((x) => h("li", {}, x))) : null,
      R.hand.render(g.id, hs, redraw),
      h("p", { class: "hint", dataset: { role: "selection-hint" } }, hint),
      h("div", { class: "hand-actions", role: "group", "aria-label": t("Play the selected cards") },
        button("meld", t("Meld"), fit.meld, "act-meld"),
        button("lay_off", t("Lay off"), fit.lay_off, "act-lay-off"),
        fit.swap_joker.length ? button("swap_joker", t("Swap for the joker"), fit.swap_joker, "act-swap") : null,
        button("discard", t("Discard"), fit.discard, "act-discard"),
        h("button", { type: "button", disabled: !selected.length, dataset: { role: "act-clear", focus: "act-clear" }, onclick: () => { hs.selected.clear(); p.pick = null; redraw(); } }, t("Clear the selection"))),
      p.pick ? pickPanel(p, g) : null);
  }

  /** Several legal moves use the selection: the player chooses (a meld on the table is also a button). */
  function pickPanel(p, g) {
    const title = p.pick.kind === "lay_off" ? t("Which meld? Click it on the table or choose here.") : t("Which way? Choose one.");
    return h("div", { class: "pick", role: "group", "aria-label": title, dataset: { role: "pick" } },
      h("p", { class: "hint" }, title),
      p.pick.moves.map((m, i) => h("button", { type: "button", dataset: { role: "pick-move", focus: `pick:${i}`, move: JSON.stringify(m) }, onclick: () => play(m) }, W.label(m, g))),
      h("button", { type: "button", dataset: { role: "pick-cancel", focus: "pick-cancel" }, onclick: () => { p.pick = null; draw(p); } }, t("Cancel")));
  }

  /** Every legal move as a button: the accessible fallback, in a collapsible list. */
  function movesPanel(p, g) {
    const moves = g.legal_moves || [];
    const turn = g.turn && g.turn.player;
    const groups = [
      ["draw", t("Draw")],
      ["meld", t("Meld")],
      ["lay_off", t("Lay off")],
      ["swap_joker", t("Swap a joker")],
      ["call_rummy", t("Rummy!")],
      ["pass_claim", ""],
      ["close", ""],
      ["end_round", ""],
      ["keep_deal", ""],
      ["refuse_deal", ""],
      ["discard", t("Discard (ends your turn)")],
    ];
    const known = new Set(groups.map(([type]) => type));
    const lists = groups.map(([type, title]) => [title, moves.filter((m) => m.type === type)]);
    lists.push([t("Other"), moves.filter((m) => !known.has(m.type))]);
    const details = h("details", { class: "panel moves", open: p.open.moves, dataset: { role: "moves", empty: String(!moves.length) } },
      h("summary", { dataset: { role: "moves-toggle", focus: "moves-toggle" } }, t("Every legal move as a list (%(n)s)", { n: number(moves.length) })),
      moves.length
        ? lists.filter(([, l]) => l.length).map(([title, l]) => h("div", { class: "move-group" }, title ? h("h3", {}, title) : null, l.map((m) => moveButton(g, m))))
        : h("p", { class: "hint" }, g.status !== "playing" ? t("Nothing to do right now.") : turn && turn !== me() ? t("Waiting for %(player)s.", { player: turn }) : t("Nothing to do right now.")));
    details.addEventListener("toggle", () => (p.open.moves = details.open));
    return details;
  }

  // ---------------------------------------------------------------------------------------- the players

  function totals(p) {
    const out = {};
    for (const r of p.rounds || []) {
      if (!r.ended_at) continue;
      for (const [name, v] of Object.entries(r.game_points || r.scores || {})) out[name] = (out[name] || 0) + v;
    }
    return out;
  }

  function playersPanel(p, g) {
    const turn = g.turn && g.turn.player;
    const points = scoresPoints(p);
    const multi = tournamentOf(p) && !points;
    const chipless = !!p.table.practice; // a practice table's stacks are empty: no chips column
    const sums = totals(p);
    const rows = [...(g.players || []), ...(g.waiting_players || [])];
    return h("section", { class: "panel players-panel", "aria-labelledby": "players-title" },
      h("h2", { id: "players-title" }, t("Players")),
      h("table", { class: "grid players", dataset: { role: "players" } },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col" }, t("Cards")),
          chipless ? null : h("th", { scope: "col" }, points ? t("Points") : multi ? t("Tournament chips") : t("Chips")),
          h("th", { scope: "col" }, t("Time bank")))),
        h("tbody", {}, rows.map((pl) => {
          const tags = [
            pl.username === me() ? t("you") : "",
            pl.username === g.dealer ? t("dealer") : "",
            pl.username === turn ? t("to play") : "",
            W.seatStatus(pl.status),
          ].filter(Boolean);
          const scores = (pl.scores || []).filter((s) => s !== null && s !== undefined);
          const total = sums[pl.username] ?? scores.reduce((a, b) => a + b, 0);
          return h("tr", { class: pl.username === turn ? "to-play" : "", dataset: { role: "player", username: pl.username } },
            h("th", { scope: "row" }, pl.username, R.players ? R.players.ratingBadge(pl.username, p.table.game) : null,
              tags.map((x) => h("span", { class: "tag" }, x))),
            h("td", { dataset: { role: "hand-count" } }, pl.hand_count === undefined ? "–" : number(pl.hand_count)),
            chipless ? null : h("td", { dataset: { role: points ? "points" : "chips" } }, points ? number(total) : pl.chips === null || pl.chips === undefined ? "–" : number(pl.chips)),
            h("td", {}, pl.time_bank === null || pl.time_bank === undefined ? "–" : W.seconds(Math.round(pl.time_bank))));
        }))),
      progressLine(p, sums));
  }

  /** "380 points to reach 500" (a sit-and-go), "round 2 of 5" (a quick game). */
  function progressLine(p, sums) {
    const tour = tournamentOf(p);
    if (!tour || !me()) return null;
    const mine = sums[me()] || 0;
    let text = "";
    if (tour.kind === "single" && tour.target_score) {
      const left = tour.target_score - mine;
      text = left > 0
        ? t("You have %(points)s; %(left)s to reach %(target)s.", { points: W.points(mine), left: W.points(left), target: number(tour.target_score) })
        : t("You have %(points)s: the target of %(target)s is reached.", { points: W.points(mine), target: number(tour.target_score) });
    } else if (tour.kind === "quick" && tour.rounds) {
      const played = (p.rounds || []).filter((r) => r.ended_at).length;
      text = t("You have %(points)s after %(played)s of %(rounds)s rounds.", { points: W.points(mine), played: number(played), rounds: number(tour.rounds) });
    }
    return text ? h("p", { class: "progress", dataset: { role: "progress" } }, text) : null;
  }

  // ------------------------------------------------------------------------------------ clocks and state

  function clockText(p) {
    const g = p.game;
    if (!g || g.status !== "playing" || !g.turn) {
      if (g && g.next_round_at) {
        const s = Math.max(0, Math.ceil((Date.parse(g.next_round_at) - Date.now()) / 1000));
        return s > 0 ? t("Next deal in %(time)s.", { time: W.duration(s) }) : t("Dealing the next round…");
      }
      if (g && g.status === "closed") return "";
      if (tournamentOf(p)) return g && g.round ? t("The next deal comes once the tournament has counted the round.") : t("Waiting for the tournament's first deal.");
      return g && g.status === "waiting" ? t("Waiting for two seated players with chips.") : "";
    }
    const turn = g.turn;
    const deadline = turn.deadline ? Date.parse(turn.deadline) : null;
    if (deadline === null) return turn.player ? t("%(player)s to play.", { player: turn.player }) : "";
    const left = Math.max(0, (deadline - Date.now()) / 1000);
    if (g.phase === "claims") return t("Rummy! calls are open for %(time)s: %(players)s may call.", { time: W.seconds(Math.ceil(left)), players: (turn.claims || []).join(", ") });
    const row = (g.players || []).find((x) => x.username === turn.player);
    const bank = row && row.time_bank !== null && row.time_bank !== undefined ? Number(row.time_bank) : 0;
    const turnLeft = Math.ceil(Math.max(0, left - bank));
    const bankLeft = Math.ceil(Math.min(bank, left));
    const mine = turn.player === me();
    if (turnLeft > 0 && bankLeft > 0) {
      return mine ? t("Your turn: %(turn)s left, then %(bank)s of time bank.", { turn: W.seconds(turnLeft), bank: W.seconds(bankLeft) })
        : t("%(player)s's turn: %(turn)s left, then %(bank)s of time bank.", { player: turn.player, turn: W.seconds(turnLeft), bank: W.seconds(bankLeft) });
    }
    if (turnLeft > 0) return mine ? t("Your turn: %(turn)s left.", { turn: W.seconds(turnLeft) }) : t("%(player)s's turn: %(turn)s left.", { player: turn.player, turn: W.seconds(turnLeft) });
    return mine ? t("Your turn, on your time bank: %(bank)s left.", { bank: W.seconds(bankLeft) }) : t("%(player)s's turn, on the time bank: %(bank)s left.", { player: turn.player, bank: W.seconds(bankLeft) });
  }

  function statusText(g) {
    if (!g) return "";
    if (g.status === "closed") return t("The table is closed.");
    if (g.phase === "over") return t("Round %(round)s is over.", { round: number(g.round) });
    if (g.round) return t("Round %(round)s · %(phase)s", { round: number(g.round), phase: W.phaseWord(g.phase) });
    return t("No round yet.");
  }

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
    if (p.table.practice) return R.practice.resultSentences(r, name);
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

  /** The results of the round just played: they stay until dismissed or the next deal. */
  function resultsPanel(p, g) {
    if (!g || g.phase !== "over" || !g.round || p.dismissed === g.round) return null;
    const r = (p.rounds || []).find((x) => x.number === g.round);
    if (!r || !r.ended_at) return null;
    const scores = r.scores || {};
    const tour = tournamentOf(p);
    return h("section", { class: "panel results", "aria-labelledby": "results-title", dataset: { role: "results", round: r.number } },
      h("h2", { id: "results-title" }, t("Round %(round)s results", { round: number(r.number) })),
      resultSentences(p, r).map((x) => h("p", { class: "result-line", dataset: { role: "result-line" } }, x)),
      winnersText(scores) ? h("p", {}, winnersText(scores)) : null,
      h("ul", { class: "result-scores" }, Object.entries(scores).map(([name, v]) => h("li", {}, t("%(player)s: %(points)s", { player: name, points: W.points(v) })))),
      h("p", { class: "countdown", dataset: { role: "countdown" } }, countdownText(p)),
      h("div", { class: "seat-actions" },
        tour ? h("a", { href: `#/tournament/${tour.id}`, class: "button", dataset: { focus: "results-tournament" } }, t("The tournament's page")) : null,
        h("button", { type: "button", dataset: { role: "results-dismiss", focus: "results-dismiss" }, onclick: () => { p.dismissed = g.round; p.focusNext = "heading"; draw(p); } }, t("Close the results"))));
  }

  function roundsPanel(p) {
    const rows = p.rounds || [];
    return h("section", { class: "panel rounds", "aria-labelledby": "rounds-title", dataset: { role: "rounds" } },
      h("h2", { id: "rounds-title" }, t("Round history")),
      rows.length ? rows.slice().reverse().map((r) => roundView(p, r)) : h("p", { class: "empty" }, t("No round has been played yet.")));
  }

  function roundView(p, r) {
    const scores = r.scores || {};
    const verdict = h("span", { class: "verdict", dataset: { role: "verify-result" } });
    const verify = r.deck && r.salt
      ? h("button", { type: "button", dataset: { role: "verify", focus: `verify:${r.number}` }, onclick: async () => {
          const { ok, computed } = await R.sha256.verifyDeal(r.deal_commitment, r.deck, r.salt);
          verdict.dataset.ok = String(ok);
          verdict.textContent = ok ? t("✓ The SHA-256 of the revealed deck and salt matches the commitment (%(hash)s).", { hash: computed }) : t("✗ Mismatch: computed %(hash)s.", { hash: computed });
        } }, t("Verify the deal"))
      : h("span", { class: "hint" }, t("The deck and salt are revealed when the round is over."));
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
      h("div", { class: "commitment" },
        h("p", {}, t("Deal commitment:"), " ", h("code", { dataset: { role: "commitment" } }, r.deal_commitment)),
        r.deck ? h("details", {}, h("summary", { dataset: { focus: `deck:${r.number}` } }, t("Revealed deck and salt")), h("p", {}, t("Salt:"), " ", h("code", { dataset: { role: "salt" } }, r.salt)), cardList(r.deck)) : null,
        verify, " ", verdict));
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

  // ------------------------------------------------------------------------------------------- drawing

  function draw(p) {
    if (page !== p) return;
    if (p.hand.dragging) {
      p.pendingDraw = true;
      return;
    }
    p.pendingDraw = false;
    const root = p.content;
    const g = p.game;
    // Focus and scroll survive the redraw: the element with the same data-focus key gets the focus back.
    const active = document.activeElement;
    const wasCard = !!(active && root.contains(active) && active.dataset && active.dataset.role === "hand-card");
    // on a card, the hand's own focus (the arrow keys and drags move it) is where the focus goes back
    const focusKey = p.focusNext || (wasCard && p.hand.focus ? `card:${p.hand.focus}` : active && root.contains(active) && active.dataset ? active.dataset.focus : null);
    p.focusNext = null;
    const scroll = window.scrollY;
    clear(root);
    const clock = h("p", { class: "clock", dataset: { role: "clock" } }, clockText(p));
    root.append(
      h("section", { class: `table-page${tournamentOf(p) ? " tournament-table" : ""}`, dataset: { role: "table-page", table: p.table.id, game: g ? g.id : "", version: g ? g.version : "", phase: (g && g.phase) || "", round: (g && g.round) || "", tournament: tournamentOf(p) ? tournamentOf(p).id : "" } },
        header(p),
        g ? h("div", { class: "status-line" }, h("strong", { dataset: { role: "status" } }, statusText(g)), clock) : h("p", { class: "hint" }, t("Sit to see the game.")),
        resultsPanel(p, g),
        g ? h("div", { class: "table-grid" },
          h("div", { class: "left" }, board(p, g), handPanel(p, g), movesPanel(p, g)),
          h("div", { class: "right" }, playersPanel(p, g), logPanel(p), shortcutsPanel(p))) : null,
        roundsPanel(p)));
    if (focusKey) {
      let el = root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      // the element is gone (a played card, a draw that is no longer offered): the hand, else the heading
      if (!el || el.disabled) el = root.querySelector("[data-role=hand-card][tabindex='0']");
      if (!el || el.disabled) el = root.querySelector("[data-focus=heading]");
      if (el) el.focus({ preventScroll: true });
    }
    window.scrollTo(window.scrollX, scroll);
    turnNotice(p);
    // The one hook for guides over the table (demo.js): the page as just drawn.
    window.dispatchEvent(new CustomEvent("ramino:table-drawn", { detail: p }));
  }

  /** "Your turn": said once by the live region when it starts, and to the tab (R.notify, when the page has it). */
  function turnNotice(p) {
    const mine = myTurn(p.game);
    if (mine === p.myTurn) return;
    p.myTurn = mine;
    if (R.notify && typeof R.notify.yourTurn === "function") R.notify.yourTurn(mine);
    if (mine) {
      const g = p.game;
      announce(p, g.phase === "draw" ? t("Your turn: draw from the stock or the discard pile.") : g.phase === "claims" ? t("You may call Rummy! now.") : t("Your turn."));
    }
  }

  /** Words for the live region; what comes within two seconds joins what was just said (a move, then "your
   * turn"), and each time it is a new node, so the same words twice are read twice. */
  function announce(p, text) {
    if (!text) return;
    const now = Date.now();
    p.said = p.said && now - p.saidAt < 2000 ? `${p.said} ${text}` : text;
    p.saidAt = now;
    clear(p.live).append(h("span", {}, p.said));
  }

  // ------------------------------------------------------------------------------------------ keyboard

  function onKey(p, event) {
    if (page !== p || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.closest("input, textarea, select") || target.isContentEditable)) return;
    const g = p.game;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const moves = (g && g.legal_moves) || [];
    const click = (css) => {
      const el = p.content.querySelector(css);
      if (el && !el.disabled) {
        event.preventDefault();
        el.click();
      }
    };
    switch (key) {
      case "s": {
        const m = moves.find((x) => x.type === "draw" && x.source === "stock");
        if (m) {
          event.preventDefault();
          play(m);
        }
        break;
      }
      case "p": {
        const pile = (g && g.discard_pile) || [];
        const m = moves.find((x) => x.type === "draw" && x.source === "discard" && x.index === pile.length - 1);
        if (m) {
          event.preventDefault();
          play(m);
        }
        break;
      }
      case "m":
        click("[data-role=act-meld]");
        break;
      case "l":
        click("[data-role=act-lay_off]");
        break;
      case "d":
        click("[data-role=act-discard]");
        break;
      case "h": {
        const el = p.content.querySelector("[data-role=hand-card][tabindex='0']");
        if (el) {
          event.preventDefault();
          el.focus();
        }
        break;
      }
      case "Escape":
        if (p.hand.selected.size || p.pick || p.confirmLeave) {
          event.preventDefault();
          p.hand.selected.clear();
          p.pick = null;
          p.confirmLeave = false;
          draw(p);
        }
        break;
      default:
    }
  }

  // ---------------------------------------------------------------------------------------- data loops

  async function refreshGame(p, force) {
    try {
      p.table = await R.api.get(`/tables/${p.tableId}/`);
    } catch (err) {
      if (err.status !== 404) throw err;
      flash(t("No such table (or it is private and you are not seated)."), "error");
      return;
    }
    if (seatedHere(p)) p.seatedHere = true;
    if (followMove(p)) return;
    const gid = p.table.current_game || (p.game && p.game.id);
    try {
      p.game = gid ? await R.api.get(`/games/${gid}/`) : null;
    } catch (err) {
      // A private table's creator sees the table before sitting, but its game only once seated.
      if (err.status !== 404) throw err;
      p.game = null;
    }
    if (p.game && p.game.phase !== "over") p.dismissed = null;
    if (p.game && p.game.round !== p.shownRound) {
      p.shownRound = p.game.round;
      p.pick = null;
    }
    // An idle refresh that finds nothing new leaves the page alone (no redraw under the player's hands).
    const snapshot = JSON.stringify([p.table, p.game]);
    if (snapshot === p.snapshot && !force) return;
    p.snapshot = snapshot;
    draw(p);
  }

  /** The tournament moved this page's player to another table (balancing, or breaking this one): the page
   * goes there by itself and says so, once, aloud and on the new table's head. Answers whether it left. */
  function followMove(p) {
    const tour = tournamentOf(p);
    if (page !== p || !tour || !p.seatedHere || !tour.my_table || tour.my_table === p.table.id) return false;
    const to = tour.my_table;
    const words = t("You were moved to table %(table)s.", { table: number(to) });
    moved = { from: p.table.id, to };
    flash(words, "info");
    location.hash = `#/table/${to}`;
    return true;
  }

  async function refreshRounds(p) {
    if (!p.game) return;
    try {
      const answer = await R.api.get(`/games/${p.game.id}/rounds/?page_size=500`);
      p.rounds = answer.results || [];
    } catch (err) {
      p.rounds = []; // not a player of this table (403): no history to show
    }
    draw(p);
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
          const others = body.events.filter((e) => e.kind === "move" && e.player !== me());
          const said = others.map((e) => W.eventSentence(e, p.game, W.named));
          const over = body.events.find((e) => e.kind === "round_over");
          if (said.length) announce(p, said.join(" "));
          await refreshGame(p);
          if (body.events.some((e) => e.kind === "round_over" || e.kind === "round_started" || e.kind === "table_closed")) await refreshRounds(p);
          if (over) {
            const r = (p.rounds || []).find((x) => x.number === over.round);
            if (r) announce(p, [t("Round %(round)s is over.", { round: number(over.round) }), ...resultSentences(p, r)].join(" "));
          }
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
    document.removeEventListener("keydown", page.keys);
    if (R.notify && typeof R.notify.yourTurn === "function") R.notify.yourTurn(false);
    page = null;
  }

  async function load(root, tableId) {
    stop();
    const p = {
      root, tableId, table: null, game: null, rounds: [], log: [], busy: false, abort: new AbortController(), timer: null,
      hand: { order: [], selected: new Set(), focus: null, dragging: false, suppressClick: false },
      open: { moves: false, shortcuts: false }, pick: null, confirmLeave: false, dismissed: null, focusNext: null, myTurn: false, said: "", saidAt: 0,
      content: h("div", { class: "table-content" }),
      live: h("div", { class: "live", role: "status", "aria-live": "polite", "aria-atomic": "true", dataset: { role: "announcer" } }),
    };
    if (moved && moved.to === tableId) {
      p.moved = moved;
      p.seatedHere = true;
    }
    moved = null;
    page = p;
    p.keys = (event) => onKey(p, event);
    clear(root).append(p.content, p.live);
    p.content.append(h("p", {}, t("Loading the table…")));
    await refreshGame(p);
    if (page !== p || !p.table) return;
    if (!p.table.practice) R.lobby.remember(p.table.id);
    await refreshRounds(p);
    document.addEventListener("keydown", p.keys);
    p.timer = setInterval(() => {
      if (page !== p) return;
      const el = p.content.querySelector("[data-role=clock]");
      if (el) el.textContent = clockText(p);
      const down = p.content.querySelector("[data-role=countdown]");
      if (down) down.textContent = countdownText(p);
      if (!p.hand.dragging && p.pendingDraw) draw(p);
    }, 250);
    pollEvents(p);
  }

  R.table = { load, stop, label: W.label, meldCards };
})((window.Ramino = window.Ramino || {}));
