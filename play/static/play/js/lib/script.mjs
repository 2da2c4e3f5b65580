/* The demo's script as data (demo.js): which step of the server's script (tournaments/practice/demo/script.py)
 * the player's view is at. A step names its situation (`expect`: whose turn, the phase, the hand, the pile, the
 * melds) and its move; the current step is the first whose situation matches and whose move is legal now.
 * Jokers count as jokers, whatever they stand for. Pure: no DOM; Node imports it too. */

const plain = (code) => (code.startsWith("JK") ? "JK" : code);

function sameCards(a, b) {
  if ((a || []).length !== (b || []).length) return false;
  const x = a.map(plain).sort();
  const y = b.map(plain).sort();
  return x.every((c, i) => c === y[i]);
}

function holds(hand, cards) {
  const rest = (hand || []).map(plain);
  for (const code of (cards || []).map(plain)) {
    const i = rest.indexOf(code);
    if (i < 0) return false;
    rest.splice(i, 1);
  }
  return true;
}

/** Two moves are the same when their fields are, cards as multisets and jokers without what they stand for. */
function sameMove(a, b) {
  if (!a || !b || a.type !== b.type) return false;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === "cards") {
      if (!sameCards(a.cards || [], b.cards || [])) return false;
    } else if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return false;
  }
  return true;
}

/** The step's situation against the player's view (demo_script.situation_matches). */
function matches(step, g, me) {
  const e = step.expect || {};
  const turn = g.turn && g.turn.player;
  if ("turn" in e && (turn === me) !== (e.turn === "player")) return false;
  if ("phase" in e && g.phase !== e.phase) return false;
  const hand = g.hand || [];
  if ("hand" in e && !sameCards(hand, e.hand)) return false;
  if ("holds" in e && !holds(hand, e.holds)) return false;
  if ("pile" in e && JSON.stringify(g.discard_pile || []) !== JSON.stringify(e.pile)) return false;
  if ("melds" in e) {
    const melds = (g.melds || []).map((m) => m.cards);
    if (melds.length !== e.melds.length || !melds.every((cards, i) => sameCards(cards, e.melds[i]))) return false;
  }
  if ("table" in e && !(g.melds || []).some((m) => holds(m.cards, e.table))) return false;
  return true;
}

/** The first step whose situation matches and whose move is legal now (demo_script.current_step); null off
 * the script. */
function currentStep(steps, g, me) {
  const legal = g.legal_moves || [];
  return steps.find((s) => matches(s, g, me) && (!s.move || legal.some((m) => sameMove(m, s.move)))) || null;
}

export { plain, sameCards, holds, sameMove, matches, currentStep };
