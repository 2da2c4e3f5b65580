// Moves as data (play/static/play/js/lib/moves.mjs): the legal moves a selection makes, the draws, the action
// bar's and the list's moves, and the body posted for a move.
import { test } from "node:test";
import assert from "node:assert/strict";
import { actions, barMoves, groupMoves, moveBody, moveCards, pileDraw, sameCards, stockDraw } from "../../play/static/play/js/lib/moves.mjs";

const LEGAL = [
  { type: "draw", source: "stock" },
  { type: "draw", source: "discard", index: 0, card: "9C" },
  { type: "draw", source: "discard", index: 2, card: "4D" },
  { type: "meld", cards: ["7H", "8H", "9H"] },
  { type: "meld", melds: [["7H", "8H", "9H"], ["KS", "KD", "KC"]] },
  { type: "meld", cards: ["7H", "8H", "JK:9H"] },
  { type: "lay_off", cards: ["TH"], meld: 0 },
  { type: "lay_off", cards: ["TH"], meld: 3 },
  { type: "discard", card: "TH" },
  { type: "swap_joker", card: "9H", meld: 1 },
  { type: "call_rummy", card: "4D" },
  { type: "pass_claim" },
  { type: "close" },
  { type: "knock" },
];

test("the cards a move uses from the hand", () => {
  assert.deepEqual(moveCards(LEGAL[3]), ["7H", "8H", "9H"]);
  assert.deepEqual(moveCards(LEGAL[4]), ["7H", "8H", "9H", "KS", "KD", "KC"]);
  assert.deepEqual(moveCards(LEGAL[6]), ["TH"]);
  assert.deepEqual(moveCards(LEGAL[8]), ["TH"]);
  assert.deepEqual(moveCards(LEGAL[9]), ["9H"]);
  assert.deepEqual(moveCards(LEGAL[0]), []);
});

test("the same cards in any order; a joker is a joker whatever it stands for", () => {
  assert.ok(sameCards(["9H", "7H", "8H"], ["7H", "8H", "9H"]));
  assert.ok(sameCards(["JK", "7H"], ["7H", "JK:8H"]));
  assert.ok(!sameCards(["7H", "8H"], ["7H", "8H", "9H"]));
  assert.ok(!sameCards(["7H", "7H"], ["7H", "8H"]));
});

test("a selection makes the legal moves that use exactly its cards, by kind", () => {
  const fit = actions(LEGAL, ["9H", "8H", "7H"]);
  assert.deepEqual(fit.meld, [LEGAL[3]]);
  assert.deepEqual([fit.lay_off, fit.discard, fit.swap_joker], [[], [], []]);
  // one card: both lay-offs (the player picks the meld), the discard
  const one = actions(LEGAL, ["TH"]);
  assert.deepEqual(one.lay_off, [LEGAL[6], LEGAL[7]]);
  assert.deepEqual(one.discard, [LEGAL[8]]);
  // the joker in the hand meets a joker standing for a card in the move
  assert.deepEqual(actions(LEGAL, ["JK", "7H", "8H"]).meld, [LEGAL[5]]);
  // two melds at once take all six cards
  assert.deepEqual(actions(LEGAL, ["KC", "KD", "KS", "9H", "8H", "7H"]).meld, [LEGAL[4]]);
});

test("no selection, or no legal moves, makes nothing", () => {
  const none = { meld: [], lay_off: [], discard: [], swap_joker: [] };
  assert.deepEqual(actions(LEGAL, []), none);
  assert.deepEqual(actions(undefined, ["TH"]), none);
});

test("the draws: the stock, and the pile's top card only", () => {
  assert.equal(stockDraw(LEGAL), LEGAL[0]);
  assert.equal(pileDraw(LEGAL, ["9C", "2S", "4D"]), LEGAL[2]);
  assert.equal(pileDraw(LEGAL, ["9C", "2S"]), undefined);
  assert.equal(pileDraw(LEGAL, undefined), undefined);
  assert.equal(stockDraw([]), undefined);
  assert.equal(stockDraw(null), undefined);
});

test("the action bar: the draws, the one-button moves in the server's order, and the Rummy! calls", () => {
  const bar = barMoves(LEGAL, ["9C", "2S", "4D"]);
  assert.equal(bar.stock, LEGAL[0]);
  assert.equal(bar.top, LEGAL[2]);
  assert.deepEqual(bar.others, [LEGAL[11], LEGAL[12]]);
  assert.deepEqual(bar.calls, [LEGAL[10]]);
  assert.deepEqual(barMoves(undefined, undefined), { stock: undefined, top: undefined, others: [], calls: [] });
});

test("the list of every move: the groups in their order, empty ones left out, unknown kinds last", () => {
  const groups = [
    ["draw", "Draw"],
    ["meld", "Meld"],
    ["end_round", ""],
    ["discard", "Discard"],
  ];
  const lists = groupMoves(LEGAL, groups, "Other");
  assert.deepEqual(lists.map(([title, l]) => [title, l.length]), [["Draw", 3], ["Meld", 3], ["Discard", 1], ["Other", 7]]);
  assert.deepEqual(lists[3][1].map((m) => m.type), ["lay_off", "lay_off", "swap_joker", "call_rummy", "pass_claim", "close", "knock"]);
  assert.deepEqual(groupMoves([], groups, "Other"), []);
});

test("a move is posted as the server listed it, with the version of the game it was chosen in", () => {
  const move = { type: "lay_off", cards: ["TH"], meld: 3 };
  assert.deepEqual(moveBody(move, 41), { type: "lay_off", cards: ["TH"], meld: 3, expected_version: 41 });
  assert.deepEqual(move, { type: "lay_off", cards: ["TH"], meld: 3 }, "the listed move is left as it was");
});
