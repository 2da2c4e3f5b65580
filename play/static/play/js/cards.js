/* Cards as the page shows them. Codes are the API's (docs/rules.md): rank A 2..9 T J Q K and suit S H D C,
 * "JK" a joker, "JK:7H" a joker on the table standing for the 7 of hearts. */
(function (R) {
  "use strict";

  const { h } = R.dom;
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const RANKS = { T: "10" };

  function face(code) {
    if (code.startsWith("JK")) {
      const stands = code.split(":")[1];
      return { text: stands ? `★${face(stands).text}` : "★", red: stands ? face(stands).red : false, joker: true };
    }
    const rank = code.slice(0, -1);
    const suit = code.slice(-1);
    return { text: `${RANKS[rank] || rank}${SUITS[suit] || suit}`, red: suit === "H" || suit === "D", joker: false };
  }

  /** A card; `attrs` may make it a button (a legal move to click). */
  function card(code, attrs, tag) {
    const f = face(code);
    const cls = ["card", f.red ? "red" : "black", f.joker ? "joker" : ""].join(" ").trim();
    return h(tag || "span", { ...(attrs || {}), class: `${cls} ${(attrs && attrs.class) || ""}`.trim(), dataset: { card: code, ...((attrs && attrs.dataset) || {}) }, title: code }, f.text);
  }

  function cardList(codes) {
    return h("span", { class: "cards" }, codes.map((c) => card(c)));
  }

  R.cards = { face, card, cardList };
})((window.Ramino = window.Ramino || {}));
