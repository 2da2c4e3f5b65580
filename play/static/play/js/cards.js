/* Cards as the page shows them. Codes are the API's (docs/rules.md): rank A 2..9 T J Q K and suit S H D C,
 * "JK" a joker, "JK:7H" a joker on the table standing for the 7 of hearts. Each card also has its name in words
 * ("7 of hearts", "7 di cuori") for screen readers and tooltips. */
import { h } from "./dom.js";
import { face, name, sorted } from "./lib/cards.mjs";
import * as deck from "./lib/deck.mjs";

/** A card; `attrs` may make it a button (a legal move to click). Drawn as the deck's SVG (deck, lib/deck.mjs)
 * with its text (7♥) kept for screen readers; a code the deck does not know shows as its text. */
function card(code, attrs, tag) {
  const f = face(code);
  const art = deck ? deck.svg(code) : null;
  const cls = ["card", f.red ? "red" : "black", f.joker ? "joker" : "", art ? `drawn ${deck.colourClass(code)}` : ""].join(" ").trim();
  const given = { ...(attrs || {}) };
  // drawn, the card's name is its (visually hidden) text, so what a screen reader says is what the text says
  const label = art && given["aria-label"] ? given["aria-label"] : f.text;
  if (art) delete given["aria-label"];
  const el = h(tag || "span", { title: name(code), ...given, class: `${cls} ${given.class || ""}`.trim(), dataset: { card: code, ...(given.dataset || {}) } }, art ? h("span", { class: "card-label" }, label) : f.text);
  if (art) el.append(drawing(art));
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

/** The deck's drawing (a tree of plain objects, lib/deck.mjs) as SVG elements: no markup is parsed. */
function drawing(tree) {
  if (typeof tree !== "object") return document.createTextNode(String(tree));
  const el = document.createElementNS(SVG, tree.tag);
  for (const [k, v] of Object.entries(tree.attrs)) el.setAttribute(k, String(v));
  for (const child of tree.children) el.append(drawing(child));
  return el;
}

function cardList(codes) {
  return h("span", { class: "cards" }, codes.map((c) => card(c)));
}

export { face, name, card, cardList, sorted };
