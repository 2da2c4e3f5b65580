/* Moves as data. The server's legal moves are the only source of truth: the client never makes up a move, it
 * finds among them the ones a selection of cards makes, the draws the bar and the keys offer, the groups of the
 * list of every move, and builds the body it posts (the move with the game's version: a stale one is refused).
 * Pure: no DOM; Node imports it too (hand.js, table-moves.js). */

/** A joker's code without what it stands for: "JK:7H" -> "JK". */
export function plain(code) {
  return code.startsWith("JK") ? "JK" : code;
}

/** The same cards, in any order (a joker is a joker, whatever it stands for). */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = a.map(plain).sort();
  const y = b.map(plain).sort();
  return x.every((c, i) => c === y[i]);
}

/** The cards of the player's hand a move uses. */
export function moveCards(m) {
  if (m.type === "meld") return m.melds ? m.melds.flat() : m.cards || [];
  if (m.type === "lay_off") return m.cards || [];
  if (m.type === "discard" || m.type === "swap_joker") return m.card ? [m.card] : [];
  return [];
}

/** The legal moves that use exactly the selected cards, by kind. */
export function actions(moves, selected) {
  const fits = (type) => (moves || []).filter((m) => m.type === type && selected.length && sameCards(moveCards(m), selected));
  return { meld: fits("meld"), lay_off: fits("lay_off"), discard: fits("discard"), swap_joker: fits("swap_joker") };
}

/** The legal draw from the stock, if any. */
export function stockDraw(moves) {
  return (moves || []).find((m) => m.type === "draw" && m.source === "stock");
}

/** The legal draw of the discard pile's top card, if any. */
export function pileDraw(moves, pile) {
  return (moves || []).find((m) => m.type === "draw" && m.source === "discard" && m.index === (pile || []).length - 1);
}

/** The moves a selection does not make, shown as buttons of the action bar: the draws from the stock and of the
 * pile's top card, the one-button moves (passing a call, closing, ending the round, keeping or refusing the
 * deal), and the "Rummy!" calls (one button, or one that opens the list when there are several). */
export const BAR_TYPES = ["pass_claim", "close", "end_round", "keep_deal", "refuse_deal"];
export function barMoves(moves, pile) {
  const all = moves || [];
  return {
    stock: stockDraw(all),
    top: pileDraw(all, pile),
    others: all.filter((m) => BAR_TYPES.includes(m.type)),
    calls: all.filter((m) => m.type === "call_rummy"),
  };
}

/** The list of every legal move: `groups` is [[type, title], ...] in the list's order; the moves of a type
 * not named come last under `otherTitle`. Answers [[title, moves], ...], empty groups left out. */
export function groupMoves(moves, groups, otherTitle) {
  const all = moves || [];
  const known = new Set(groups.map(([type]) => type));
  const lists = groups.map(([type, title]) => [title, all.filter((m) => m.type === type)]);
  lists.push([otherTitle, all.filter((m) => !known.has(m.type))]);
  return lists.filter(([, l]) => l.length);
}

/** The body posted to play `move` (POST /games/{id}/moves/): the move as the server listed it, with the version
 * of the game it was chosen in. */
export function moveBody(move, version) {
  return { ...move, expected_version: version };
}
