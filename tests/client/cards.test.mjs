// Cards in text and the hand's sort orders (play/static/play/js/lib/cards.mjs).
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { face, name, sorted } from "../../play/static/play/js/lib/cards.mjs";
import { useCatalog } from "../../play/static/play/js/lib/words.mjs";
import { stubCatalog, ITALIAN } from "./catalog-stub.mjs";

afterEach(() => useCatalog(null));

test("a card shows its rank and suit, 10 for T, red for hearts and diamonds", () => {
  assert.deepEqual(face("7H"), { text: "7♥", red: true, joker: false });
  assert.deepEqual(face("TS"), { text: "10♠", red: false, joker: false });
  assert.deepEqual(face("QD"), { text: "Q♦", red: true, joker: false });
  assert.deepEqual(face("AC"), { text: "A♣", red: false, joker: false });
});

test("a joker is a star, and on the table shows the card it stands for, in that card's colour", () => {
  assert.deepEqual(face("JK"), { text: "★", red: false, joker: true });
  assert.deepEqual(face("JK:7H"), { text: "★7♥", red: true, joker: true });
  assert.deepEqual(face("JK:KS"), { text: "★K♠", red: false, joker: true });
});

test("a card in words, in English and in Italian", () => {
  useCatalog(stubCatalog({}));
  assert.equal(name("7H"), "7 of hearts");
  assert.equal(name("TS"), "10 of spades");
  assert.equal(name("AD"), "ace of diamonds");
  assert.equal(name("JK"), "joker");
  assert.equal(name("JK:KH"), "joker as the king of hearts");
  useCatalog(stubCatalog(ITALIAN));
  assert.equal(name("7H"), "7 di cuori");
  assert.equal(name("AS"), "asso di picche");
  assert.equal(name("JK:KH"), "jolly al posto del re di cuori");
});

test("a code that is not a card is said as it is written", () => {
  useCatalog(stubCatalog({}));
  assert.equal(name("R7"), "R7");
  assert.equal(face("R7").text, "R7");
});

test("by suit: spades, hearts, diamonds, clubs, each ace to king, jokers last", () => {
  const hand = ["JK", "KC", "2H", "AS", "TH", "7D", "3S", "JK"];
  assert.deepEqual(sorted(hand), ["AS", "3S", "2H", "TH", "7D", "KC", "JK", "JK"]);
  assert.deepEqual(sorted(hand, "suit"), sorted(hand));
});

test("by rank: ace to king, each in suit order, jokers last; the hand given is left as it was", () => {
  const hand = ["KC", "JK", "2H", "AS", "2S", "AD", "KH"];
  const before = hand.slice();
  assert.deepEqual(sorted(hand, "rank"), ["AS", "AD", "2S", "2H", "KH", "KC", "JK"]);
  assert.deepEqual(hand, before);
});
