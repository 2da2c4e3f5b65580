/* The skip link of every page ("Skip to the main content", play/base.html): moves the keyboard focus to the page's
 * main landmark. The link's own #main works without this script; the player client's routes are hash routes, so
 * here the focus moves without touching location.hash. */
(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("a.skip-link") : null;
    const main = link ? document.querySelector("main") : null;
    if (!main) return;
    event.preventDefault();
    if (!main.hasAttribute("tabindex")) main.setAttribute("tabindex", "-1");
    main.focus();
  });
})();
