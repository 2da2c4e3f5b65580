// The audit index: while a reconciliation run waits or runs, fetch the reconciliation section again every
// two seconds and put it in place, until no run is pending. A static file (strict CSP: no inline script);
// the section comes from our own server (GET /audit/reconciliation/) and is parsed, never eval'd.
"use strict";
(function () {
  const PERIOD_MS = 2000;
  const GIVE_UP_AFTER = 300; // ten minutes of polling at most; a reload starts again

  function pending() {
    return document.querySelector("[data-role=reconciliation][data-pending]");
  }

  function poll(attempt) {
    const section = pending();
    if (!section || attempt > GIVE_UP_AFTER) {
      return;
    }
    const url = section.getAttribute("data-refresh");
    window.setTimeout(function () {
      fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then(function (response) {
          if (!response.ok) {
            throw new Error("HTTP " + response.status);
          }
          return response.text();
        })
        .then(function (html) {
          const parsed = new DOMParser().parseFromString(html, "text/html");
          const fresh = parsed.querySelector("[data-role=reconciliation]");
          const current = pending();
          if (fresh && current) {
            const hadFocus = current.contains(document.activeElement);
            const replacement = document.importNode(fresh, true);
            current.replaceWith(replacement);
            const button = replacement.querySelector("[data-role=run-reconciliation]");
            if (hadFocus && button) {
              button.focus(); // keep a keyboard user where they were
            }
          }
          poll(attempt + 1);
        })
        .catch(function () {
          poll(attempt + 1);
        });
    }, PERIOD_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { poll(0); });
  } else {
    poll(0);
  }
})();
