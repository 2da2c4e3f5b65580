/* The replay of a finished round (#/replay/GAME/ROUND): GET /games/{id}/rounds/{number}/replay/ answers every step
 * (the deal, then each move) with the view the player had then. The page shows one step at a time: what happened
 * in words (table-words.js's sentences), the discard pile and the melds as they stood, the player's hand, the
 * others' card counts, and at the last step the result and its settlement. First / previous / play-pause / next /
 * last, a slider, the arrow keys (Home, End); "Step 3 of 41". Only the step's parts are redrawn, so the focus
 * stays on the control in use; a polite live region reads each step out with the cards by name. */
import * as api from "./api.js";
import { card, sorted } from "./cards.js";
import { h, clear, append } from "./dom.js";
import { t, tn, number } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as results from "./results.js";
import * as W from "./table-words.js";
import * as table from "./table.js";

const AUTOPLAY_MS = 1500;

let page = null; // the open replay; stopped on every navigation

function me() {
  const s = api.session();
  return s ? s.username : null;
}

function chipsText(n) {
  return tn("%(n)s chip", "%(n)s chips", Math.abs(n || 0), { n: number(n || 0) });
}

// --------------------------------------------------------------------------------------------- words

/** The move as logged, with the card a pile draw took when the log names only its place. */
function completed(move, before) {
  if (move.type !== "draw" || move.source !== "discard" || move.card) return move;
  const pile = (before && before.discard_pile) || [];
  const index = move.index ?? pile.length - 1;
  return { ...move, card: pile[index], index };
}

/** Cards in `now` that `before` did not hold (a multiset difference). */
function added(now, before) {
  const left = [...(before || [])];
  const out = [];
  for (const code of now || []) {
    const i = left.indexOf(code);
    if (i >= 0) left.splice(i, 1);
    else out.push(code);
  }
  return out;
}

/** What step `i` was, as sentences; `c` writes a card (shown, or named for the live region). */
function describe(data, i, c) {
  const step = data.steps[i];
  const view = step.view || {};
  const before = i > 0 ? data.steps[i - 1].view || {} : null;
  const out = [];
  if (!step.move) {
    out.push(t("%(dealer)s dealt the cards.", { dealer: data.dealer || view.dealer }));
    const pile = view.discard_pile || [];
    if (pile.length) out.push(t("The first card of the discard pile is %(card)s.", { card: c(pile[pile.length - 1]) }));
    if (view.turn && view.turn.player) out.push(t("%(player)s plays first.", { player: view.turn.player }));
  } else if (step.move.type === "close_claims" || !step.player) {
    out.push(t("The Rummy! calls are closed."));
  } else {
    const move = completed(step.move, before);
    // a meld named by a lay-off or a swap is shown as it was before the move
    out.push(W.moveSentence(step.player, move, before || view, c));
    if (move.type === "draw" && move.source === "discard" && before) {
      const above = (before.discard_pile || []).length - move.index - 1;
      if (above > 0) out.push(tn("The card above it came too.", "The %(n)s cards above it came too.", above, { n: number(above) }));
    }
    if (move.type === "draw" && move.source === "stock" && step.player === me() && before) {
      const drawn = added(view.hand, before.hand);
      if (drawn.length === 1) out.push(t("You drew %(card)s.", { card: c(drawn[0]) }));
    }
  }
  if (i === data.steps.length - 1 && (view.phase === "over" || data.result)) out.push(t("The round is over."));
  return out.join(" ");
}

// Why the round ended: results.js's words, the same as the table's results.
const reasonText = (details) => results.reasonText(details);

// -------------------------------------------------------------------------------------------- parts

