/* My rounds (#/rounds): the player's finished rounds, newest first (GET /me/rounds/, page by page with "Load
 * more"), each with its game, when it ended, who played, the player's score, a practice marker, and a link to
 * replay it step by step (#/replay/GAME/ROUND, replay.js). */
import * as api from "./api.js";
import { h, clear } from "./dom.js";
import * as dom from "./dom.js";
import { t, number, dateTime } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as tableWords from "./table-words.js";


function row(r) {
  const game = lobby.gameName(r.preset);
  const when = dateTime(r.ended_at);
  return h("li", { class: "round-item", dataset: { role: "round-row", game: r.game, round: r.round, practice: String(!!r.practice) } },
    h("div", { class: "round-item-head" },
      h("strong", {}, game), " ",
      h("span", {}, t("round %(round)s", { round: number(r.round) })),
      r.practice ? h("span", { class: "tag practice-tag", dataset: { role: "practice-tag" } }, t("practice")) : null),
    h("p", { class: "hint" }, when),
    h("p", { dataset: { role: "round-players" } }, t("Players: %(players)s", { players: (r.players || []).join(", ") })),
    h("p", { dataset: { role: "round-score" } }, t("Your score: %(points)s", { points: tableWords.points(r.score ?? 0) })),
    h("a", { href: `#/replay/${r.game}/${r.round}`, class: "button", dataset: { role: "replay-link" } },
      t("Replay"), h("span", { class: "visually-hidden" }, " ", t("%(game)s, round %(round)s, %(when)s", { game, round: number(r.round), when }))));
}

async function render(root) {
  clear(root);
  const list = h("ul", { class: "round-list", dataset: { role: "round-list" } });
  const more = h("button", { type: "button", hidden: true, dataset: { role: "rounds-more" } }, t("Load more"));
  const section = h("section", { class: "panel my-rounds", dataset: { role: "my-rounds" } },
    h("h1", {}, t("My rounds")),
    h("p", { class: "hint" }, t("The rounds you played to the end, newest first. Replay one to see it again step by step: the deal, every move, the result.")),
    list, more);
  root.append(section);
  let next = null;
  async function load(url) {
    more.disabled = true;
    const page = await api.get(url);
    const first = list.children.length;
    for (const r of page.results) list.append(row(r));
    next = page.next;
    more.hidden = !next;
    more.disabled = false;
    // "Load more" leaves the focus on the first new row's link, where the reading goes on.
    if (first && list.children[first]) list.children[first].querySelector("a").focus();
  }
  more.addEventListener("click", () => next && load(next).catch((err) => dom.flash(err.describe ? err.describe() : String(err), "error")));
  await load("/me/rounds/?page_size=20");
  if (!list.children.length) {
    list.replaceWith(h("p", { class: "empty", dataset: { role: "rounds-empty" } },
      t("You have not finished a round yet."), " ", h("a", { href: "#/practice" }, t("Practise against bots"))));
  }
}

export { render };
