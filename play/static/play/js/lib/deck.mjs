/* The project's own deck, drawn as SVG (no image files): French cards (A–K in ♠ ♥ ♦ ♣, jokers) and Board Rummy's
 * tiles (1–13 in red, yellow, blue and black, jokers). `svg(code)` answers the drawing of a card code as the API
 * writes it (docs/rules.md "Cards and notation": "7H", "TS", "JK", "JK:7H"; tiles "R7", "K13", "JK:R7") as a
 * tree of plain objects, {tag, attrs, children} (children are trees or text), which the page turns into SVG
 * elements with createElementNS (cards.js: no markup is ever parsed), and `markup(tree)` writes as text (the
 * tests read it). Everything in a tree comes from this file's own tables, never from the code's text. Colours are
 * `currentColor` and CSS classes (`suit-S`, `tile-R`, …): the page's stylesheet gives the classic two colours or
 * the colour-blind-safe four (play/css/cards.css). Pure: Node imports it too.
 * Licence: the project's own drawing, under the project's licence. */

const RANKS = { A: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K" };
const PIPS = {
  // each in a 10 × 12 box
  S: "M5 0C8 4 11 6 10 8.5C9.5 10.3 7 10.5 5.6 9L6.5 12H3.5L4.4 9C3 10.5.5 10.3 0 8.5-1 6 2 4 5 0Z",
  H: "M5 11.5C-1.5 6.5-.5 1 2.7 1 4 1 5 2 5 3.2 5 2 6 1 7.3 1 10.5 1 11.5 6.5 5 11.5Z",
  D: "M5 0 9.5 6 5 12 .5 6Z",
  C: "M5 .4A2.6 2.6 0 0 1 7.3 4.3 2.6 2.6 0 1 1 5.8 8.4L6.6 12H3.4L4.2 8.4A2.6 2.6 0 1 1 2.7 4.3 2.6 2.6 0 0 1 5 .4Z",
};
const STAR = "M5 0 6.2 3.8H10L6.9 6.1 8.1 10 5 7.6 1.9 10 3.1 6.1 0 3.8H3.8Z";
// Board Rummy's colours, each with its own mark (not only a colour: a colour-blind player reads the mark)
const TILE_MARKS = {
  R: () => n("circle", { cx: 25, cy: 56, r: 5 }),
  Y: () => n("path", { d: "M25 50 31 61H19Z" }),
  B: () => n("rect", { x: 20, y: 51, width: 10, height: 10 }),
  K: () => n("path", { d: "M25 49 31 56 25 63 19 56Z" }),
};
const W = 50;
const H = 70;

/** A node of a drawing: its tag, attributes and children (nodes or text). */
function n(tag, attrs, ...children) {
  return { tag, attrs: attrs || {}, children: children.flat().filter((c) => c !== null && c !== undefined && c !== "") };
}

function pip(suit, x, y, scale) {
  return n("path", { d: PIPS[suit], transform: `translate(${x} ${y}) scale(${scale})` });
}

/** What a code is: {kind: "card", rank, suit} | {kind: "tile", colour, number} | {kind: "joker", stands} | null. */
export function parse(code) {
  const text = String(code || "").toUpperCase();
  if (text.startsWith("JK")) {
    const stands = text.split(":")[1];
    return { kind: "joker", stands: stands ? parse(stands) : null };
  }
  const tile = /^([RYBK])(1[0-3]|[1-9])$/.exec(text);
  if (tile) return { kind: "tile", colour: tile[1], number: Number(tile[2]) };
  const card = /^([A2-9TJQK])([SHDC])$/.exec(text);
  if (card) return { kind: "card", rank: card[1], suit: card[2] };
  return null;
}

/** The CSS classes that colour a code: `suit-H`, `tile-R`, `joker`. */
export function colourClass(code) {
  const p = parse(code);
  if (!p) return "";
  if (p.kind === "card") return `suit-${p.suit}`;
  if (p.kind === "tile") return `tile-${p.colour}`;
  return p.stands ? `joker ${colourClass(p.stands.kind === "card" ? p.stands.rank + p.stands.suit : p.stands.colour + p.stands.number)}` : "joker";
}

function frame(...extra) {
  return [n("rect", { class: "card-face", x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 5 }), ...extra];
}

function index(rank, suit) {
  // the corner index, the part of the card an overlapping fan leaves showing: rank above the suit
  const small = rank === "10" ? { textLength: 13, lengthAdjust: "spacingAndGlyphs" } : {};
  return [n("text", { class: "card-rank", x: 3, y: 15, ...small }, rank), pip(suit, 3.4, 18.5, 0.95)];
}

function cardFace(rank, suit) {
  const r = RANKS[rank];
  const turned = n("g", { transform: `rotate(180 ${W / 2} ${H / 2})` }, index(r, suit));
  let middle;
  if (rank === "J" || rank === "Q" || rank === "K") {
    middle = [n("rect", { class: "card-court", x: 13, y: 13, width: 24, height: 44, rx: 3 }), n("text", { class: "card-court-letter", x: 25, y: 41, "text-anchor": "middle" }, r), pip(suit, 20.5, 44, 0.9)];
  } else if (rank === "A") {
    middle = [pip(suit, 15, 22, 2)];
  } else {
    middle = [pip(suit, 18, 27, 1.4)];
  }
  return frame(...index(r, suit), ...middle, turned);
}

function jokerFace(stands) {
  const corner = [n("path", { d: STAR, transform: "translate(3 3) scale(1.2)" })];
  if (stands && stands.kind === "card") corner.push(n("text", { class: "card-rank card-stands", x: 3, y: 27 }, RANKS[stands.rank]), pip(stands.suit, 3.4, 29.5, 0.75));
  if (stands && stands.kind === "tile") corner.push(n("text", { class: "card-rank card-stands", x: 3, y: 27 }, String(stands.number)));
  return frame(...corner, n("path", { class: "joker-star", d: STAR, transform: "translate(13 19) scale(2.4)" }), n("text", { class: "card-joker-word", x: 25, y: 62, "text-anchor": "middle" }, "JOKER"));
}

function tileFace(colour, number) {
  const wide = number > 9 ? { textLength: 34, lengthAdjust: "spacingAndGlyphs" } : {};
  return [
    n("rect", { class: "tile-face", x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 7 }),
    n("text", { class: "tile-number", x: 25, y: number > 9 ? 40 : 41, "text-anchor": "middle", ...wide }, String(number)),
    TILE_MARKS[colour](),
  ];
}

/** The drawing of a code (an <svg> tree), or null for a code it does not know (the page then shows the text). */
export function svg(code) {
  const p = parse(code);
  if (!p) return null;
  let body;
  if (p.kind === "card") body = cardFace(p.rank, p.suit);
  else if (p.kind === "tile") body = tileFace(p.colour, p.number);
  else body = jokerFace(p.stands);
  return n("svg", { class: "card-svg", viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", focusable: "false" }, body);
}

function escape(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A tree as SVG text (for the tests and for anyone who wants the drawing as a file). */
export function markup(tree) {
  if (tree === null || tree === undefined) return "";
  if (typeof tree !== "object") return escape(tree);
  const attrs = Object.entries(tree.attrs).map(([k, v]) => ` ${k}="${escape(v)}"`).join("");
  return `<${tree.tag}${attrs}>${tree.children.map(markup).join("")}</${tree.tag}>`;
}

const api = { parse, svg, markup, colourClass };
export default api;