function boardPart(view) {
  const pile = (view.discard_pile || []).map((code) => card(code, { class: "pile-card" }));
  const melds = (view.melds || []).map((m) =>
    h("div", { class: "meld", dataset: { role: "meld", meld: m.id } },
      h("div", { class: "meld-id" }, m.owner),
      table.meldCards(m)));
  return h("section", { class: "board panel", "aria-labelledby": "replay-board-title", dataset: { role: "replay-board" } },
    h("h2", { id: "replay-board-title", class: "visually-hidden" }, t("The table")),
    h("div", { class: "piles" },
      h("div", {}, h("h3", {}, t("Stock")), h("span", { class: "stock", dataset: { role: "stock" } }, t("Stock · %(n)s", { n: number(view.stock_count ?? 0) }))),
      h("div", { class: "discard" }, h("h3", {}, t("Discard pile (bottom → top)")),
        h("div", { class: "pile", dataset: { role: "discard-pile" } }, pile.length ? pile : t("empty")))),
    view.trump ? h("p", {}, t("Trump tile:"), " ", card(view.trump)) : null,
    h("h3", {}, t("Melds")),
    h("div", { class: "melds", dataset: { role: "melds" } }, melds.length ? melds : h("span", { class: "empty" }, t("No melds yet."))));
}

function handPart(view) {
  if (!Array.isArray(view.hand)) return h("p", { class: "hint" }, t("You watched this round: the players' hands stay theirs."));
  const codes = sorted(view.hand, "suit");
  return h("section", { class: "panel", "aria-labelledby": "replay-hand-title", dataset: { role: "replay-hand" } },
    h("h2", { id: "replay-hand-title" }, tn("Your hand (%(n)s card)", "Your hand (%(n)s cards)", codes.length, { n: number(codes.length) })),
    codes.length ? h("div", { class: "cards" }, codes.map((code) => card(code))) : h("p", { class: "empty" }, t("No cards left.")));
}

function playersPart(view) {
  const turn = view.turn && view.turn.player;
  return h("section", { class: "panel", "aria-labelledby": "replay-players-title" },
    h("h2", { id: "replay-players-title" }, t("Players")),
    h("ul", { class: "replay-players", dataset: { role: "replay-players" } }, (view.players || []).map((pl) => {
      const tags = [
        pl.username === me() ? t("you") : "",
        pl.username === view.dealer ? t("dealer") : "",
        pl.username === turn && view.phase !== "over" ? t("to play") : "",
      ].filter(Boolean);
      return h("li", { dataset: { role: "replay-player", username: pl.username } },
        h("strong", {}, pl.username), " ",
        h("span", { dataset: { role: "hand-count" } }, tn("%(n)s card", "%(n)s cards", pl.hand_count ?? 0, { n: number(pl.hand_count ?? 0) })),
        tags.map((x) => h("span", { class: "tag" }, x)));
    })));
}

