// The player's hand as data (play/static/play/js/lib/hand.mjs): its order, its keys, the selection.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keys, moveCard, ordered, prune, selectedCodes, sortOrder } from "../../play/static/play/js/lib/hand.mjs";

test("without a saved order the hand is as dealt (a copy)", () => {
  const hand = ["7H", "2S", "JK"];
  const out = ordered(null, hand);
  assert.deepEqual(out, hand);
  assert.notEqual(out, hand);
});

test("the saved order is kept for the cards still held; new cards go at the end, in the order given", () => {
  assert.deepEqual(ordered(["KS", "7H", "2S", "AD"], ["2S", "QC", "7H", "KS", "5D"]), ["KS", "7H", "2S", "QC", "5D"]);
});

test("two copies of a card (two decks) are kept apart by their keys, in both the order and the selection", () => {
  assert.deepEqual(ordered(["7H", "2S", "7H"], ["7H", "7H", "2S"]), ["7H", "2S", "7H"]);
  assert.deepEqual(ordered(["7H", "2S", "7H"], ["2S", "7H"]), ["7H", "2S"]);
  assert.deepEqual(keys(["7H", "2S", "7H", "JK", "JK"]), ["7H#0", "2S#0", "7H#1", "JK#0", "JK#1"]);
});

test("a card moved lands where it is dropped, held within the hand", () => {
  assert.deepEqual(moveCard(["A", "B", "C", "D"], 0, 2), ["B", "C", "A", "D"]);
  assert.deepEqual(moveCard(["A", "B", "C", "D"], 3, 0), ["D", "A", "B", "C"]);
  assert.deepEqual(moveCard(["A", "B", "C"], 0, 99), ["B", "C", "A"]);
  assert.deepEqual(moveCard(["A", "B", "C"], 2, -5), ["C", "A", "B"]);
});

test("the selected cards come in hand order, whatever order they were tapped in", () => {
  const state = { order: ["KS", "7H", "2S", "7H"], selected: new Set(["7H#1", "KS#0"]) };
  assert.deepEqual(selectedCodes(state), ["KS", "7H"]);
});

test("a selection of a card no longer held is forgotten; the rest stays", () => {
  const state = { order: ["KS", "7H"], selected: new Set(["7H#0", "7H#1", "2S#0"]) };
  prune(state);
  assert.deepEqual([...state.selected], ["7H#0"]);
});

test("sorting the hand sorts its order by suit or by rank", () => {
  const state = { order: ["2H", "AS", "JK", "AH"], selected: new Set() };
  assert.deepEqual(sortOrder(state, "rank"), ["AS", "AH", "2H", "JK"]);
  assert.deepEqual(state.order, ["AS", "AH", "2H", "JK"]);
  assert.deepEqual(sortOrder(state, "suit"), ["AS", "AH", "2H", "JK"]);
});
