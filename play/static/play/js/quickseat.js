/* The lobby's "Play now" and its filters (docs/web.md "Play now and the lobby's filters").
 * Play now: the game, a stake (any, or one of the stakes the lobby has seen) and an optional buy-in; the server
 * picks the best open table and seats the player there (POST /tables/play-now/, docs/api.md "Play now"), and the
 * page opens it. A refusal is said in words (the server's message, in the page's language), with how to get
 * chips when the wallet is short. The filters (game, stake, seats, free seats) narrow the open tables' list
 * through GET /tables/'s own filters; lobby.js reads the list, this module draws the controls. */
import * as api from "./api.js";
import { h, clear, formValues } from "./dom.js";
import { t, tn, number } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as wallet from "./wallet.js";

const GAMES = ["rummy500", "rummy500_household", "basic", "block", "wrotham", "romme", "board"];

function stakeWords(stake) {
  return tn("%(n)s chip a point", "%(n)s chips a point", stake, { n: number(stake) });
}

function options(values, any, words, chosen) {
  return [h("option", { value: "" }, any), ...values.map((v) => h("option", { value: String(v), selected: String(v) === String(chosen) }, words(v)))];
}

function sortedNumbers(set, extra) {
  const all = new Set([...set].map(Number));
  if (extra) all.add(Number(extra));
  return [...all].filter((x) => x > 0).sort((a, b) => a - b);
}

async function playNow(state, form) {
  const v = formValues(form);
  const body = { game: v.game };
  if (v.stake) body.stake = Number(v.stake);
  if (v.buy_in) body.buy_in = Number(v.buy_in);
  const status = form.querySelector("[data-role=play-now-status]");
  const button = form.querySelector("[data-role=play-now]");
  clear(status);
  button.disabled = true;
  state.seating = true; // the form is not drawn again meanwhile (`update`): the answer goes into this status
  status.textContent = t("Finding you a seat…");
  try {
    const table = await api.post("/tables/play-now/", body, { headers: { "Idempotency-Key": api.newKey() } });
    lobby.remember(table.id);
    state.go(`#/table/${table.id}`);
  } catch (err) {
    clear(status).append(h("span", { class: "error" }, err.describe ? err.describe() : String(err)));
    if (err && err.code === "ledger.insufficient_funds" && wallet && wallet.chipsHint) {
      const hint = h("div", { dataset: { role: "play-now-chips" } });
      status.append(hint);
      wallet.chipsHint(hint);
    }
  } finally {
    button.disabled = false;
    state.seating = false;
  }
}

function playNowForm(state) {
  const chosen = state.playNow || { game: state.filters.game || "rummy500", stake: state.filters.stake || "" };
  const remember = (event) => {
    state.playNow = { ...chosen, ...formValues(event.currentTarget) };
  };
  return h("section", { class: "panel play-now", "aria-labelledby": "play-now-title", dataset: { role: "play-now-panel" } },
    h("h2", { id: "play-now-title" }, t("Play now")),
    h("p", { class: "hint" }, t("Choose a game and a stake: the server seats you at the best open table, where players are waiting.")),
    h("form", { dataset: { role: "play-now-form" }, onchange: remember, onsubmit: (event) => { event.preventDefault(); playNow(state, event.currentTarget); } },
      h("label", {}, t("Game"), h("select", { name: "game", dataset: { role: "play-now-game" } },
        GAMES.map((code) => h("option", { value: code, selected: code === chosen.game }, lobby.gameName(code))))),
      h("label", {}, t("Stake"), h("select", { name: "stake", dataset: { role: "play-now-stake" } },
        options(sortedNumbers(state.stakes, chosen.stake), t("any stake"), stakeWords, chosen.stake))),
      h("label", {}, t("Buy-in (optional)"), h("input", { name: "buy_in", type: "number", min: 1, value: chosen.buy_in || "", placeholder: t("the table's smallest"), dataset: { role: "play-now-buy-in" } })),
      h("button", { type: "submit", class: "primary", dataset: { role: "play-now" } }, t("Play now")),
      h("p", { class: "play-now-status", role: "status", dataset: { role: "play-now-status" } })));
}

function filtersForm(state, reread) {
  const f = state.filters;
  const onchange = (event) => {
    Object.assign(f, formValues(event.currentTarget));
    reread();
  };
  return h("form", { class: "lobby-filters", role: "search", "aria-label": t("Filter the open tables"), dataset: { role: "lobby-filters" }, onchange, onsubmit: (event) => event.preventDefault() },
    h("label", {}, t("Game"), h("select", { name: "game", dataset: { role: "filter-game" } },
      options(GAMES, t("every game"), lobby.gameName, f.game))),
    h("label", {}, t("Stake"), h("select", { name: "stake", dataset: { role: "filter-stake" } },
      options(sortedNumbers(state.stakes, f.stake), t("any stake"), stakeWords, f.stake))),
    h("label", {}, t("Seats"), h("select", { name: "seats", dataset: { role: "filter-seats" } },
      options(sortedNumbers(state.sizes, f.seats), t("any size"), (n) => tn("%(n)s seat", "%(n)s seats", n, { n: number(n) }), f.seats))),
    h("label", {}, t("Free seats"), h("select", { name: "free_seats", dataset: { role: "filter-free-seats" } },
      options([1, 2, 3], t("any"), (n) => tn("at least %(n)s free", "at least %(n)s free", n, { n: number(n) }), f.free_seats))));
}

/** Draws both into the lobby's boxes (`state.parts.playNow`, `state.parts.filters`); `reread` reads the list. */
function mount(state, reread) {
  state.reread = reread;
  // What play now last said (a refusal, the chips hint) stays when the form is drawn again.
  const said = state.parts.playNow.querySelector("[data-role=play-now-status]");
  const form = playNowForm(state);
  if (said) form.querySelector("[data-role=play-now-status]").append(...said.childNodes);
  clear(state.parts.playNow).append(form);
  clear(state.parts.filters).append(filtersForm(state, reread));
  state.seen = `${[...state.stakes]}|${[...state.sizes]}`;
}

/** New stakes or sizes seen in the list: their choices are drawn again, unless the player is in a control. */
function update(state) {
  const seen = `${[...state.stakes]}|${[...state.sizes]}`;
  if (seen === state.seen || state.seating) return;
  const active = document.activeElement;
  if (active && (state.parts.playNow.contains(active) || state.parts.filters.contains(active))) return;
  mount(state, state.reread);
}

export { mount, update };
