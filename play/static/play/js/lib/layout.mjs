/* The table's layout maths, pure (plain numbers in, plain numbers out): where the opponents sit around the felt,
 * how far cards overlap so a row fits its box, and how big a card is on a given screen. An ES module with no
 * imports: the page loads it as <script type="module"> (it then adds itself to window.Ramino.layout) and Node's
 * test runner imports it (tests/client/layout.test.mjs). */

/** Opponents' seats around the felt, the player themself at the bottom (the hand's place): `count` seats spread
 * over the upper half of an ellipse from the left edge to the right edge, in the order play passes (clockwise
 * from the player's left). Each: {x, y} in percent of the felt's box (the seat's centre), and `side` ("left",
 * "top", "right") for where its name and cards lean. `margin` keeps seats away from the edges (percent). */
export function seatPositions(count, margin = 12) {
  const n = Math.max(0, Math.floor(count));
  if (!n) return [];
  const out = [];
  for (let i = 0; i < n; i += 1) {
    // one seat: straight across; more: from 180° (left) to 0° (right), the ends pulled in when few
    const angle = n === 1 ? Math.PI / 2 : Math.PI - (Math.PI * (i + 0.5)) / n;
    const rx = 50 - margin;
    const ry = 50 - margin;
    const x = 50 + rx * Math.cos(angle);
    const y = 50 - ry * Math.sin(angle);
    const side = x < 35 ? "left" : x > 65 ? "right" : "top";
    out.push({ x: round(x), y: round(y), side });
  }
  return out;
}

function round(v) {
  return Math.round(v * 100) / 100;
}

/** How far apart `count` cards of `cardWidth` are laid in a row of `available` pixels: their natural spacing
 * (`cardWidth + gap`) when that fits, else overlapping, each card showing at least `minVisible` pixels (its
 * corner index). Answers {step, width, overlap, fits}: the distance from one card's left edge to the next's, the
 * row's width, how much each card hides of the one before, and whether the row fits (false: even at
 * `minVisible` it is wider than `available`, and the row wraps or scrolls). */
export function fanStep(count, cardWidth, available, { gap = 4, minVisible = 14 } = {}) {
  const n = Math.max(0, Math.floor(count));
  if (n <= 1) return { step: cardWidth + gap, width: n ? cardWidth : 0, overlap: 0, fits: n === 0 || cardWidth <= available };
  const natural = cardWidth + gap;
  const room = (available - cardWidth) / (n - 1);
  const step = Math.max(Math.min(natural, minVisible), Math.min(natural, room));
  const width = cardWidth + step * (n - 1);
  return { step: round(step), width: round(width), overlap: round(Math.max(0, cardWidth - step)), fits: width <= available + 0.01 };
}

/** Melds on the felt laid in rows of `available` pixels: each meld a fanned group of its cards (`fanStep` with
 * the meld's own room), melds side by side while they fit, `gap` apart. `sizes` are the melds' card counts.
 * Answers [{row, x, width, step}] in the order given, and the number of rows. A meld is never split; a meld too
 * long for a whole row is overlapped down to `minVisible` a card. */
export function packMelds(sizes, cardWidth, available, { gap = 10, minVisible = 14, natural = 0.6 } = {}) {
  const placed = [];
  let row = 0;
  let x = 0;
  for (const size of sizes) {
    // a meld's preferred step shows `natural` of each card: melds are read, not played from
    const want = fanStep(size, cardWidth, Math.min(available, cardWidth + cardWidth * natural * Math.max(0, size - 1)), { gap: 0, minVisible });
    let width = want.width;
    let step = want.step;
    if (x > 0 && x + width > available) {
      row += 1;
      x = 0;
    }
    if (width > available) {
      const squeezed = fanStep(size, cardWidth, available, { gap: 0, minVisible });
      width = squeezed.width;
      step = squeezed.step;
    }
    placed.push({ row, x: round(x), width: round(width), step: round(step) });
    x += width + gap;
  }
  return { melds: placed, rows: sizes.length ? row + 1 : 0 };
}

/** A card's size on a screen of `width` × `height` CSS pixels: the hand's cards (the biggest: they are played
 * from) and the felt's (stock, pile, melds, smaller). A card is 7:5 (height:width). A phone held upright sizes
 * cards by its width (about nine across), a short or wide screen by its height; never under 40 px wide in the
 * hand (a finger's tap with the overlap's corner) nor over 84. */
export function cardSize(width, height) {
  const w = Math.max(0, width);
  const h = Math.max(0, height);
  const byWidth = w / 8.5;
  const byHeight = (h * 0.13) / 1.4;
  const hand = Math.round(clamp(Math.min(byWidth, byHeight), 40, 84));
  const felt = Math.round(clamp(hand * 0.78, 32, 66));
  return {
    hand: { width: hand, height: Math.round(hand * 1.4) },
    felt: { width: felt, height: Math.round(felt * 1.4) },
  };
}

function clamp(v, lo, hi) {
  return Math.min(hi, Math.max(lo, v));
}

const api = { seatPositions, fanStep, packMelds, cardSize };
export default api;
