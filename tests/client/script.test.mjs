// The demo's step matching (play/static/play/js/lib/script.mjs), as tournaments/practice/demo/script.py
// matches the same steps on the server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { currentStep, holds, matches, sameMove } from "../../play/static/play/js/lib/script.mjs";

const VIEW = {
  turn: { player: "guest" },
  phase: "draw",
  hand: ["7H", "8H", "JK", "KS"],
  discard_pile: ["2C"],
  melds: [{ cards: ["QD", "QS", "QC"] }],
  legal_moves: [
    { type: "draw", source: "stock" },
    { type: "draw", source: "discard", index: 0, card: "2C" },
  ],
};

test("a hand holds cards as a multiset, a joker as a joker", () => {
  assert.ok(holds(["7H", "JK:9H", "7H"], ["7H", "7H", "JK"]));
  assert.ok(!holds(["7H", "JK"], ["7H", "7H"]));
  assert.ok(holds([], []));
});

test("two moves are the same when their fields are, cards in any order", () => {
  assert.ok(sameMove({ type: "meld", cards: ["9H", "JK:8H", "7H"] }, { type: "meld", cards: ["7H", "JK", "9H"] }));
  assert.ok(!sameMove({ type: "draw", source: "stock" }, { type: "draw", source: "discard", index: 0 }));
  assert.ok(!sameMove({ type: "draw", source: "stock" }, null));
});

test("a step's situation: whose turn, the phase, the hand, what it holds, the pile and the melds", () => {
  assert.ok(matches({ expect: { turn: "player", phase: "draw" } }, VIEW, "guest"));
  assert.ok(!matches({ expect: { turn: "bot" } }, VIEW, "guest"));
  assert.ok(matches({ expect: { hand: ["KS", "JK", "8H", "7H"] } }, VIEW, "guest"));
  assert.ok(!matches({ expect: { hand: ["KS", "8H", "7H"] } }, VIEW, "guest"));
  assert.ok(matches({ expect: { holds: ["JK", "KS"], pile: ["2C"] } }, VIEW, "guest"));
  assert.ok(matches({ expect: { melds: [["QS", "QC", "QD"]], table: ["QD"] } }, VIEW, "guest"));
  assert.ok(!matches({ expect: { pile: [] } }, VIEW, "guest"));
  assert.ok(matches({}, VIEW, "guest"), "a step that expects nothing matches anything");
});

test("the current step is the first that matches and whose move is legal now; none off the script", () => {
  const steps = [
    { key: "meld", expect: { turn: "player" }, move: { type: "meld", cards: ["7H", "8H", "JK"] } },
    { key: "draw", expect: { turn: "player", phase: "draw" }, move: { type: "draw", source: "stock" } },
    { key: "wait", expect: { turn: "bot" } },
  ];
  assert.equal(currentStep(steps, VIEW, "guest").key, "draw");
  assert.equal(currentStep(steps, { ...VIEW, turn: { player: "Bea" }, legal_moves: [] }, "guest").key, "wait");
  assert.equal(currentStep(steps.slice(0, 2), { ...VIEW, legal_moves: [] }, "guest"), null);
});
