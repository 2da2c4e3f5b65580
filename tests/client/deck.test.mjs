// The SVG deck (play/static/play/js/lib/deck.mjs) under Node's test runner.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parse, svg as tree, markup, colourClass } from "../../play/static/play/js/lib/deck.mjs";

const svg = (code) => markup(tree(code));

test("codes are read as the API writes them: cards, tiles, jokers and a joker standing for a card or tile", () => {
  assert.deepEqual(parse("7H"), { kind: "card", rank: "7", suit: "H" });
  assert.deepEqual(parse("TS"), { kind: "card", rank: "T", suit: "S" });
  assert.deepEqual(parse("R13"), { kind: "tile", colour: "R", number: 13 });
  assert.deepEqual(parse("JK"), { kind: "joker", stands: null });
  assert.deepEqual(parse("JK:7H"), { kind: "joker", stands: { kind: "card", rank: "7", suit: "H" } });
  assert.deepEqual(parse("JK:K7"), { kind: "joker", stands: { kind: "tile", colour: "K", number: 7 } });
  assert.equal(parse("ZZ"), null);
  assert.equal(parse("R14"), null);
});

test("every card of both decks draws as one SVG, its rank in the corner the fan leaves showing", () => {
  for (const suit of "SHDC") {
    for (const rank of "A23456789TJQK") {
      const out = svg(rank + suit);
      assert.match(out, /^<svg class="card-svg" viewBox="0 0 50 70" aria-hidden="true" focusable="false">.*<\/svg>$/);
      assert.equal(tree(rank + suit).tag, "svg");
      assert.ok(out.includes(`class="card-rank" x="3" y="15"`), `${rank}${suit} corner index`);
      assert.equal(colourClass(rank + suit), `suit-${suit}`);
    }
  }
  for (const colour of "RYBK") {
    for (let n = 1; n <= 13; n += 1) {
      const out = svg(`${colour}${n}`);
      assert.ok(out.includes(`>${n}</text>`), `${colour}${n}`);
      assert.equal(colourClass(`${colour}${n}`), `tile-${colour}`);
    }
  }
  assert.ok(svg("JK").includes("JOKER"));
  assert.ok(svg("JK:TH").includes(">10</text>"));
  assert.equal(colourClass("JK:7H"), "joker suit-H");
});

test("nothing of an unknown code reaches the drawing", () => {
  assert.equal(tree("<script>"), null);
  assert.equal(svg("<script>"), "");
  assert.equal(svg("JK:<img>").includes("<img"), false);
  assert.equal(svg(null), "");
  // the drawing is plain data: tags and attributes from the module's own tables
  const tags = new Set();
  const walk = (t) => {
    if (typeof t !== "object") return;
    tags.add(t.tag);
    t.children.forEach(walk);
  };
  for (const code of ["AS", "KH", "JK:TD", "R13", "JK:K7"]) walk(tree(code));
  assert.deepEqual([...tags].sort(), ["circle", "g", "path", "rect", "svg", "text"].filter((x) => tags.has(x)).sort());
  assert.ok(["script", "foreignObject", "image", "a"].every((x) => !tags.has(x)));
});
