// ESLint for the project's JavaScript: the player client (play/static/play/js, native ES modules in the browser,
// no build step) and its Node tests (tests/client), the service worker (a template: play/templates/play/sw.js)
// and the classic scripts of the admin and the audit pages. `make lint-js` runs it and `make test` runs that;
// `make node-install` installs it (npm ci: package-lock.json's pinned versions, into node_modules/).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["node_modules/**", ".venv/**", "var/**", "build/**", "**/vendor/**", "**/*.min.js"],
  },
  {
    files: ["play/templates/play/sw.js"],
  },
  js.configs.recommended,
  {
    rules: {
      // `catch (_)`: the error is not needed; `_name`: an argument kept for its position
      "no-unused-vars": ["error", { caughtErrorsIgnorePattern: "^_", argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["play/static/**/*.js", "play/static/**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      // Django's JavaScript catalog (gettext, ngettext, interpolate) is read through globalThis by lib/words.mjs
      // alone, so no module names those globals
      globals: { ...globals.browser },
    },
  },
  {
    files: ["admin_confirm/static/**/*.js", "audit/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["play/templates/play/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/client/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
