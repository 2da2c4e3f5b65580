// The admin's table and tournament forms: show only the options the chosen game takes (each option's input
// names its games in data-games); without this script every option shows and the server refuses the others.
"use strict";
(function () {
  function update(select) {
    const game = select.value;
    document.querySelectorAll("[data-option]").forEach(function (input) {
      const row = input.closest(".form-row") || input.parentElement;
      const games = (input.getAttribute("data-games") || "").split(" ");
      row.hidden = game !== "" && games.indexOf(game) === -1;
    });
  }
  function start() {
    const select = document.getElementById("id_game");
    if (!select || select.tagName !== "SELECT") {
      return;
    }
    select.addEventListener("change", function () { update(select); });
    update(select);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