function resultPart(p) {
  const data = p.data;
  const last = data.steps[data.steps.length - 1].view || {};
  const result = data.result || last.result;
  if (!result) return null;
  const scores = result.scores || last.scores || {};
  const points = result.game_points || {};
  const details = result.details || {};
  const per = details.players || {};
  const transfers = result.transfers || (result.settlement && result.settlement.transfers) || [];
  const cardsOf = (codes) => (codes && codes.length ? h("span", { class: "cards inline-cards" }, sorted(codes, "suit").map((code) => card(code))) : null);
  return h("section", { class: "panel results", "aria-labelledby": "replay-result-title", dataset: { role: "replay-result" } },
    h("h2", { id: "replay-result-title" }, t("Round %(round)s results", { round: number(data.round) })),
    reasonText(details) ? h("p", { class: "result-line", dataset: { role: "result-reason" } }, reasonText(details)) : null,
    h("ul", { class: "result-scores replay-scores" }, Object.entries(scores).map(([name, score]) => {
      const d = per[name] || {};
      return h("li", { dataset: { role: "result-score", username: name, score } },
        h("strong", {}, t("%(player)s: %(points)s", { player: name, points: W.points(score) })),
        points[name] !== undefined && points[name] !== score ? [" · ", t("game points: %(points)s", { points: number(points[name]) })] : null,
        d.placed_value !== undefined ? h("div", {}, t("Placed: %(points)s", { points: W.points(d.placed_value) }), " ", cardsOf(d.placed)) : null,
        d.hand === undefined ? null
          : d.hand_value !== undefined ? h("div", {}, t("In hand: %(points)s", { points: W.points(d.hand_value) }), " ", cardsOf(d.hand))
          : h("div", {}, t("In hand:"), " ", cardsOf(d.hand) || t("no cards")));
    })),
    (result.bonuses || []).length ? h("ul", {}, result.bonuses.map((b) => h("li", {}, t("Bonus: %(player)s, %(points)s", { player: b.player, points: W.points(b.points) })))) : null,
    h("div", { dataset: { role: "replay-settlement" } }, h("h3", {}, t("Settlement")),
      transfers.length
        ? h("ul", {}, transfers.map((x) => h("li", { dataset: { role: "transfer", from: x.from, to: x.to, amount: x.amount } }, t("%(from)s paid %(to)s %(chips)s.", { from: x.from, to: x.to, chips: chipsText(x.amount) }))))
        : h("p", { class: "empty", dataset: { role: "no-transfer" } }, p.practice ? t("Practice: no chips change hands.") : t("No chips changed hands in this round."))));
}

// ------------------------------------------------------------------------------------------- drawing

function show(p, index) {
  const data = p.data;
  const n = data.steps.length;
  p.step = Math.max(0, Math.min(n - 1, index));
  const view = data.steps[p.step].view || {};
  const words = t("Step %(step)s of %(steps)s", { step: number(p.step + 1), steps: number(n) });
  p.parts.root.dataset.step = String(p.step + 1);
  p.parts.count.textContent = words;
  p.parts.slider.value = String(p.step);
  p.parts.slider.setAttribute("aria-valuetext", words);
  p.parts.text.textContent = describe(data, p.step, W.shown);
  for (const [role, edge] of [["first", 0], ["previous", 0], ["next", n - 1], ["last", n - 1]]) {
    p.parts.buttons[role].setAttribute("aria-disabled", String(p.step === edge));
  }
  // the result first at the last step: on a phone it is what the player came for
  // (dom.append, not the native one: it leaves out the missing result, which the native writes as "null")
  append(clear(p.parts.view), [
    p.step === n - 1 ? resultPart(p) : null,
    h("div", { class: "table-grid" },
      h("div", { class: "left" }, boardPart(view), handPart(view)),
      h("div", { class: "right" }, playersPart(view)))]);
  // each step read out once, its cards by name (a new node, so the same words twice are read twice)
  clear(p.parts.live).append(h("span", {}, `${words}. ${describe(data, p.step, W.named)}`));
}

function pause(p) {
  if (!p.timer) return;
  clearInterval(p.timer);
  p.timer = null;
  p.parts.buttons.play.textContent = t("Play");
  p.parts.buttons.play.dataset.playing = "false";
}

function play(p) {
  if (p.step >= p.data.steps.length - 1) show(p, 0);
  p.parts.buttons.play.textContent = t("Pause");
  p.parts.buttons.play.dataset.playing = "true";
  p.timer = setInterval(() => {
    if (page !== p) return;
    if (p.step >= p.data.steps.length - 1) pause(p);
    else show(p, p.step + 1);
  }, AUTOPLAY_MS);
}

