/* The player's hand as data: its order (the saved one for the cards still held, new cards at the end; sorted by
 * suit or rank; a card moved), stable keys for the copies of a card, and the selection (a Set of keys) kept
 * to the cards still held. Pure: no DOM, no storage; Node imports it too (hand.js draws the hand and keeps the
 * order in sessionStorage). */
import { sorted } from "./cards.mjs";

/** The hand in the player's order: `saved` (an array of codes, or null) for the cards still held, new cards at
 * the end. */
export function ordered(saved, hand) {
  if (!saved) return hand.slice();
  const left = hand.slice();
  const out = [];
  for (const code of saved) {
    const i = left.indexOf(code);
    if (i >= 0) {
      out.push(code);
      left.splice(i, 1);
    }
  }
  return out.concat(left);
}

/** Stable keys for the cards of an ordered hand: the code and which copy of it ("7H#0", "7H#1"). */
export function keys(codes) {
  const seen = {};
  return codes.map((code) => {
    seen[code] = (seen[code] || 0) + 1;
    return `${code}#${seen[code] - 1}`;
  });
}

/** The codes with the card at `from` put at `to` (kept within the hand); a new array. */
export function moveCard(codes, from, to) {
  const out = codes.slice();
  const [picked] = out.splice(from, 1);
  out.splice(Math.max(0, Math.min(out.length, to)), 0, picked);
  return out;
}

/** The hand's state ({order, selected}) sorted by "suit" or "rank". */
export function sortOrder(state, by) {
  state.order = sorted(state.order, by);
  return state.order;
}

/** The selected cards' codes, in hand order. */
export function selectedCodes(state) {
  const ks = keys(state.order);
  return state.order.filter((_, i) => state.selected.has(ks[i]));
}

/** Forget selected keys that no longer name a held card. */
export function prune(state) {
  const ks = new Set(keys(state.order));
  for (const key of Array.from(state.selected)) if (!ks.has(key)) state.selected.delete(key);
}
