/* Taking a break (docs/web.md "The player client"): on the wallet page, the player's break while it lasts, or the
   choice of a cool-off or a self-exclusion, confirmed in words before it is sent (POST /me/breaks/); and the
   account's verification when the site asks for one (GET /me/verification/).
   R.breaks.render(container) fills `container`. */
import * as api from "./api.js";
import { h, clear, flash } from "./dom.js";
import * as dom from "./dom.js";
import { t, dateTime } from "./i18n.js";


/* Every length offered (docs/rules.md "Responsible play"): [kind, days or null for indefinite, words]. */
function choices() {
  return [
    ["cool_off", 1, t("24 hours")],
    ["cool_off", 2, t("48 hours")],
    ["cool_off", 7, t("7 days")],
    ["cool_off", 30, t("30 days")],
    ["cool_off", 42, t("6 weeks")],
    ["self_exclusion", 30, t("30 days")],
    ["self_exclusion", 60, t("60 days")],
    ["self_exclusion", 90, t("90 days")],
    ["self_exclusion", null, t("indefinitely (revocable after 6 months)")],
  ];
}

function stateText(state) {
  if (state.indefinite) return t("You have excluded yourself from play indefinitely.");
  const until = dateTime(state.until);
  return state.kind === "self_exclusion"
    ? t("You have excluded yourself from play until %(until)s.", { until })
    : t("You are taking a break from play until %(until)s.", { until });
}

function during(state, reload) {
  const parts = [
    h("p", { class: "break-state", dataset: { role: "break-state", kind: state.kind || "" } }, stateText(state)),
    h("p", { class: "hint" }, t("Until then you cannot sit at a table, enter a tournament or get chips. Your history and your wallet stay here, and you can leave any table with your chips.")),
  ];
  if (state.revocation_applies_at) {
    parts.push(h("p", { dataset: { role: "break-revocation" } }, t("You asked to end your exclusion: it ends on %(when)s.", { when: dateTime(state.revocation_applies_at) })));
  } else if (state.indefinite && state.revocable_at) {
    const revocable = new Date(state.revocable_at) <= new Date();
    if (revocable) {
      const button = h("button", { type: "button", dataset: { role: "break-revoke" } }, t("End my exclusion in 7 days"));
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          await api.post("/me/breaks/revoke/");
        } catch (err) {
          flash(err.describe ? err.describe() : String(err), "error");
        }
        await reload();
      });
      parts.push(button);
    } else {
      parts.push(h("p", { class: "hint" }, t("You can ask to end it from %(when)s; it then ends 7 days later.", { when: dateTime(state.revocable_at) })));
    }
  }
  return parts;
}

function consequences(kind, days) {
  const until = days ? dateTime(new Date(Date.now() + days * 86400000).toISOString()) : null;
  const first = days
    ? t("Until %(until)s you will not be able to sit at a table, enter a tournament, top up or get chips.", { until })
    : t("You will not be able to sit at a table, enter a tournament, top up or get chips, until you ask to end it: you can ask after 6 months, and it ends 7 days later.");
  return [
    first,
    t("It cannot be shortened."),
    t("Your seats at tables are left at the end of the round, with your chips back in your wallet; your entries in tournaments that have not started are refunded; tournaments already running are played on for you."),
    kind === "self_exclusion" ? t("We will send you no offers while it lasts.") : t("You can still see your history and your wallet."),
  ];
}

function chooser(reload) {
  const form = h("form", { class: "break-form", dataset: { role: "break-form" } });
  const group = (kind, legend) =>
    h("fieldset", {},
      h("legend", {}, legend),
      choices().filter(([k]) => k === kind).map(([k, days, words]) => {
        const id = `break-${k}-${days || "indefinite"}`;
        return h("div", { class: "break-choice" },
          h("input", { type: "radio", name: "break", id, value: `${k}:${days || ""}`, dataset: { role: "break-choice", kind: k, days: days || "indefinite" } }),
          h("label", { for: id }, words));
      }));
  const confirmBox = h("div", { class: "break-confirm", dataset: { role: "break-confirm" }, hidden: true, role: "alertdialog", "aria-labelledby": "break-confirm-title" });
  const error = h("p", { class: "error", dataset: { role: "break-error" }, hidden: true });
  const next = h("button", { type: "submit", dataset: { role: "break-next" } }, t("Continue"));
  dom.append(form, [
    group("cool_off", t("A cool-off")),
    group("self_exclusion", t("Self-exclusion")),
    error,
    next,
    confirmBox]);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const picked = form.querySelector("input[name=break]:checked");
    error.hidden = true;
    if (!picked) {
      error.textContent = t("Choose how long.");
      error.hidden = false;
      return;
    }
    const [kind, raw] = picked.value.split(":");
    const days = raw ? Number(raw) : null;
    clear(confirmBox);
    const send = h("button", { type: "button", class: "danger", dataset: { role: "break-confirm-yes" } },
      kind === "self_exclusion" ? t("Yes, exclude me") : t("Yes, take the break"));
    const cancel = h("button", { type: "button", dataset: { role: "break-confirm-no" } }, t("Cancel"));
    dom.append(confirmBox, [
      h("h3", { id: "break-confirm-title" }, t("Are you sure?")),
      h("ul", {}, consequences(kind, days).map((line) => h("li", {}, line))),
      h("div", { class: "break-actions" }, send, cancel)]);
    confirmBox.hidden = false;
    next.hidden = true;
    send.focus();
    cancel.addEventListener("click", () => {
      confirmBox.hidden = true;
      next.hidden = false;
      next.focus();
    });
    send.addEventListener("click", async () => {
      send.disabled = true;
      try {
        await api.post("/me/breaks/", days ? { kind, days } : { kind, indefinite: true });
        flash(kind === "self_exclusion" ? t("You have excluded yourself from play.") : t("Your break has started."), "info");
        // Seats left and entries refunded: the wallet's balance and history change.
        window.dispatchEvent(new CustomEvent("ramino:wallet", { detail: {} }));
      } catch (err) {
        error.textContent = err.describe ? err.describe() : String(err);
        error.hidden = false;
      }
      await reload();
    });
  });
  return [
    h("p", {}, t("If you want to stop playing for a while, take a break: a cool-off from 24 hours to 6 weeks, or a self-exclusion of 30, 60 or 90 days or without an end.")),
    form,
  ];
}

function verification(state) {
  if (state.verified || !state.verify_by) return null;
  return h("p", { class: state.practice_only ? "error" : "hint", dataset: { role: "verification-state" } },
    state.practice_only
      ? t("Your account is not verified yet: until staff have checked your identity document you can play only practice tables.")
      : t("Staff must verify your account (an identity document) by %(when)s; after that, until it is verified, you can play only practice tables.", { when: dateTime(state.verify_by) }));
}

async function render(container) {
  const reload = () => render(container);
  const [state, verified] = await Promise.all([api.get("/me/breaks/"), api.get("/me/verification/")]);
  clear(container);
  container.dataset.role = "breaks";
  container.dataset.onBreak = state.on_break ? "true" : "false";
  container.classList.add("breaks");
  dom.append(container, [
    h("h2", {}, t("Take a break")),
    verification(verified),
    state.on_break ? during(state, reload) : chooser(reload)]);
}

export { render };
