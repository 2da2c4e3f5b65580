/* The table's animation queue, pure (no DOM: the page gives it a `run` that animates and a clock): what moved
 * becomes short animations played one after another, while the page itself is already drawn in its new state
 * and takes input at once. An animation is only a picture over a page that has moved on; nothing waits for it.
 *
 * - `plan(events, me)` turns the table's events into animations: a draw travels from the stock or the pile to
 *   the player who drew, a discard flies to the pile, a meld or lay-off slides onto the felt, going out (the
 *   round's end) gets a flourish.
 * - `createQueue({run, now, reduced, maxPending, maxLag})`: `push(from, to, animations)` never blocks and never
 *   throws; it answers at once. The queue drops what is waiting when the state jumps (a version skipped: the
 *   page missed moves, so their pictures would show a table that no longer is) or falls behind (more than
 *   `maxPending` waiting, or older than `maxLag` ms), and plays nothing when the player asks for reduced motion.
 *   `push(from, to, animations)`: the events took the table from version `from` to `to`.
 *
 * An ES module with no imports: the page loads it as <script type="module"> (window.Ramino.motion), Node's test
 * runner imports it (tests/client/motion.test.mjs). */

export const DURATIONS = { draw: 320, discard: 280, meld: 360, lay_off: 320, flourish: 900 };

/** Animations for a batch of the table's events ({kind, player, move, version}); `me` is this page's player. */
export function plan(events, me) {
  const out = [];
  for (const e of events || []) {
    if (e.kind === "round_over") {
      out.push({ kind: "flourish", player: e.winner || null, duration: DURATIONS.flourish });
      continue;
    }
    if (e.kind !== "move" || !e.move) continue;
    const m = e.move;
    const mine = e.player === me;
    switch (m.type) {
      case "draw":
        out.push({ kind: "draw", from: m.source === "stock" ? "stock" : "pile", to: mine ? "hand" : `seat:${e.player}`, card: mine || m.source !== "stock" ? m.card || null : null, duration: DURATIONS.draw });
        break;
      case "discard":
        out.push({ kind: "discard", from: mine ? "hand" : `seat:${e.player}`, to: "pile", card: m.card || null, duration: DURATIONS.discard });
        break;
      case "close":
        if (m.discard) out.push({ kind: "discard", from: mine ? "hand" : `seat:${e.player}`, to: "pile", card: m.discard, duration: DURATIONS.discard });
        break;
      case "meld":
        out.push({ kind: "meld", from: mine ? "hand" : `seat:${e.player}`, to: "melds", cards: m.melds ? m.melds.flat() : m.cards || [], duration: DURATIONS.meld });
        break;
      case "lay_off":
      case "call_rummy":
        out.push({ kind: "lay_off", from: mine ? "hand" : `seat:${e.player}`, to: m.meld ? `meld:${m.meld}` : "melds", cards: m.cards || (m.card ? [m.card] : []), duration: DURATIONS.lay_off });
        break;
      default:
    }
  }
  return out;
}

export function createQueue({ run, now = () => Date.now(), reduced = () => false, maxPending = 6, maxLag = 1500 } = {}) {
  let version = null; // the last version pushed
  let pending = []; // [{animation, at}]
  let playing = null; // the animation being played
  let dropped = 0;
  let played = 0;

  function drop() {
    dropped += pending.length;
    pending = [];
  }

  function next() {
    if (playing) return;
    // what waited too long is a picture of the past: skip it
    while (pending.length && now() - pending[0].at > maxLag) {
      pending.shift();
      dropped += 1;
    }
    const item = pending.shift();
    if (!item) return;
    playing = item.animation;
    played += 1;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      playing = null;
      next();
    };
    try {
      const answer = run ? run(item.animation, done) : null;
      if (answer && typeof answer.then === "function") answer.then(done, done);
      else if (!run || answer === false) done();
    } catch (_) {
      done();
    }
  }

  /** Animations for the events that took the table from version `from` to version `to`. Returns at once: how
   * many animations were queued (0 when they were dropped). */
  function push(from, to, animations) {
    const list = Array.isArray(animations) ? animations : [];
    // a jump: the batch does not start where the last one ended (moves the page never saw came between)
    const jumped = version !== null && from !== version;
    version = to;
    if (reduced() || jumped) {
      // reduced motion plays nothing; after a jump neither what waited nor this batch shows the table as it is
      drop();
      dropped += list.length;
      return 0;
    }
    const stamp = now();
    for (const animation of list) pending.push({ animation, at: stamp });
    next();
    // behind: of what waits, only the newest `maxPending` stay
    if (pending.length > maxPending) {
      dropped += pending.length - maxPending;
      pending = pending.slice(pending.length - maxPending);
    }
    return list.length;
  }

  /** The page jumped to a state with no story (a new page, a redeal, a reconnection): forget what waits. */
  function reset(at) {
    drop();
    version = at === undefined ? null : at;
  }

  return {
    push,
    reset,
    // input is never refused: a page asks, and the answer is always yes (the queue only draws pictures)
    accepting: () => true,
    state: () => ({ version, pending: pending.length, playing: playing ? playing.kind : null, dropped, played }),
  };
}

const api = { plan, createQueue, DURATIONS };
export default api;
