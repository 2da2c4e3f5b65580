/* The client's words: gettext and ngettext with named placeholders ("%(n)s chips"), over a catalog of the shape
 * of Django's JavaScript catalog ({gettext, ngettext, interpolate}). In the browser that catalog is Django's own
 * (`{% url 'javascript-catalog' %}`, a classic script loaded before the modules, which leaves the three functions
 * as globals); this is the one module that reads them, at each call. Node's tests give a stub (useCatalog).
 * The plural rule is the catalog's: Italian and English say "0 fiches" and "0 chips", "1 fiche" and "1 chip".
 * Pure: no DOM; Node imports it too. */

let catalog = null;

/** Use `words` ({gettext, ngettext, interpolate}) from now on; null: the page's globals again. */
export function useCatalog(words) {
  catalog = words;
}

function current() {
  return catalog || globalThis;
}

/** gettext with named placeholders: t("%(n)s chips", {n: 5}). */
export function t(message, values) {
  const words = current();
  const translated = words.gettext(message);
  return values ? words.interpolate(translated, values, true) : translated;
}

/** ngettext with named placeholders: tn("%(n)s chip", "%(n)s chips", count, {n: count}); `values` defaults to
 * {n: count}. */
export function tn(singular, plural, count, values) {
  const words = current();
  return words.interpolate(words.ngettext(singular, plural, count), values || { n: count }, true);
}
