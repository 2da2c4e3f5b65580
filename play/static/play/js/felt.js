/* The table as a game on one screen (docs/web.md "The table page"): opponents seated around the felt (name, rating,
 * their cards as backs, chips or points, a ring for the clock of the player to act, connected or not), the turn
 * bar (a line shrinking with the turn clock, then the time bank), rows of cards fitted by overlapping (the hand,
 * the pile, each meld: R.layout), the drawer for the secondary panels, the cards' motion (R.motion's queue: the
 * page is drawn in its new state at once and the animations only play over it), the tournament's strip and its
 * moments (moved to another table, the final table, the winner). table.js draws the page and calls these. */
import * as api from "./api.js";
import * as cards from "./cards.js";
import { h } from "./dom.js";
import { t, tn, number } from "./i18n.js";
import * as layout from "./lib/layout.mjs";
import * as motion from "./lib/motion.mjs";
import * as notify from "./notify.js";
import * as players from "./players.js";
import * as presence from "./presence.js";
import * as tableWords from "./table-words.js";
import * as table from "./table.js";

  const FOUR_COLOUR = "ramino.fourColour";
  const PLACER_COLOURS = 6;

  // ------------------------------------------------------------------------------------------- sizes

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  /** The card sizes for this viewport (layout.cardSize) as CSS variables on the document. */
  function sizeCards() {
    if (!layout) return;
    const s = layout.cardSize(window.innerWidth, window.innerHeight);
    const root = document.documentElement.style;
    root.setProperty("--card-w", `${s.hand.width}px`);
    root.setProperty("--card-h", `${s.hand.height}px`);
    root.setProperty("--felt-card-w", `${s.felt.width}px`);
    root.setProperty("--felt-card-h", `${s.felt.height}px`);
  }

  /** Rows of cards overlap just enough to fit their box: the hand (one row while it can), the pile, the melds. */
  function fit(root) {
    if (!layout || !root) return;
    const px = (name) => parseFloat(getComputedStyle(document.documentElement).getPropertyValue(name)) || 44;
    const handW = px("--card-w");
    const feltW = px("--felt-card-w");
    root.querySelectorAll(".one-screen [data-role=hand-cards]").forEach((row) => {
      const n = row.children.length;
      const r = layout.fanStep(n, handW, row.clientWidth - 2, { gap: 4, minVisible: 20 });
      row.style.setProperty("--step", `${r.step}px`);
      row.classList.toggle("wraps", !r.fits);
    });
    root.querySelectorAll(".one-screen [data-role=discard-pile]").forEach((pile) => {
      const n = pile.children.length;
      const r = layout.fanStep(n, feltW, pile.clientWidth - 2, { gap: 3, minVisible: 13 });
      pile.style.setProperty("--step", `${r.step}px`);
      pile.classList.toggle("wraps", !r.fits);
    });
    const area = root.querySelector(".one-screen [data-role=melds]");
    if (area) {
      const melds = Array.from(area.querySelectorAll(".meld-cards"));
      const sizes = melds.map((m) => m.querySelectorAll(".card").length);
      const packed = layout.packMelds(sizes, feltW, Math.max(feltW, area.clientWidth - 24), { gap: 10, minVisible: 13 });
      melds.forEach((m, i) => m.style.setProperty("--step", `${packed.melds[i].step}px`));
    }
  }

  // ------------------------------------------------------------------------------------------- seats

  /** Each player's colour, by seat order: the melds show who placed a card by it (a line under the cards). */
  function placerColours(g) {
    const out = {};
    (g.players || []).forEach((pl, i) => (out[pl.username] = i % PLACER_COLOURS));
    return out;
  }

  function backs(n) {
    const shown = Math.min(n, 5);
    return h("span", { class: "backs", "aria-hidden": "true" }, Array.from({ length: shown }, () => h("span", { class: "card-back" })));
  }

  /** The clock's ring on the seat of the player to act: a circle whose stroke shrinks (tick sets it). */
  function ring() {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "timer-ring");
    svg.setAttribute("viewBox", "0 0 36 36");
    svg.setAttribute("aria-hidden", "true");
    const track = document.createElementNS(ns, "circle");
    track.setAttribute("class", "ring-track");
    const line = document.createElementNS(ns, "circle");
    line.setAttribute("class", "ring-line");
    line.setAttribute("pathLength", "100");
    for (const c of [track, line]) {
      c.setAttribute("cx", "18");
      c.setAttribute("cy", "18");
      c.setAttribute("r", "16");
    }
    svg.append(track, line);
    return svg;
  }

  /** The opponents around the felt (everyone but this page's player; a spectator sees everyone). */
  function seats(p, g, me, opts) {
    const turn = g.turn && g.turn.player;
    const others = (g.players || []).filter((pl) => pl.username !== me);
    // play passes clockwise: the seats after mine first, from my left over the top to my right
    const mineAt = (g.players || []).findIndex((pl) => pl.username === me);
    const ordered = mineAt < 0 ? others : [...(g.players || []).slice(mineAt + 1), ...(g.players || []).slice(0, mineAt)];
    const spots = layout ? layout.seatPositions(ordered.length) : ordered.map(() => ({ x: 50, y: 20, side: "top" }));
    const colours = placerColours(g);
    return h("ul", { class: `seats seats-${ordered.length}`, "aria-label": t("Players at the table"), dataset: { role: "seats" } },
      ordered.map((pl, i) => {
        const spot = spots[i];
        const acting = pl.username === turn;
        const count = pl.hand_count;
        const facts = [
          count === undefined ? "" : tn("%(n)s card", "%(n)s cards", count, { n: number(count) }),
          opts.score(pl),
          acting ? t("to play") : "",
          pl.username === g.dealer ? t("dealer") : "",
          tableWords.seatStatus(pl.status),
          pl.connected === undefined ? "" : presence.word(pl.connected),
        ].filter(Boolean);
        const li = h("li", {
          class: `seat side-${spot.side}${acting ? " acting" : ""}${pl.connected === false ? " offline" : ""} placer-${colours[pl.username]}`,
          dataset: { role: "seat", username: pl.username, acting: String(acting) },
        },
          acting ? ring() : null,
          h("span", { class: "seat-name" }, h("span", { class: "swatch", "aria-hidden": "true" }), pl.username),
          players && players.ratingBadge ? players.ratingBadge(pl.username, p.table.game) : null,
          h("span", { class: "seat-cards" }, count === undefined ? null : backs(count), h("span", { class: "seat-count", dataset: { role: "seat-count" } }, count === undefined ? "–" : number(count))),
          h("span", { class: "seat-score" }, opts.score(pl)),
          pl.connected === undefined ? null : h("span", { class: `dot ${pl.connected ? "on" : "off"}`, dataset: { role: "seat-presence", connected: String(pl.connected) } }, h("span", { class: "visually-hidden" }, presence.word(pl.connected))),
          h("span", { class: "visually-hidden" }, facts.join(", ")));
        li.style.setProperty("--seat-x", `${spot.x}%`);
        li.style.setProperty("--seat-lift", `${Math.round((spot.y - 12) * 0.9)}px`);
        return li;
      }));
  }

  // --------------------------------------------------------------------------------------- the turn bar

  /** The clock's numbers for the turn on now: the turn's part and the bank's, left and in all (the in-all is
   * what was left when the page first saw this turn). */
  function clockParts(p) {
    const g = p.game;
    if (!g || g.status !== "playing" || !g.turn || !g.turn.deadline) return null;
    const left = Math.max(0, (Date.parse(g.turn.deadline) - Date.now()) / 1000);
    const row = (g.players || []).find((x) => x.username === g.turn.player);
    const bank = g.phase !== "claims" && row && row.time_bank !== null && row.time_bank !== undefined ? Number(row.time_bank) : 0;
    const key = `${g.turn.player}|${g.turn.deadline}|${g.phase}`;
    if (!p.turnSpan || p.turnSpan.key !== key) {
      const options = (p.table && p.table.options) || {};
      const seen = Math.max(0, left - bank);
      // the table's own clock when it has one, else what was left when the page first saw this turn
      p.turnSpan = { key, turn: Math.max(seen, Number(options.turn_seconds) || 0) || 1, bank: Math.max(bank, Number(options.time_bank_seconds) || 0) || 1 };
    }
    const turnLeft = Math.max(0, left - bank);
    const bankLeft = Math.min(bank, left);
    return { player: g.turn.player, left, turnLeft, bankLeft, onBank: turnLeft <= 0 && bank > 0, turnFraction: turnLeft / p.turnSpan.turn, bankFraction: bank ? bankLeft / p.turnSpan.bank : 0 };
  }

  function turnBar() {
    return h("div", { class: "turn-bar", "aria-hidden": "true", dataset: { role: "turn-bar" } }, h("span", { class: "turn-line" }));
  }

  /** Four times a second (table.js's timer): the turn bar, the ring, the last ten seconds' sound. */
  function tick(p, me) {
    const c = clockParts(p);
    const root = p.content;
    const bar = root.querySelector("[data-role=turn-bar]");
    const fraction = c ? (c.onBank ? c.bankFraction : c.turnFraction) : 0;
    if (bar) {
      bar.dataset.state = !c ? "idle" : c.onBank ? "bank" : "turn";
      bar.dataset.mine = String(!!c && c.player === me);
      bar.firstChild.style.transform = `scaleX(${Math.max(0, Math.min(1, fraction)).toFixed(3)})`;
    }
    const line = root.querySelector("[data-role=seat][data-acting=true] .ring-line");
    if (line) line.style.strokeDashoffset = String(100 - Math.round(Math.max(0, Math.min(1, fraction)) * 100));
    // the last ten seconds of my time: a short tick each second
    if (c && c.player === me && c.left <= 10 && c.left > 0) {
      const second = Math.ceil(c.left);
      if (p.lastTick !== second) {
        p.lastTick = second;
        if (notify && notify.sound) notify.sound("tick");
      }
    }
  }

  // ----------------------------------------------------------------------------------------- the drawer

  function drawerToggle(p, redraw) {
    return h("button", {
      type: "button", class: "drawer-toggle", "aria-expanded": String(!!p.open.drawer), "aria-controls": "table-drawer",
      dataset: { role: "drawer-toggle", focus: "drawer-toggle" },
      onclick: () => {
        p.open.drawer = !p.open.drawer;
        p.focusNext = p.open.drawer ? "drawer-close" : "drawer-toggle";
        redraw();
      },
    }, h("span", { "aria-hidden": "true" }, "☰ "), t("Table"));
  }

  function drawer(p, redraw, parts) {
    const close = h("button", { type: "button", class: "drawer-close", dataset: { role: "drawer-close", focus: "drawer-close" }, onclick: () => { p.open.drawer = false; p.focusNext = "drawer-toggle"; redraw(); } }, t("Close"));
    const aside = h("aside", { id: "table-drawer", class: "table-drawer", "aria-label": t("The table's details"), dataset: { role: "drawer", open: String(!!p.open.drawer) } },
      h("div", { class: "drawer-head" }, close),
      parts, settings(redraw));
    aside.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && p.open.drawer) {
        event.stopPropagation();
        p.open.drawer = false;
        p.focusNext = "drawer-toggle";
        redraw();
      }
    });
    return aside;
  }

  function fourColour() {
    try {
      return localStorage.getItem(FOUR_COLOUR) === "on";
    } catch (_) {
      return false;
    }
  }

  function applyColours() {
    document.documentElement.classList.toggle("four-colour", fourColour());
  }

  /** The drawer's settings: four-colour suits (colour-blind safe). Sound has its one switch in the menu. */
  function settings(redraw) {
    const id = "four-colour";
    const box = h("input", { type: "checkbox", id, checked: fourColour(), dataset: { role: "four-colour", focus: "four-colour" }, onchange: () => {
      try {
        localStorage.setItem(FOUR_COLOUR, box.checked ? "on" : "off");
      } catch (_) {
        // kept for this page only
      }
      applyColours();
      redraw();
    } });
    return h("section", { class: "panel table-settings", "aria-labelledby": "table-settings-title" },
      h("h2", { id: "table-settings-title" }, t("Cards")),
      h("div", { class: "check" }, box, h("label", { for: id }, t("Four-colour suits (♠ black, ♥ red, ♦ blue, ♣ green)"))));
  }

  // ---------------------------------------------------------------------------------------- motion

  let queue = null;

  function spot(root, where) {
    if (!root) return null;
    if (where === "stock") return root.querySelector("[data-role=stock]");
    if (where === "pile") {
      const pile = root.querySelector("[data-role=discard-pile]");
      return pile ? pile.lastElementChild || pile : null;
    }
    if (where === "hand") return root.querySelector("[data-role=hand-cards]") || root.querySelector("[data-role=hand]");
    if (where === "melds") return root.querySelector("[data-role=melds]");
    if (where.startsWith("seat:")) return root.querySelector(`[data-role=seat][data-username="${CSS.escape(where.slice(5))}"]`);
    if (where.startsWith("meld:")) return root.querySelector(`[data-meld="${CSS.escape(where.slice(5))}"]`) || root.querySelector("[data-role=melds]");
    return null;
  }

  /** One animation over the page as now drawn: a card (or a back) flies from one place to another; going out is
   * a burst over the felt. Answers whether it plays (false: nothing to animate from or to). */
  function runAnimation(a, done) {
    const root = document.querySelector("[data-role=table-page].one-screen");
    if (!root || typeof document.body.animate !== "function") return false;
    if (a.kind === "flourish") {
      const felt = root.querySelector("[data-role=board]");
      if (!felt) return false;
      const burst = h("div", { class: "flourish", "aria-hidden": "true" }, Array.from({ length: 12 }, (_, i) => h("span", { class: `spark s${i}` })));
      felt.append(burst);
      const anim = burst.animate([{ opacity: 0, transform: "scale(0.6)" }, { opacity: 1, transform: "scale(1)", offset: 0.3 }, { opacity: 0, transform: "scale(1.4)" }], { duration: a.duration, easing: "ease-out" });
      anim.onfinish = () => { burst.remove(); done(); };
      anim.oncancel = anim.onfinish;
      return true;
    }
    const from = spot(root, a.from);
    const to = spot(root, a.to);
    if (!from || !to) return false;
    const f = from.getBoundingClientRect();
    const d = to.getBoundingClientRect();
    const codes = a.cards && a.cards.length ? a.cards.slice(0, 4) : [a.card];
    const ghost = h("div", { class: "flying", "aria-hidden": "true" }, codes.map((code) => (code ? cards.card(code) : h("span", { class: "card-back big" }))));
    document.body.append(ghost);
    const gw = ghost.offsetWidth || 40;
    const gh = ghost.offsetHeight || 56;
    const x0 = f.left + f.width / 2 - gw / 2;
    const y0 = f.top + f.height / 2 - gh / 2;
    const x1 = d.left + d.width / 2 - gw / 2;
    const y1 = d.top + d.height / 2 - gh / 2;
    const anim = ghost.animate([
      { transform: `translate(${x0}px, ${y0}px) scale(0.9)`, opacity: 0.9 },
      { transform: `translate(${x1}px, ${y1}px) scale(1)`, opacity: 1 },
    ], { duration: a.duration, easing: "cubic-bezier(.2,.7,.3,1)" });
    anim.onfinish = () => { ghost.remove(); done(); };
    anim.oncancel = anim.onfinish;
    return true;
  }

  /** The events that took the table from version `from` to `to`, as pictures (never waited for). */
  function animate(p, from, to, events, me) {
    if (!motion) return;
    if (!queue) queue = motion.createQueue({ run: runAnimation, reduced: reducedMotion });
    if (p.motionFrom === undefined) queue.reset(from);
    p.motionFrom = to;
    queue.push(from, to, motion.plan(events, me));
  }

  function resetMotion(at) {
    if (queue) queue.reset(at);
  }

  // --------------------------------------------------------------------------------- the tournament

  /** The level a table plays after `played` rounds, and the rounds left in it (levels [{level, pcr, rounds}]; the
   * last lasts to the end: no rounds left to count). */
  function levelAt(levels, played) {
    let end = 0;
    for (let i = 0; i < levels.length; i += 1) {
      end += levels[i].rounds;
      if (played < end || i === levels.length - 1) return { level: levels[i], left: i === levels.length - 1 ? null : end - played, last: i === levels.length - 1 };
    }
    return null;
  }

  /** A multi-table tournament's numbers, read now and then (every 15 s, and when a round ends). */
  async function readTournament(p, force) {
    const tour = p.table && p.table.tournament;
    if (!tour || tour.kind !== "multi") return;
    if (!force && p.tourRead && Date.now() - p.tourRead < 15000) return;
    p.tourRead = Date.now();
    try {
      // each read on its own: the strip shows what it could read (the level without the standings, say)
      const [detail, standings, tables] = await Promise.all([
        api.get(`/tournaments/${tour.id}/`),
        api.get(`/tournaments/${tour.id}/standings/?page_size=100`).catch(() => ({ results: [] })),
        api.get(`/tournaments/${tour.id}/tables/?page_size=100`).catch(() => ({ results: [] })),
      ]);
      p.tour = { detail, standings: standings.results || [], tables: (tables.results || []).filter((x) => x.status !== "closed") };
    } catch (_) {
      // the strip waits for the next read
    }
  }

  function strip(p, g, me) {
    const tour = p.table && p.table.tournament;
    if (!tour || tour.kind !== "multi" || !p.tour) return null;
    const { detail, standings, tables } = p.tour;
    const playing = standings.filter((r) => r.status === "playing");
    const left = playing.length;
    const paid = (detail.payout_table || []).length;
    const items = [];
    const played = g ? (g.phase === "over" ? g.round || 0 : Math.max(0, (g.round || 1) - 1)) : 0;
    const lv = (detail.levels || []).length ? levelAt(detail.levels, played) : null;
    if (lv) {
      items.push(["level", t("Level %(level)s · PCR %(pcr)s", { level: number(lv.level.level), pcr: number(lv.level.pcr) })]);
      if (lv.left !== null) items.push(["rise", tn("rises in %(n)s round", "rises in %(n)s rounds", lv.left, { n: number(lv.left) })]);
    }
    const ranked = playing.slice().sort((a, b) => (b.chips || 0) - (a.chips || 0));
    const place = ranked.findIndex((r) => r.username === me);
    if (place >= 0) items.push(["place", t("%(place)s of %(left)s", { place: number(place + 1), left: number(left) })]);
    if (left) items.push(["average", t("average %(chips)s", { chips: number(Math.round(playing.reduce((s, r) => s + (r.chips || 0), 0) / left)) })]);
    if (paid && left === paid + 1) items.push(["bubble", t("Bubble: the next player out wins nothing")]);
    else if (paid && left <= paid && left > 1) items.push(["money", t("In the money")]);
    if (tables.length === 1 && left > 1) items.push(["final", t("Final table")]);
    return h("p", { class: "tournament-strip", dataset: { role: "tournament-strip" } },
      items.map(([role, text]) => h("span", { class: `strip-item strip-${role}`, dataset: { role: `strip-${role}` } }, text)));
  }

  /** The tournament's moments at the table, each shown once: moved to this table (the page came here by
   * itself), the final table, the winner with the prize. */
  function moment(p, me) {
    if (p.moved && !p.movedShown) {
      return momentBox(p, "moved", t("You were moved to table %(table)s (from table %(from)s).", { table: String(p.moved.to), from: String(p.moved.from) }), t("Your stack came with you: play on here."), () => (p.movedShown = true));
    }
    if (!p.tour) return null;
    const tour = p.table.tournament;
    const { detail, standings, tables } = p.tour;
    const left = standings.filter((r) => r.status === "playing").length;
    const seen = (what) => {
      try {
        return sessionStorage.getItem(`ramino.moment.${tour.id}.${what}`) === "1";
      } catch (_) {
        return false;
      }
    };
    const mark = (what) => () => {
      try {
        sessionStorage.setItem(`ramino.moment.${tour.id}.${what}`, "1");
      } catch (_) {
        // shown again on the next page
      }
    };
    if (detail.status === "finished") {
      const winner = standings.find((r) => r.place === 1);
      if (winner && !seen("winner")) {
        const prize = winner.prize ? t("Prize: %(chips)s chips.", { chips: number(winner.prize) }) : "";
        return momentBox(p, "winner", winner.username === me ? t("You won the tournament!") : t("%(player)s won the tournament!", { player: winner.username }), prize, mark("winner"));
      }
      return null;
    }
    if (tables.length === 1 && left > 1 && !seen("final")) {
      return momentBox(p, "final-table", t("The final table"), tn("%(n)s player left: the prizes are played for here.", "%(n)s players left: the prizes are played for here.", left, { n: number(left) }), mark("final"));
    }
    return null;
  }

  function momentBox(p, kind, title, text, onClose) {
    return h("div", { class: `moment moment-${kind}`, role: "status", dataset: { role: `moment-${kind}`, moment: kind } },
      h("p", { class: "moment-title", dataset: kind === "moved" ? { role: "moved" } : {} }, title),
      text ? h("p", { class: "moment-text" }, text) : null,
      h("button", { type: "button", class: "primary", dataset: { role: "moment-close", focus: "moment-close" }, onclick: () => { onClose(); p.focusNext = "heading"; table.redraw(); } }, kind === "winner" ? t("Close") : t("Play on")));
  }

  // ------------------------------------------------------------------------------------ the top bar menu

  /** Seated, the site's navigation folds into a menu (on a phone; a laptop keeps it in the bar). */
  function atTable(on) {
    document.body.classList.toggle("at-table", !!on);
    const button = document.querySelector("[data-role=nav-menu]");
    if (!on && button) {
      button.setAttribute("aria-expanded", "false");
      document.body.classList.remove("nav-open");
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    sizeCards();
    applyColours();
    window.addEventListener("resize", () => {
      sizeCards();
      fit(document);
    });
    const button = document.querySelector("[data-role=nav-menu]");
    if (button) {
      button.addEventListener("click", () => {
        const open = !document.body.classList.contains("nav-open");
        document.body.classList.toggle("nav-open", open);
        button.setAttribute("aria-expanded", String(open));
      });
      document.getElementById("nav").addEventListener("click", (event) => {
        if (event.target.closest("a")) {
          document.body.classList.remove("nav-open");
          button.setAttribute("aria-expanded", "false");
        }
      });
    }
  });

  export { seats, placerColours, turnBar, tick, clockParts, fit, drawerToggle, drawer, animate, resetMotion, readTournament, strip, moment, levelAt, atTable, sizeCards, reducedMotion };
