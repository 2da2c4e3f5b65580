/* The deal's seal: once a round is over, its deck and salt are revealed and the page checks them against the
 * commitment published before the first move (docs/rules.md "Commitment": SHA-256 of salt + "|" + the deck's
 * codes), by itself, with R.sha256. The result is a seal — "Deal verified" (Italian "Mano verificata") — and,
 * behind "Details", the hash, the salt and the deck. A running round shows no commitment at all: the seal comes
 * with the results. Each round is checked once per page (the answers are kept by commitment), so a redraw draws
 * the seal at once. */
import * as cards from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import * as sha256 from "./sha256.js";


// commitment + salt -> {ok, computed}, or a Promise while the check runs
const checked = new Map();

function keyOf(r) {
  return `${r.deal_commitment}|${r.salt}`;
}

/** The check of round `r` (its deck and salt revealed): {ok, computed}, computed once. */
function verify(r) {
  const key = keyOf(r);
  let known = checked.get(key);
  if (!known) {
    known = sha256.verifyDeal(r.deal_commitment, r.deck, r.salt).then((answer) => {
      checked.set(key, answer);
      return answer;
    });
    checked.set(key, known);
  }
  return Promise.resolve(known);
}

function stateOf(r) {
  const known = checked.get(keyOf(r));
  if (!known || typeof known.then === "function") return "checking";
  return known.ok ? "verified" : "mismatch";
}

function words(state) {
  if (state === "verified") return t("Deal verified");
  if (state === "mismatch") return t("The deal does not match its commitment");
  return t("Checking the deal…");
}

function explanation(state) {
  if (state === "verified") return t("The cards were shuffled and sealed before the first move: the revealed deck and salt give the published SHA-256 hash, so nobody changed the deal during the round.");
  if (state === "mismatch") return t("The SHA-256 hash of the revealed deck and salt is not the one published before the first move. Report it to the site's staff.");
  return "";
}

function fill(el, r) {
  const state = stateOf(r);
  const known = checked.get(keyOf(r));
  el.dataset.state = state;
  el.querySelector(".seal-mark").textContent = state === "verified" ? "✓" : state === "mismatch" ? "✗" : "…";
  el.querySelector("[data-role=seal-words]").textContent = words(state);
  el.querySelector("[data-role=seal-explanation]").textContent = explanation(state);
  const computed = el.querySelector("[data-role=seal-computed]");
  computed.textContent = known && known.computed ? known.computed : "";
  computed.closest("p").hidden = !(known && known.computed);
}

/** The seal of a finished round `r` (a GET /games/{id}/rounds/ row), checked in the page; null while the round
 * runs (its deck and salt are still secret). `number` names the round in the ids. */
function seal(r) {
  if (!r || !r.deck || !r.salt || !r.deal_commitment) return null;
  const id = `seal-${r.number}-${Math.random().toString(36).slice(2, 8)}`;
  const el = h("div", { class: "seal", role: "group", "aria-labelledby": `${id}-words`, dataset: { role: "seal", round: r.number, state: "checking" } },
    h("p", { class: "seal-head" },
      h("span", { class: "seal-mark", "aria-hidden": "true" }),
      h("strong", { id: `${id}-words`, dataset: { role: "seal-words" } }, words("checking"))),
    h("details", { class: "seal-details", dataset: { role: "seal-details" } },
      h("summary", { dataset: { focus: `seal:${r.number}` } }, t("Details")),
      h("p", { class: "hint", dataset: { role: "seal-explanation" } }),
      h("p", {}, t("Commitment (SHA-256, published before the first move):"), " ", h("code", { dataset: { role: "commitment" } }, r.deal_commitment)),
      h("p", { hidden: true }, t("Computed in this page:"), " ", h("code", { dataset: { role: "seal-computed" } })),
      h("p", {}, t("Salt:"), " ", h("code", { dataset: { role: "salt" } }, r.salt)),
      h("p", {}, t("The deck, top card first:")),
      cards.cardList(r.deck)));
  fill(el, r);
  if (stateOf(r) === "checking") {
    verify(r).then(() => {
      if (el.isConnected || el.parentNode) fill(el, r);
    });
  }
  return el;
}

export { seal, verify };
