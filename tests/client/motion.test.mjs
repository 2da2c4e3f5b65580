// The table's animation queue (play/static/play/js/lib/motion.mjs) under Node's test runner.
import { test } from "node:test";
import assert from "node:assert/strict";
import { plan, createQueue, DURATIONS } from "../../play/static/play/js/lib/motion.mjs";

const move = (player, m) => ({ kind: "move", player, move: m });

test("events become animations: draws travel to who drew, discards fly to the pile, melds slide, going out flourishes", () => {
  const anims = plan(
    [
      move("bob", { type: "draw", source: "stock" }),
      move("ann", { type: "draw", source: "discard", card: "7H", index: 2 }),
      move("ann", { type: "meld", cards: ["7H", "7S", "7D"] }),
      move("bob", { type: "lay_off", cards: ["8H"], meld: "m1" }),
      move("ann", { type: "discard", card: "KC" }),
      { kind: "round_over", round: 1 },
      { kind: "claims_closed" },
    ],
    "ann",
  );
  assert.deepEqual(anims.map((a) => [a.kind, a.from, a.to]), [
    ["draw", "stock", "seat:bob"],
    ["draw", "pile", "hand"],
    ["meld", "hand", "melds"],
    ["lay_off", "seat:bob", "meld:m1"],
    ["discard", "hand", "pile"],
    ["flourish", undefined, undefined],
  ]);
  // another player's stock draw shows a card back, not the card
  assert.equal(anims[0].card, null);
  assert.equal(anims[1].card, "7H");
  for (const a of anims) assert.ok(a.duration > 0 && a.duration <= 1000, `${a.kind} is short`);
  assert.ok(DURATIONS.draw < 400 && DURATIONS.discard < 400);
});

function fakeRun() {
  const calls = [];
  return {
    calls,
    run: (a, done) => {
      calls.push({ a, done });
      return true; // still playing until done() is called
    },
  };
}

test("push answers at once, whatever is playing: input is never blocked", () => {
  const { run, calls } = fakeRun();
  const q = createQueue({ run, now: () => 0 });
  assert.equal(q.push(0, 1, [{ kind: "draw" }]), 1);
  assert.equal(calls.length, 1, "the first animation starts at once");
  // while it plays, more pushes return synchronously and queue behind it
  assert.equal(q.push(1, 2, [{ kind: "discard" }]), 1);
  assert.equal(q.accepting(), true);
  assert.deepEqual(q.state().pending, 1);
  assert.equal(calls.length, 1);
  calls[0].done();
  assert.equal(calls.length, 2, "the next one plays when the first ends");
  calls[1].done();
  assert.deepEqual(q.state(), { version: 2, pending: 0, playing: null, dropped: 0, played: 2 });
});

test("a jump in the state drops what waits and the batch that jumped", () => {
  const { run, calls } = fakeRun();
  const q = createQueue({ run, now: () => 0 });
  q.push(0, 1, [{ kind: "draw" }]);
  q.push(1, 2, [{ kind: "discard" }, { kind: "draw" }]);
  assert.equal(q.state().pending, 2);
  // events from version 5: versions 2..5 were never seen
  assert.equal(q.push(5, 6, [{ kind: "meld" }]), 0);
  assert.equal(q.state().pending, 0);
  assert.equal(q.state().dropped, 3);
  calls[0].done();
  assert.equal(calls.length, 1, "nothing dropped is played");
  // the story continues from the new version
  assert.equal(q.push(6, 7, [{ kind: "discard" }]), 1);
  assert.equal(calls.length, 2);
});

test("a queue falling behind keeps only the newest, and skips what waited too long", () => {
  let clock = 0;
  const { run, calls } = fakeRun();
  const q = createQueue({ run, now: () => clock, maxPending: 2, maxLag: 1000 });
  q.push(0, 1, [{ kind: "a" }, { kind: "b" }, { kind: "c" }, { kind: "d" }]);
  // "a" plays; of b, c, d only the newest two wait
  assert.equal(q.state().pending, 2);
  assert.equal(q.state().dropped, 1);
  clock = 5000;
  calls[0].done();
  assert.equal(calls.length, 1, "c and d waited 5 s: dropped, not played late");
  assert.equal(q.state().dropped, 3);
});

test("reduced motion plays nothing", () => {
  const { run, calls } = fakeRun();
  const q = createQueue({ run, reduced: () => true });
  assert.equal(q.push(0, 1, [{ kind: "draw" }, { kind: "flourish" }]), 0);
  assert.equal(calls.length, 0);
  assert.equal(q.state().dropped, 2);
});

test("a failing or synchronous animation never stalls the queue", () => {
  const seen = [];
  const q = createQueue({
    run: (a) => {
      seen.push(a.kind);
      if (a.kind === "boom") throw new Error("no DOM");
      return false; // finished at once
    },
  });
  q.push(null, 1, [{ kind: "boom" }, { kind: "draw" }]);
  assert.deepEqual(seen, ["boom", "draw"]);
  assert.equal(q.state().playing, null);
  q.reset(9);
  assert.equal(q.state().version, 9);
});
