/* Practice tables (#/practice, #/practice/GAME): the player alone against 1-3 server bots, any preset, no chips and
 * no rating (POST /practice/ {game, bots, level} -> {table, game}, then the ordinary table page #/table/ID).
 * Also what the table page shows at a practice table (`practice: true` in GET /tables/{id}/): its head, with
 * "Practice — no chips" instead of chips and buy-ins and "End the practice" instead of leaving with a stack,
 * and its results in points (table.js calls R.practice.head and R.practice.resultSentences). */
import * as api from "./api.js";
import { h, clear, flash } from "./dom.js";
import { t, tn, number } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as tableWords from "./table-words.js";


// Every preset, with its most players (the engine's Ruleset.max_players): a practice table seats the player
// and up to max - 1 bots, and never more than three (the server's bots are Anna, Bruno and Carla).
const PRESETS = { rummy500: 4, rummy500_household: 8, basic: 6, block: 6, wrotham: 6, romme: 6, board: 4 };
const MOST_BOTS = 3;
const LEVELS = ["easy", "medium", "hard"];

// "hard" is offered while the server has not said it lacks it: the server refuses a level it does not have
// (400 request.invalid naming the field `level`), and the page then says so and stops offering it. Probing
// first would need a practice table made for nothing (and would end the player's current one).
let hardRefused = false;

function maxBots(game) {
  return Math.max(1, Math.min(MOST_BOTS, (PRESETS[game] || 2) - 1));
}

function levelName(level) {
  return { easy: t("Easy"), medium: t("Medium"), hard: t("Hard") }[level] || level;
}

function levelHint(level) {
  return {
    easy: t("They play any legal move, at random."),
    medium: t("They meld what they can, lay off and throw away their worst cards."),
    hard: t("They also remember the discard pile and avoid throwing you the cards you need."),
  }[level] || "";
}

// The practice table this player started last in this browser: the page offers to go back to it.
function currentKey() {
  const s = api.session();
  return `ramino.practice.${s ? s.username : ""}`;
}
function current() {
  const id = Number(localStorage.getItem(currentKey()) || 0);
  return id > 0 ? id : null;
}

/** The API refused the level itself (the server lacks that bot): details.field, or field errors, name it. */
function refusesLevel(err) {
  const d = (err && err.details) || {};
  return err && err.code === "request.invalid" && (d.field === "level" || !!(d.fields && d.fields.level));
}

function radio(name, value, checked, disabled, text, hint, role) {
  const id = `practice-${name}-${value}`;
  return h("div", { class: "choice" },
    h("input", { type: "radio", name, value, id, checked, disabled, dataset: { role }, "aria-describedby": hint ? `${id}-hint` : null }),
    h("label", { for: id }, text),
    hint ? h("p", { class: "hint", id: `${id}-hint` }, hint) : null);
}

async function render(root, go, preset) {
  clear(root);
  const games = Object.keys(PRESETS);
  const chosen = games.includes(preset) ? preset : "rummy500";
  const error = h("p", { class: "error", role: "alert", dataset: { role: "practice-error" }, hidden: true });
  const select = h("select", { name: "game", id: "practice-game", dataset: { role: "practice-game" } },
    games.map((code) => h("option", { value: code, selected: code === chosen }, lobby.gameName(code))));
  const bots = h("fieldset", { class: "choices", dataset: { role: "practice-bots" } },
    h("legend", {}, t("How many bots")),
    [1, 2, 3].map((n) => radio("bots", String(n), n === 1, false, tn("%(n)s bot", "%(n)s bots", n, { n: number(n) }), null, `practice-bots-${n}`)));
  const levels = h("fieldset", { class: "choices", dataset: { role: "practice-level" } },
    h("legend", {}, t("Their strength")),
    LEVELS.map((level) => radio("level", level, level === "easy", level === "hard" && hardRefused,
      level === "hard" && hardRefused ? t("Hard (not on this server yet)") : levelName(level), levelHint(level), `practice-level-${level}`)));
  // At most the preset's players - 1 bots: the others are offered but disabled.
  const cap = () => {
    const most = maxBots(select.value);
    for (const input of bots.querySelectorAll("input")) {
      input.disabled = Number(input.value) > most;
      if (input.disabled && input.checked) bots.querySelector(`input[value="${most}"]`).checked = true;
    }
  };
  select.addEventListener("change", cap);
  cap();
  const start = h("button", { type: "submit", class: "primary big", dataset: { role: "practice-start" } }, t("Start the practice"));
  const form = h("form", { class: "panel practice-form", dataset: { role: "practice-form" }, onsubmit: async (event) => {
      event.preventDefault();
      const body = { game: select.value, bots: Number(form.querySelector("input[name=bots]:checked").value), level: form.querySelector("input[name=level]:checked").value };
      error.hidden = true;
      start.disabled = true;
      try {
        const answer = await api.post("/practice/", body);
        localStorage.setItem(currentKey(), String(answer.table));
        go(`#/table/${answer.table}`);
      } catch (err) {
        start.disabled = false;
        if (body.level === "hard" && refusesLevel(err)) {
          hardRefused = true;
          const hard = levels.querySelector("input[value=hard]");
          hard.disabled = true;
          hard.checked = false;
          levels.querySelector("input[value=medium]").checked = true;
          levels.querySelector("label[for=practice-level-hard]").textContent = t("Hard (not on this server yet)");
          error.textContent = t("This server has no hard bots yet: choose easy or medium. (The server said: %(message)s)", { message: err.describe() });
        } else {
          error.textContent = err.describe ? err.describe() : String(err);
        }
        error.hidden = false;
      }
    } },
    h("label", { for: "practice-game" }, t("Game")), select,
    bots, levels, error, start);
  const section = h("section", { class: "practice", dataset: { role: "practice" } },
    h("h1", {}, t("Practise against bots")),
    h("p", {}, t("A table of your own against the server's bots: the same rules and clocks as at a ring table, no chips at stake, and your rating stays as it is. Leave whenever you like.")),
    h("div", { dataset: { role: "practice-current" } }),
    form,
    h("p", {}, h("a", { href: "#/rounds", dataset: { role: "practice-rounds" } }, t("My rounds: replay the rounds you played"))));
  root.append(section);
  // A practice table still open: the way back to it (starting another one ends it, the server's rule).
  const id = current();
  if (id) {
    try {
      const table = await api.get(`/tables/${id}/`);
      if (table.practice && table.status === "open") {
        section.querySelector("[data-role=practice-current]").append(h("p", { class: "panel current-practice" },
          t("Your practice at %(game)s is still open.", { game: lobby.gameName(table.game) }), " ",
          h("a", { href: `#/table/${id}`, class: "button", dataset: { role: "practice-resume" } }, t("Back to your practice table")), " ",
          h("span", { class: "hint" }, t("Starting a new practice ends it."))));
      }
    } catch (_) {
      localStorage.removeItem(currentKey());
    }
  }
}

