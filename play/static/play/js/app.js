/* The router: #/login, #/lobby, #/learn/PRESET (to its page), #/table/ID, #/tournament/ID, #/wallet, #/players/NAME,
 * #/leaderboard/GAME, #/practice (and #/practice/GAME), #/rounds, #/replay/GAME/ROUND, #/join/CODE (a private
 * table's shared link), #/demo (a new demo table, for anyone) and #/demo/ID (its table with the guide). Without a token, every page but #/demo is
 * the sign-in page. */
(function (R) {
  "use strict";

  const { flash } = R.dom;

  function go(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  }

  function nav() {
    const s = R.api.session();
    const bar = document.getElementById("nav");
    bar.hidden = !s;
    bar.querySelector("[data-role=whoami]").textContent = s ? s.username : "";
  }

  async function route() {
    const root = document.getElementById("app");
    nav();
    R.table.stop();
    R.tournament.stop();
    R.lobby.stop();
    R.demo.stop();
    R.replay.stop();
    R.notify.yourTurn(false); // the table page sets it again while it is the player's turn
    if (R.api.session()) R.notify.start();
    else R.notify.stop();
    const hash = location.hash || "#/lobby";
    if (hash === "#/demo") {
      // Anyone: a visitor without a session becomes a guest (demo.js).
      document.body.dataset.page = "demo";
      await R.demo.start(root, go);
      return;
    }
    // How to play (#/learn/PRESET, the contract's route): the server-rendered page, signed in or not.
    const learn = hash.match(/^#\/learn\/(\w+)$/);
    if (learn) {
      location.replace(`/play/learn/${learn[1]}/`);
      return;
    }
    if (!R.api.session()) {
      document.body.dataset.page = "login";
      R.auth.render(root, go);
      return;
    }
    const table = hash.match(/^#\/table\/(\d+)$/);
    const tournament = hash.match(/^#\/tournament\/(\d+)$/);
    const player = hash.match(/^#\/players\/([^/]+)$/);
    const leaderboard = hash.match(/^#\/leaderboard(?:\/(\w+))?$/);
    const practice = hash.match(/^#\/practice(?:\/(\w+))?$/);
    const replay = hash.match(/^#\/replay\/(\d+)\/(\d+)$/);
    const demo = hash.match(/^#\/demo\/(\d+)$/);
    const join = hash.match(/^#\/join\/([^/]+)$/);
    try {
      if (tournament) {
        document.body.dataset.page = "tournament";
        await R.tournament.load(root, Number(tournament[1]));
      } else if (demo) {
        document.body.dataset.page = "table";
        R.demo.attach(Number(demo[1]));
        await R.table.load(root, Number(demo[1]));
      } else if (table) {
        document.body.dataset.page = "table";
        await R.table.load(root, Number(table[1]));
      } else if (player) {
        document.body.dataset.page = "profile";
        await R.players.profile(root, decodeURIComponent(player[1]));
      } else if (leaderboard) {
        document.body.dataset.page = "leaderboard";
        await R.players.leaderboard(root, leaderboard[1] || "rummy500");
      } else if (practice) {
        document.body.dataset.page = "practice";
        await R.practice.render(root, go, practice[1]);
      } else if (hash === "#/rounds") {
        document.body.dataset.page = "rounds";
        await R.rounds.render(root);
      } else if (replay) {
        document.body.dataset.page = "replay";
        await R.replay.load(root, Number(replay[1]), Number(replay[2]));
      } else if (join) {
        document.body.dataset.page = "join";
        R.lobby.joinPage(root, go, decodeURIComponent(join[1]));
      } else if (hash === "#/wallet") {
        document.body.dataset.page = "wallet";
        await R.wallet.render(root);
      } else {
        document.body.dataset.page = "lobby";
        await R.lobby.render(root, go);
      }
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelector("[data-role=sign-out]").addEventListener("click", async () => {
      await R.api.signOut();
      go("#/login");
    });
    window.addEventListener("hashchange", route);
    // Signed out by the server (401) or in this tab: back to the sign-in page.
    window.addEventListener("ramino:session", () => {
      if (!R.api.session()) route();
      else nav();
    });
    route();
  });

  R.app = { go, route };
})((window.Ramino = window.Ramino || {}));
