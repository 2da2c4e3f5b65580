/* Cards in text: the card as shown (7♥, ★ for a joker) and in words ("7 of hearts", "7 di cuori"), and the hand's
 * sort orders. Codes are the API's (docs/rules.md): rank A 2..9 T J Q K and suit S H D C, "JK" a joker, "JK:7H" a
 * joker on the table standing for the 7 of hearts. Pure: no DOM; Node imports it too (cards.js draws the cards). */
import { t } from "./words.mjs";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = { T: "10" };
const ORDER_SUITS = "SHDC";
const ORDER_RANKS = "A23456789TJQK";

function suitName(suit) {
  switch (suit) {
    case "S":
      return t("spades");
    case "H":
      return t("hearts");
    case "D":
      return t("diamonds");
    case "C":
      return t("clubs");
    default:
      return suit;
  }
}

function rankName(rank) {
  switch (rank) {
    case "A":
      return t("ace");
    case "J":
      return t("jack");
    case "Q":
      return t("queen");
    case "K":
      return t("king");
    case "T":
      return "10";
    default:
      return rank;
  }
}

/** The card as shown: {text: "7♥", red, joker}; a joker standing for a card shows that card after its star. */
export function face(code) {
  if (code.startsWith("JK")) {
    const stands = code.split(":")[1];
    return { text: stands ? `★${face(stands).text}` : "★", red: stands ? face(stands).red : false, joker: true };
  }
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  return { text: `${RANKS[rank] || rank}${SUITS[suit] || suit}`, red: suit === "H" || suit === "D", joker: false };
}

/** The card in words: "7 of hearts", "joker", "joker as the 7 of hearts". */
export function name(code) {
  if (code.startsWith("JK")) {
    const stands = code.split(":")[1];
    return stands ? t("joker as the %(card)s", { card: name(stands) }) : t("joker");
  }
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  if (!SUITS[suit]) return code;
  return t("%(rank)s of %(suit)s", { rank: rankName(rank), suit: suitName(suit) });
}

/** Sort keys: by suit (S H D C, then rank A..K, jokers last) or by rank (A..K, then suit, jokers last). */
function suitKey(code) {
  if (code.startsWith("JK")) return [9, 99];
  return [ORDER_SUITS.indexOf(code.slice(-1)), ORDER_RANKS.indexOf(code.slice(0, -1))];
}
function rankKey(code) {
  if (code.startsWith("JK")) return [99, 9];
  return [ORDER_RANKS.indexOf(code.slice(0, -1)), ORDER_SUITS.indexOf(code.slice(-1))];
}

/** The codes sorted by suit ("suit", the default) or by rank ("rank"); a new array. */
export function sorted(codes, by) {
  const key = by === "rank" ? rankKey : suitKey;
  return codes.slice().sort((a, b) => {
    const [a1, a2] = key(a);
    const [b1, b2] = key(b);
    return a1 - b1 || a2 - b2;
  });
}
