/* Sign in and register. */
(function (R) {
  "use strict";

  const { h, clear, formValues } = R.dom;
  const { t } = R.i18n;

  function render(root, go) {
    clear(root);
    const error = h("p", { class: "error", dataset: { role: "auth-error" }, hidden: true });
    async function submit(event, action) {
      event.preventDefault();
      const { username, password } = formValues(event.target);
      error.hidden = true;
      try {
        if (action === "register") {
          const answer = await R.api.register(username, password);
          // The house's welcome chips, if the site gives any (the wallet page says how to get more).
          if (answer.welcome_chips > 0) {
            R.dom.flash(R.i18n.t("Welcome! You got %(chips)s chips to start playing.", { chips: R.i18n.number(answer.welcome_chips) }), "info");
          }
        } else {
          await R.api.signIn(username, password);
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
    root.append(
      h("section", { class: "auth", dataset: { role: "auth" } },
        h("h1", {}, t("Play Rummy")),
        error,
        h("div", { class: "auth-forms" },
          h("form", { class: "panel", dataset: { role: "sign-in-form" }, onsubmit: (e) => submit(e, "sign-in") },
            h("h2", {}, t("Sign in")), fields("sign-in"), h("button", { type: "submit", dataset: { role: "sign-in" } }, t("Sign in"))),
          h("form", { class: "panel", dataset: { role: "register-form" }, onsubmit: (e) => submit(e, "register") },
            h("h2", {}, t("New here? Register")), fields("register"),
            h("p", { class: "hint" }, t("3–32 letters, digits, _ . -; a password of at least 8 characters.")),
            h("button", { type: "submit", dataset: { role: "register" } }, t("Register"))))));
  }

  R.auth = { render };
})((window.Ramino = window.Ramino || {}));
