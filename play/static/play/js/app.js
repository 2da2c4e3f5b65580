/* The router: #/login, #/lobby, #/learn/PRESET (to its page), #/table/ID, #/tournament/ID, #/wallet, #/players/NAME,
 * #/limits, #/leaderboard/GAME, #/practice (and #/practice/GAME), #/rounds, #/notifications (the notification settings), #/replay/GAME/ROUND, #/join/CODE (a private
 * table's shared link), #/demo (a new demo table, for anyone) and #/demo/ID (its table with the guide). Without a token, every page but #/demo is
 * the sign-in page. */
import * as api from "./api.js";
import * as auth from "./auth.js";
import * as centre from "./centre.js";
import * as chat from "./chat.js";
import * as demo from "./demo.js";
import { flash } from "./dom.js";
import * as limits from "./limits.js";
import * as lobby from "./lobby.js";
import * as notify from "./notify.js";
import * as players from "./players.js";
import * as practice from "./practice.js";
import * as replay from "./replay.js";
import * as rounds from "./rounds.js";
import * as sha256 from "./sha256.js";
import * as socket from "./socket.js";
import * as table from "./table.js";
import * as tournament from "./tournament.js";
import * as wallet from "./wallet.js";


function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function nav() {
  const s = api.session();
  const bar = document.getElementById("nav");
  bar.hidden = !s;
  bar.querySelector("[data-role=whoami]").textContent = s ? s.username : "";
}

async function route() {
  const root = document.getElementById("app");
  nav();
  table.stop();
  chat.stop();
  tournament.stop();
  lobby.stop();
  demo.stop();
  replay.stop();
  notify.yourTurn(false); // the table page sets it again while it is the player's turn
  if (api.session()) {
    notify.start();
    centre.start();
    // The reality check: asked on every page change while signed in, and every minute (limits.js).
    limits.watch();
  } else {
    notify.stop();
    centre.stop();
    limits.stop();
  }
  const hash = location.hash || "#/lobby";
  if (hash === "#/demo") {
    // Anyone: a visitor without a session becomes a guest (demo.js).
    document.body.dataset.page = "demo";
    await demo.start(root, go);
    return;
  }
  // How to play (#/learn/PRESET, the contract's route): the server-rendered page, signed in or not.
  const learn = hash.match(/^#\/learn\/(\w+)$/);
  if (learn) {
    location.replace(`/play/learn/${learn[1]}/`);
    return;
  }
  if (!api.session()) {
    document.body.dataset.page = "login";
    auth.render(root, go);
    return;
  }
  const tableRoute = hash.match(/^#\/table\/(\d+)$/);
  const tournamentRoute = hash.match(/^#\/tournament\/(\d+)$/);
  const player = hash.match(/^#\/players\/([^/]+)$/);
  const leaderboard = hash.match(/^#\/leaderboard(?:\/(\w+))?$/);
  const practiceRoute = hash.match(/^#\/practice(?:\/(\w+))?$/);
  const replayRoute = hash.match(/^#\/replay\/(\d+)\/(\d+)$/);
  const demoRoute = hash.match(/^#\/demo\/(\d+)$/);
  const join = hash.match(/^#\/join\/([^/]+)$/);
  try {
    if (tournamentRoute) {
      document.body.dataset.page = "tournament";
      await tournament.load(root, Number(tournamentRoute[1]));
    } else if (demoRoute) {
      document.body.dataset.page = "table";
      demo.attach(Number(demoRoute[1]));
      await table.load(root, Number(demoRoute[1]));
    } else if (tableRoute) {
      document.body.dataset.page = "table";
      await table.load(root, Number(tableRoute[1]));
    } else if (player) {
      document.body.dataset.page = "profile";
      await players.profile(root, decodeURIComponent(player[1]));
    } else if (leaderboard) {
      document.body.dataset.page = "leaderboard";
      await players.leaderboard(root, leaderboard[1] || "rummy500");
    } else if (practiceRoute) {
      document.body.dataset.page = "practice";
      await practice.render(root, go, practiceRoute[1]);
    } else if (hash === "#/rounds") {
      document.body.dataset.page = "rounds";
      await rounds.render(root);
    } else if (replayRoute) {
      document.body.dataset.page = "replay";
      await replay.load(root, Number(replayRoute[1]), Number(replayRoute[2]));
    } else if (join) {
      document.body.dataset.page = "join";
      lobby.joinPage(root, go, decodeURIComponent(join[1]));
    } else if (hash === "#/notifications") {
      document.body.dataset.page = "notifications";
      await centre.render(root);
    } else if (hash === "#/limits") {
      document.body.dataset.page = "limits";
      await limits.page(root);
    } else if (hash === "#/wallet") {
      document.body.dataset.page = "wallet";
      await wallet.render(root);
    } else {
      document.body.dataset.page = "lobby";
      await lobby.render(root, go);
    }
  } catch (err) {
    flash(err.describe ? err.describe() : String(err), "error");
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelector("[data-role=sign-out]").addEventListener("click", async () => {
    await api.signOut();
    go("#/login");
  });
  window.addEventListener("hashchange", route);
  // Signed out by the server (401) or in this tab: back to the sign-in page.
  window.addEventListener("ramino:session", () => {
    if (!api.session()) route();
    else nav();
  });
  route();
});

// The browser tests (tests/browser) and a curious console reach a few live parts of the client here: the
// socket's state and heartbeat, the sounds played, the demo guide's hint delay, the SHA-256 fallback. No module
// reads it: the modules import one another.
window.Ramino = Object.freeze({ socket, notify, demo: demo.tuning, sha256 });

export { go, route };
