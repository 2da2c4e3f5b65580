// Who is connected (play/static/play/js/lib/presence.mjs): the socket's last word over a game view's snapshot.
import { test } from "node:test";
import assert from "node:assert/strict";
import { overlay } from "../../play/static/play/js/lib/presence.mjs";

test("a view read before the socket's message does not undo it", () => {
  // The socket said ann is back; then a view read while she was away answered: the message still stands.
  const view = [{ username: "ann", connected: false }, { username: "bob", connected: true }];
  assert.equal(overlay(view, { ann: true, bob: true }), true);
  assert.deepEqual(view.map((p) => p.connected), [true, true]);
});

test("nothing to change, nothing said changed; players the message does not name keep the view's word", () => {
  const view = [{ username: "ann", connected: true }, { username: "cat", connected: false }];
  assert.equal(overlay(view, { ann: true }), false);
  assert.deepEqual(view.map((p) => p.connected), [true, false]);
  assert.equal(overlay(view, null), false);
  assert.equal(overlay(undefined, { ann: false }), false);
});

test("the socket saying a player left wins too", () => {
  const view = [{ username: "ann", connected: true }];
  assert.equal(overlay(view, { ann: false }), true);
  assert.equal(view[0].connected, false);
});
