// The table's layout maths (play/static/play/js/lib/layout.mjs) under Node's test runner: `node --test tests/client/`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seatPositions, fanStep, packMelds, cardSize } from "../../play/static/play/js/lib/layout.mjs";

test("no opponents: no seats; one opponent sits straight across, at the top centre", () => {
  assert.deepEqual(seatPositions(0), []);
  const [one] = seatPositions(1);
  assert.equal(one.x, 50);
  assert.ok(one.y < 20, `${one.y}`);
  assert.equal(one.side, "top");
});

test("seats go from the player's left over the top to their right, inside the felt, never at the bottom", () => {
  for (let n = 1; n <= 7; n += 1) {
    const seats = seatPositions(n);
    assert.equal(seats.length, n);
    for (let i = 1; i < n; i += 1) assert.ok(seats[i].x > seats[i - 1].x, `n=${n}: seat ${i} right of ${i - 1}`);
    for (const s of seats) {
      assert.ok(s.x >= 12 - 1e-9 && s.x <= 88 + 1e-9, `n=${n}: x ${s.x}`);
      assert.ok(s.y >= 12 - 1e-9 && s.y <= 50 + 1e-9, `n=${n}: y ${s.y} in the upper half`);
    }
    // symmetric around the vertical axis
    for (let i = 0; i < n; i += 1) assert.ok(Math.abs(seats[i].x - (100 - seats[n - 1 - i].x)) < 0.02);
  }
  const three = seatPositions(3);
  assert.deepEqual(three.map((s) => s.side), ["left", "top", "right"]);
});

test("a row that fits keeps its natural spacing; one that does not overlaps to fit exactly", () => {
  const loose = fanStep(5, 40, 400, { gap: 4 });
  assert.deepEqual(loose, { step: 44, width: 216, overlap: 0, fits: true });
  const tight = fanStep(15, 44, 374, { gap: 4, minVisible: 14 });
  assert.ok(tight.fits);
  assert.ok(Math.abs(tight.width - 374) < 0.02, `${tight.width}`);
  assert.ok(tight.step < 44 && tight.step >= 14);
  assert.ok(Math.abs(tight.overlap - (44 - tight.step)) < 0.02);
});

test("overlap stops at the corner that must stay visible: a row too long says it does not fit", () => {
  const r = fanStep(40, 44, 300, { minVisible: 14 });
  assert.equal(r.step, 14);
  assert.equal(r.fits, false);
  assert.equal(r.width, 44 + 14 * 39);
  assert.deepEqual(fanStep(0, 44, 300), { step: 48, width: 0, overlap: 0, fits: true });
  assert.equal(fanStep(1, 44, 300).width, 44);
});

test("melds pack side by side, wrap to a new row, and a meld too long for a row is squeezed, never split", () => {
  const { melds, rows } = packMelds([3, 3, 4], 40, 200, { gap: 10 });
  assert.equal(rows, 2);
  assert.equal(melds[0].row, 0);
  assert.equal(melds[0].x, 0);
  assert.equal(melds[1].row, 0);
  assert.ok(melds[1].x >= melds[0].width + 10 - 0.01);
  assert.equal(melds[2].row, 1);
  for (const m of melds) assert.ok(m.x + m.width <= 200 + 0.01);
  const long = packMelds([13], 40, 150, { minVisible: 8 });
  assert.ok(long.melds[0].width <= 150 + 0.01);
  assert.ok(long.melds[0].step < 40 * 0.6);
  assert.deepEqual(packMelds([], 40, 200), { melds: [], rows: 0 });
});

test("card sizes follow the viewport: by width on a phone, by height on a laptop, within bounds", () => {
  const phone = cardSize(390, 844);
  const small = cardSize(360, 640);
  const laptop = cardSize(1366, 900);
  assert.ok(phone.hand.width >= 40 && phone.hand.width <= 50, JSON.stringify(phone));
  assert.ok(small.hand.width <= phone.hand.width);
  assert.ok(laptop.hand.width > phone.hand.width && laptop.hand.width <= 84);
  for (const s of [phone, small, laptop]) {
    assert.equal(s.hand.height, Math.round(s.hand.width * 1.4));
    assert.ok(s.felt.width < s.hand.width);
  }
  assert.ok(8 * phone.hand.width <= 390, "eight hand cards side by side fit a phone's width");
  assert.deepEqual(cardSize(0, 0).hand, { width: 40, height: 56 });
  assert.equal(cardSize(5000, 5000).hand.width, 84);
});
