/* Responsible play (docs/web.md "Limits and reality checks"): the player's limits (#/limits, from the wallet and the
   landing page, and offered at registration), and the reality check shown during play.
   R.limits.registrationFields() -> the optional daily limits of the register form; R.limits.saveFromForm(values)
   sets those filled in. R.limits.watch() polls GET /me/session/ while signed in and, when a check is due, shows
   the time played and the session's net result, and the player keeps playing or leaves the tables. */
import * as api from "./api.js";
import { h, clear, flash } from "./dom.js";
import * as dom from "./dom.js";
import { t, number, dateTime } from "./i18n.js";


const LIMITS = [
  ["stakes_day", () => t("Stakes per day"), "chips"],
  ["stakes_week", () => t("Stakes per week"), "chips"],
  ["stakes_month", () => t("Stakes per month"), "chips"],
  ["loss_day", () => t("Net loss per day"), "chips"],
  ["loss_week", () => t("Net loss per week"), "chips"],
  ["loss_month", () => t("Net loss per month"), "chips"],
  ["minutes_day", () => t("Minutes at the tables per day"), "minutes"],
];
const AT_REGISTRATION = ["stakes_day", "loss_day", "minutes_day"];

function input(name, label, value) {
  return h("label", { class: "limit-field" }, label,
    h("input", { name, type: "number", min: 1, step: 1, inputmode: "numeric", value: value ?? "", dataset: { role: `limit-${name}` } }));
}

/* The optional limits of the register form, folded away. */
function registrationFields() {
  return h("details", { class: "limits-at-registration", dataset: { role: "register-limits" } },
    h("summary", {}, t("Set limits on your play (optional)")),
    h("p", { class: "hint" }, t("Empty: no limit. You can change them later from your wallet.")),
    AT_REGISTRATION.map((name) => input(name, LIMITS.find((l) => l[0] === name)[1]())));
}

async function saveFromForm(values) {
  const chosen = {};
  for (const [name] of LIMITS) if (values[name] !== undefined && values[name] !== null) chosen[name] = values[name];
  if (Object.keys(chosen).length) await api.put("/me/limits/", chosen);
}

function status(name, unit, row) {
  const unitWord = unit === "chips" ? t("chips") : t("minutes");
  const parts = [];
  if (row.value !== null) {
    parts.push(t("In force: %(value)s %(unit)s; %(left)s left until %(when)s.", { value: number(row.value), unit: unitWord, left: number(row.left), when: dateTime(row.resets_at) }));
  } else {
    parts.push(t("No limit."));
  }
  if (row.applies_at) {
    parts.push(row.pending === null
      ? t("Removal asked for: from %(when)s.", { when: dateTime(row.applies_at) })
      : t("Raise to %(value)s asked for: from %(when)s.", { value: number(row.pending), when: dateTime(row.applies_at) }));
  }
  return h("p", { class: "hint", dataset: { role: `limit-status-${name}` } }, parts.join(" "));
}

async function page(root) {
  clear(root);
  const body = await api.get("/me/limits/");
  const form = h("form", { class: "panel limits-form", dataset: { role: "limits-form" } });
  const rows = LIMITS.map(([name, label, unit]) => {
    const row = body[name];
    const withdraw = row.applies_at
      ? h("button", { type: "button", class: "link", dataset: { role: `limit-withdraw-${name}` }, onclick: async () => {
        await api.post("/me/limits/withdraw/", { limit: name });
        flash(t("The change was withdrawn."), "info");
        await page(root);
      } }, t("Withdraw the change"))
      : null;
    return h("div", { class: "limit-row" }, input(name, label(), row.value), status(name, unit, row), withdraw);
  });
  const interval = h("select", { name: "reality_check_minutes", dataset: { role: "reality-check-minutes" } },
    [15, 30, 60].map((m) => h("option", { value: m, selected: m === body.reality_check_minutes }, t("every %(n)s minutes", { n: m }))));
  form.append(
    h("p", {}, t("A new or lower limit applies at once; a higher one, or none, after %(days)s days.", { days: body.raise_days })),
    ...rows,
    h("label", { class: "limit-field" }, t("Reality check during play"), interval),
    h("button", { type: "submit", dataset: { role: "limits-save" } }, t("Save")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = dom.formValues(form);
    const changes = { reality_check_minutes: Number(values.reality_check_minutes) };
    for (const [name] of LIMITS) changes[name] = values[name];
    try {
      await api.put("/me/limits/", changes);
      flash(t("Your limits are saved."), "info");
      await page(root);
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
  });
  root.append(h("section", { class: "limits", dataset: { role: "limits" } }, h("h1", {}, t("Your limits")), form));
}

/* ---- the reality check ---- */

let timer = null;
let open = null;

function played(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours ? t("%(h)s h %(m)s min", { h: hours, m: minutes }) : t("%(m)s min", { m: minutes });
}

function show(session) {
  if (open) return;
  const net = session.net_result;
  const dialog = h("dialog", { class: "reality-check", dataset: { role: "reality-check" }, "aria-labelledby": "reality-check-title" },
    h("h2", { id: "reality-check-title" }, t("Reality check")),
    h("p", { dataset: { role: "reality-check-time" } }, t("You have been playing for %(time)s.", { time: played(session.played_seconds) })),
    h("p", { dataset: { role: "reality-check-net" } },
      t("Net result of this session: %(chips)s chips.", { chips: `${net > 0 ? "+" : net < 0 ? "−" : ""}${number(Math.abs(net))}` })));
  const answer = async (choice) => {
    try {
      const done = await api.post("/me/session/reality-check/", { answer: choice });
      if (choice === "leave") {
        flash(done.tables_left.length ? t("You leave your tables at the end of the round.") : t("You hold no seat at a ring table."), "info");
      }
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
    dialog.close();
    dialog.remove();
    open = null;
  };
  dialog.append(h("div", { class: "actions" },
    h("button", { type: "button", dataset: { role: "reality-check-continue" }, onclick: () => answer("continue") }, t("Keep playing")),
    h("button", { type: "button", dataset: { role: "reality-check-leave" }, onclick: () => answer("leave") }, t("Leave the tables"))));
  dialog.addEventListener("cancel", (event) => event.preventDefault()); // an answer is needed
  document.body.append(dialog);
  open = dialog;
  dialog.showModal();
}

async function check() {
  clearTimeout(timer);
  if (!api.session()) return;
  try {
    const { session } = await api.get("/me/session/");
    if (session && session.reality_check_due) show(session);
  } catch (_) {
    // a network blip: the next check asks again
  }
  timer = setTimeout(check, 60_000);
}

function watch() {
  check();
}

function stop() {
  clearTimeout(timer);
}

export { page, registrationFields, saveFromForm, watch, stop };