// --------------------------------------------------------------------------------------- the table page

/** The head of a practice table's page. `hooks`: {mine (the player's seat or null), midRound, redraw(),
 * refresh()}; `p` is the table page's state (table.js), whose confirmLeave and focusNext this uses. */
function head(p, hooks) {
  const tb = p.table;
  const opts = tb.options || {};
  const bots = Math.max(1, (tb.seats || 2) - 1); // the player's seat and one a bot (the seats stay counted once left)
  const clock = tableWords.clock(opts) || t("the server's usual clock");
  const closed = tb.status !== "open";
  const mine = hooks.mine;
  return h("div", { class: "table-head practice-head", dataset: { role: "table-head", practice: "true" } },
    h("h1", { tabindex: "-1", dataset: { focus: "heading" } }, t("Practice · %(game)s", { game: lobby.gameName(tb.game) })),
    h("p", { class: "facts" },
      h("strong", { class: "practice-label", dataset: { role: "practice-label" } }, t("Practice — no chips")), " · ",
      [tn("against %(n)s bot", "against %(n)s bots", bots, { n: number(bots) }), clock, closed ? t("over") : null].filter(Boolean).join(" · ")),
    closed
      ? h("p", { class: "seat-actions", dataset: { role: "practice-over" } }, t("This practice is over."), " ",
        h("a", { href: "#/practice", class: "button", dataset: { role: "practice-again", focus: "practice-again" } }, t("Practise again")), " ",
        h("a", { href: "#/rounds", class: "button", dataset: { role: "practice-my-rounds", focus: "practice-my-rounds" } }, t("My rounds")))
      : h("div", { class: "seat-actions" },
        mine && mine.status === "leaving" ? h("p", { class: "hint", dataset: { role: "leaving" } }, t("You ended the practice: the server plays your hand to the end of this round, then the table closes.")) : null,
        mine && mine.status !== "leaving" ? h("button", { type: "button", dataset: { role: "leave", focus: "leave" }, onclick: () => { p.confirmLeave = true; p.focusNext = "leave-confirm"; hooks.redraw(); } }, t("End the practice")) : null),
    p.confirmLeave && mine && !closed ? confirm(p, hooks) : null);
}

function confirm(p, hooks) {
  const text = hooks.midRound
    ? t("This round is still being played: the server plays your hand at once, every turn until the round ends, and then the table closes. Nothing is lost: it is practice.")
    : t("The table closes now. Your rounds stay in My rounds, to replay.");
  return h("section", { class: "confirm panel", role: "group", "aria-labelledby": "leave-title", dataset: { role: "leave-confirmation", midRound: String(hooks.midRound) } },
    h("h2", { id: "leave-title" }, t("End the practice?")),
    h("p", { dataset: { role: "leave-explanation" } }, text),
    h("div", { class: "seat-actions" },
      h("button", { type: "button", class: "danger", dataset: { role: "leave-confirm", focus: "leave-confirm" }, onclick: () => end(p, hooks) }, t("End the practice")),
      h("button", { type: "button", dataset: { role: "leave-cancel", focus: "leave-cancel" }, onclick: () => { p.confirmLeave = false; p.focusNext = "leave"; hooks.redraw(); } }, t("Keep playing"))));
}

async function end(p, hooks) {
  p.confirmLeave = false;
  try {
    await api.post(`/tables/${p.table.id}/leave/`, undefined, { headers: { "Idempotency-Key": api.newKey() } });
    flash(hooks.midRound ? t("You ended the practice: the server plays your hand to the end of this round, then the table closes.") : t("The practice is over."), "info");
  } catch (err) {
    flash(err.describe ? err.describe() : String(err), "error");
  }
  p.focusNext = "heading";
  await hooks.refresh();
}

/** A practice round's results for the player: points only. */
function resultSentences(r, me) {
  const scores = r.scores || {};
  const out = [];
  if (me in scores) out.push(t("You scored %(points)s this round.", { points: tableWords.points(scores[me]) }));
  out.push(t("Practice: no chips change hands."));
  return out;
}

export { render, head, resultSentences, maxBots, levelName, PRESETS };
