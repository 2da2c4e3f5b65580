/* Telling the player, whatever page they are on: "your turn" in the tab's title (and an optional short tone), and
 * an alert when one of their tournaments starts, with a button to their table.
 *
 * R.notify.yourTurn(on)   the table calls it: "(Your turn) …" / "(Tocca a te) …" before the title, a tone when it
 *                         becomes the player's turn (if the sound is on)
 * R.notify.start()        follows the player's tournaments (GET /tournaments/?registered=true with If-None-Match,
 *                         every few seconds: 304 while nothing changed) and alerts when one starts
 * The sound is off until the player turns it on (the nav's toggle); the choice is kept in localStorage. The tone
 * is made with WebAudio: no audio file. */
(function (R) {
  "use strict";

  const { h } = R.dom;
  const { t } = R.i18n;
  const SOUND_KEY = "ramino.sound";
  const POLL_MS = 3000;
  const MINE = "/tournaments/?registered=true&status=registering,running,paused&page_size=50";

  /* ---- the title and the tone ---- */

  let turn = false;
  let audio = null;

  function soundOn() {
    return localStorage.getItem(SOUND_KEY) === "on";
  }

  function context() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) audio = new Ctx();
    return audio;
  }

  /* Two short notes (A5 then E6), about a quarter of a second in all. */
  function chime() {
    if (!soundOn()) return;
    try {
      play();
    } catch (_) {
      // no sound device, or the browser refused: the title and the alert still say it
    }
  }

  function play() {
    const ctx = context();
    if (!ctx) return;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    [[880, 0], [1318.5, 0.12]].forEach(([freq, at]) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = ctx.currentTime + at;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.12);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.13);
    });
  }

  function baseTitle() {
    const prefix = `${t("(Your turn)")} `;
    return document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
  }

  function yourTurn(on) {
    const now = Boolean(on);
    const base = baseTitle();
    document.title = now ? `${t("(Your turn)")} ${base}` : base;
    document.documentElement.dataset.yourTurn = now ? "true" : "false";
    if (now && !turn) chime();
    turn = now;
  }

  function soundToggle() {
    const nav = document.getElementById("nav");
    if (!nav || nav.querySelector("[data-role=sound-toggle]")) return;
    const button = h("button", { type: "button", class: "sound-toggle", dataset: { role: "sound-toggle" } });
    const show = () => {
      button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
      button.textContent = soundOn() ? t("Sound: on") : t("Sound: off");
    };
    button.addEventListener("click", () => {
      localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      show();
      if (soundOn()) {
        context(); // created by the click: browsers let a page play sound after a gesture
        chime();
      }
    });
    show();
    const signOut = nav.querySelector("[data-role=sign-out]");
    nav.insertBefore(button, signOut);
  }

  /* ---- the start alert ---- */

  let watching = null; // {stop: bool} of the running poll

  function ackKey() {
    const s = R.api.session();
    return `ramino.started.${s ? s.username : ""}`;
  }
  function acknowledged() {
    try {
      return JSON.parse(sessionStorage.getItem(ackKey()) || "[]");
    } catch (_) {
      return [];
    }
  }
  function acknowledge(id) {
    sessionStorage.setItem(ackKey(), JSON.stringify([id, ...acknowledged().filter((x) => x !== id)].slice(0, 50)));
  }

  function dismiss(box) {
    if (box && box.parentNode) box.parentNode.removeChild(box);
  }

  function alertStart(tour) {
    const old = document.querySelector(`[data-role=start-alert][data-tournament='${tour.id}']`);
    if (old) return;
    const box = h("div", { class: "start-alert", role: "alert", dataset: { role: "start-alert", tournament: tour.id, table: tour.my_table } },
      h("p", { class: "start-alert-text" },
        h("strong", {}, t("Your tournament has started.")), " ",
        t("%(name)s: your table is ready and your turn clock runs.", { name: tour.name })),
      h("div", { class: "start-alert-actions" },
        h("button", { type: "button", class: "primary", dataset: { role: "go-to-table" }, onclick: () => {
            acknowledge(tour.id);
            dismiss(box);
            if (R.lobby && R.lobby.remember) R.lobby.remember(tour.my_table);
            R.app.go(`#/table/${tour.my_table}`);
          } }, t("Go to your table")),
        h("button", { type: "button", dataset: { role: "dismiss-alert" }, onclick: () => {
            acknowledge(tour.id);
            dismiss(box);
          } }, t("Later"))));
    const main = document.getElementById("app");
    main.parentNode.insertBefore(box, main);
    chime();
    box.querySelector("[data-role=go-to-table]").focus();
  }

  function onTablePage(tableId) {
    return location.hash === `#/table/${tableId}`;
  }

  function consider(rows) {
    const acked = acknowledged();
    // An alert whose tournament is over (or no longer the player's) goes.
    const live = new Set(rows.filter((x) => x.status === "running" || x.status === "paused").map((x) => String(x.id)));
    document.querySelectorAll("[data-role=start-alert]").forEach((box) => {
      if (!live.has(box.dataset.tournament)) dismiss(box);
    });
    for (const tour of rows) {
      const playing = (tour.status === "running" || tour.status === "paused") && tour.my_table;
      if (playing && !acked.includes(tour.id)) {
        if (onTablePage(tour.my_table)) acknowledge(tour.id);
        else alertStart(tour);
      }
    }
  }

  async function poll(state) {
    let etag = null;
    while (!state.stop) {
      if (R.api.session()) {
        try {
          const answer = await R.api.call("GET", MINE, { headers: etag ? { "If-None-Match": etag } : {} });
          etag = answer.headers.get("ETag");
          if (!state.stop) consider(answer.data.results);
        } catch (err) {
          if (err && err.status !== 304) etag = null;
        }
      }
      await R.dom.sleep(POLL_MS);
    }
  }

  /* Follow the signed-in player's tournaments (once per tab; `stop` on sign-out). */
  function start() {
    soundToggle();
    if (watching || !R.api.session()) return;
    watching = { stop: false };
    poll(watching);
  }

  function stop() {
    if (watching) watching.stop = true;
    watching = null;
    document.querySelectorAll("[data-role=start-alert]").forEach(dismiss);
  }

  R.notify = { yourTurn, chime, soundOn, start, stop };
})((window.Ramino = window.Ramino || {}));
