/* Sign in and register. */
import * as api from "./api.js";
import { h, clear, formValues } from "./dom.js";
import * as dom from "./dom.js";
import { t } from "./i18n.js";
import * as i18n from "./i18n.js";
import * as limits from "./limits.js";


function render(root, go) {
  clear(root);
  const error = h("p", { class: "error", dataset: { role: "auth-error" }, hidden: true });
  async function submit(event, action) {
    event.preventDefault();
    const values = formValues(event.target);
    const { username, password, birth_day, birth_month, birth_year } = values;
    error.hidden = true;
    try {
      if (action === "register") {
        const pad = (n, width) => String(n).padStart(width, "0");
        const born = `${pad(birth_year, 4)}-${pad(birth_month, 2)}-${pad(birth_day, 2)}`;
        const answer = await api.register(username, password, born);
        // The limits chosen at registration (optional): set once signed in.
        try {
          await limits.saveFromForm(values);
        } catch (err) {
          dom.flash(err.describe ? err.describe() : String(err), "error");
        }
        // The house's welcome chips, if the site gives any (the wallet page says how to get more).
        if (answer.welcome_chips > 0) {
          dom.flash(i18n.t("Welcome! You got %(chips)s chips to start playing.", { chips: i18n.number(answer.welcome_chips) }), "info");
        }
      } else {
        await api.signIn(username, password);
      }
      // where the player was headed (a link to #/practice from the landing page), else the lobby
      go(location.hash && location.hash !== "#/login" ? location.hash : "#/lobby");
    } catch (err) {
      error.textContent = err.describe ? err.describe() : String(err);
      error.hidden = false;
    }
  }
  const fields = (prefix) => [
    h("label", {}, t("Username"), h("input", { name: "username", autocomplete: "username", required: true, dataset: { role: `${prefix}-username` } })),
    h("label", {}, t("Password"), h("input", { name: "password", type: "password", autocomplete: prefix === "register" ? "new-password" : "current-password", required: true, dataset: { role: `${prefix}-password` } })),
  ];
  // The date of birth (docs/rules.md "Responsible play": under 18 refused, in words, by the server): day, month in words and year, the
  // same on every phone and in every language (a date picker's order and format change with the browser).
  const months = new Intl.DateTimeFormat(i18n.lang(), { month: "long" });
  const birth = h("fieldset", { class: "birth", dataset: { role: "register-birth" } },
    h("legend", {}, t("Date of birth")),
    h("div", { class: "birth-fields" },
      h("label", {}, t("Day"), h("input", { name: "birth_day", type: "number", inputmode: "numeric", min: 1, max: 31, required: true, autocomplete: "bday-day", dataset: { role: "register-birth-day" } })),
      h("label", {}, t("Month"), h("select", { name: "birth_month", required: true, autocomplete: "bday-month", dataset: { role: "register-birth-month" } },
        h("option", { value: "" }, "—"),
        Array.from({ length: 12 }, (_, i) => h("option", { value: i + 1 }, months.format(new Date(2000, i, 1)))))),
      h("label", {}, t("Year"), h("input", { name: "birth_year", type: "number", inputmode: "numeric", min: 1900, max: new Date().getFullYear(), required: true, autocomplete: "bday-year", dataset: { role: "register-birth-year" } }))),
    h("p", { class: "hint" }, t("You must be 18 or older to play.")));
  root.append(
    h("section", { class: "auth", dataset: { role: "auth" } },
      h("h1", {}, t("Play Rummy")),
      error,
      h("div", { class: "auth-forms" },
        h("form", { class: "panel", dataset: { role: "sign-in-form" }, onsubmit: (e) => submit(e, "sign-in") },
          h("h2", {}, t("Sign in")), fields("sign-in"), h("button", { type: "submit", dataset: { role: "sign-in" } }, t("Sign in"))),
        h("form", { class: "panel", dataset: { role: "register-form" }, onsubmit: (e) => submit(e, "register") },
          h("h2", {}, t("New here? Register")), fields("register"), birth,
          h("p", { class: "hint" }, t("3–32 letters, digits, _ . -; a password of at least 8 characters.")),
          limits.registrationFields(),
          h("button", { type: "submit", dataset: { role: "register" } }, t("Register"))))));
}

export { render };
