// The client's words (play/static/play/js/lib/words.mjs) over a stand-in for Django's JavaScript catalog.
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { t, tn, useCatalog } from "../../play/static/play/js/lib/words.mjs";
import { stubCatalog, ITALIAN } from "./catalog-stub.mjs";

afterEach(() => {
  useCatalog(null);
  delete globalThis.gettext;
  delete globalThis.ngettext;
  delete globalThis.interpolate;
});

test("a message is translated and its named placeholders filled", () => {
  useCatalog(stubCatalog(ITALIAN));
  assert.equal(t("joker"), "jolly");
  assert.equal(t("%(rank)s of %(suit)s", { rank: "7", suit: "cuori" }), "7 di cuori");
  // without values the text is left as it is, placeholders and all
  assert.equal(t("%(rank)s of %(suit)s"), "%(rank)s di %(suit)s");
  // a message the catalog does not hold stays in English
  assert.equal(t("The stock is empty."), "The stock is empty.");
});

test("plurals follow the catalog's rule: Italian and English say 0 chips, 1 chip, 2 chips", () => {
  useCatalog(stubCatalog(ITALIAN));
  assert.equal(tn("%(n)s chip", "%(n)s chips", 0), "0 fiches");
  assert.equal(tn("%(n)s chip", "%(n)s chips", 1), "1 fiche");
  assert.equal(tn("%(n)s chip", "%(n)s chips", 2), "2 fiches");
  useCatalog(stubCatalog({}));
  assert.deepEqual([0, 1, 2].map((n) => tn("%(n)s chip", "%(n)s chips", n)), ["0 chips", "1 chip", "2 chips"]);
});

test("a language whose rule is n > 1 says the singular for 0, from the same call", () => {
  useCatalog(stubCatalog({ "%(n)s chip": ["%(n)s jeton", "%(n)s jetons"] }, (n) => n > 1));
  assert.equal(tn("%(n)s chip", "%(n)s chips", 0), "0 jeton");
  assert.equal(tn("%(n)s chip", "%(n)s chips", 1), "1 jeton");
  assert.equal(tn("%(n)s chip", "%(n)s chips", 5), "5 jetons");
});

test("the count picks the form; the values fill it (a number written the page's way)", () => {
  useCatalog(stubCatalog(ITALIAN));
  assert.equal(tn("%(n)s chip", "%(n)s chips", 10000, { n: "10.000" }), "10.000 fiches");
  assert.equal(tn("%(n)s chip", "%(n)s chips", -1, { n: "-1" }), "-1 fiches");
});

test("without a catalog given, the page's globals are read at each call (Django's script, loaded first)", () => {
  const italian = stubCatalog(ITALIAN);
  Object.assign(globalThis, { gettext: italian.gettext, ngettext: italian.ngettext, interpolate: italian.interpolate });
  assert.equal(t("hearts"), "cuori");
  assert.equal(tn("%(n)s chip", "%(n)s chips", 3), "3 fiches");
  const english = stubCatalog({});
  globalThis.gettext = english.gettext;
  assert.equal(t("hearts"), "hearts");
});