function onKey(p, event) {
  if (page !== p || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  // the slider, fields and the language switch's form keep their own keys
  if (target && target.closest && target.closest("input, select, textarea, form")) return;
  const to = { ArrowLeft: p.step - 1, ArrowRight: p.step + 1, Home: 0, End: p.data.steps.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  pause(p);
  show(p, to);
}

function stop() {
  if (!page) return;
  pause(page);
  document.removeEventListener("keydown", page.keys);
  page = null;
}

async function load(root, gameId, number_) {
  stop();
  clear(root).append(h("p", {}, t("Loading the replay…")));
  const p = { gameId, round: number_, step: 0, timer: null, practice: false };
  page = p;
  let data;
  try {
    data = await api.get(`/games/${gameId}/rounds/${number_}/replay/`);
  } catch (err) {
    if (page !== p) return;
    // 404: not over, or not the caller's; 409: a round with no replay (an instant round), said by the server
    if (err.status !== 404 && err.status !== 409) throw err;
    clear(root).append(h("section", { class: "panel", dataset: { role: "replay-missing" } },
      h("h1", {}, t("Replay")),
      h("p", { class: "error" }, err.status === 409 ? err.message : t("This round cannot be replayed: it is not over yet, or you did not play it.")),
      h("p", {}, h("a", { href: "#/rounds" }, t("My rounds")))));
    return;
  }
  if (page !== p) return;
  p.data = data;
  // Whether it was practice (the settlement's words).
  p.practice = !!data.practice;
  if (page !== p || !data.steps || !data.steps.length) return;
  const preset = (data.steps[0].view || {}).game;
  const button = (role, text, onclick) => h("button", { type: "button", dataset: { role: `replay-${role}` }, onclick: () => { if (role !== "play") pause(p); onclick(); } }, text);
  const buttons = {
    first: button("first", t("First"), () => show(p, 0)),
    previous: button("previous", t("Previous"), () => show(p, p.step - 1)),
    play: button("play", t("Play"), () => (p.timer ? pause(p) : play(p))),
    next: button("next", t("Next"), () => show(p, p.step + 1)),
    last: button("last", t("Last"), () => show(p, data.steps.length - 1)),
  };
  buttons.play.dataset.playing = "false";
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: data.steps.length - 1, step: 1, value: 0, dataset: { role: "replay-slider" } });
  slider.addEventListener("input", () => { pause(p); show(p, Number(slider.value)); });
  p.parts = {
    buttons, slider,
    count: h("p", { class: "step-count", dataset: { role: "step-count" } }),
    text: h("p", { class: "step-text", dataset: { role: "step-text" } }),
    view: h("div", { class: "replay-view" }),
    live: h("div", { class: "live visually-hidden", role: "status", "aria-live": "polite", "aria-atomic": "true", dataset: { role: "replay-announcer" } }),
  };
  p.parts.root = h("section", { class: "replay table-page", dataset: { role: "replay", game: gameId, round: data.round, steps: data.steps.length, step: "1" } },
    h("div", { class: "table-head" },
      h("h1", {}, t("Replay · %(game)s · round %(round)s", { game: lobby.gameName(preset), round: number(data.round) })),
      h("p", { class: "facts" },
        p.practice ? [h("span", { class: "tag practice-tag" }, t("practice")), " "] : null,
        t("Players: %(players)s", { players: (data.players || []).join(", ") }), " · ",
        t("dealt by %(dealer)s", { dealer: data.dealer }), " · ",
        h("a", { href: "#/rounds", dataset: { role: "replay-rounds" } }, t("My rounds")))),
    h("div", { class: "panel replay-controls", role: "group", "aria-label": t("Replay controls") },
      // play / pause after the four steps (on a phone: the four in a row, play below them)
      h("div", { class: "replay-buttons" }, buttons.first, buttons.previous, buttons.next, buttons.last, buttons.play),
      h("label", { for: "replay-slider", class: "visually-hidden" }, t("Step")),
      slider, p.parts.count,
      h("p", { class: "hint" }, t("The arrow keys step back and forth; Home and End go to the deal and the result."))),
    p.parts.text,
    p.parts.view);
  clear(root).append(p.parts.root, p.parts.live);
  p.keys = (event) => onKey(p, event);
  document.addEventListener("keydown", p.keys);
  show(p, 0);
}

export { load, stop, describe };
