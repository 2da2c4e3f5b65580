/* Languages: the page's language (Italian or English, the <html lang> Django set from the switch's cookie or the
   browser's Accept-Language), and numbers and dates written the way that language writes them.
   The words themselves come from Django's JavaScript catalog, through lib/words.mjs (t, tn: the one reader of it). */
import { t, tn } from "./lib/words.mjs";

function lang() {
  return document.documentElement.lang || "en";
}

const numbers = new Intl.NumberFormat(lang());
const dateTimes = new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" });

/* 10000 -> "10.000" in Italian, "10,000" in English. */
function number(value) {
  return value === null || value === undefined || value === "" ? "" : numbers.format(Number(value));
}

/* An ISO 8601 instant from the API -> "3 dic 2026, 18:30" / "Dec 3, 2026, 6:30 PM" in the browser's time zone. */
function dateTime(iso) {
  return iso ? dateTimes.format(new Date(iso)) : "";
}

/* The language switch (play/language_switch.html) sends the browser back to this very view: its `next` gets
   the #route, which the server never sees. */
document.addEventListener("DOMContentLoaded", () => {
  for (const form of document.querySelectorAll("form[data-role=language-switch]")) {
    form.addEventListener("submit", () => {
      const next = form.querySelector("input[name=next]");
      if (next) next.value = location.pathname + location.search + location.hash;
    });
  }
});

export { lang, number, dateTime, t, tn };
