/* Players: a profile (#/players/NAME: ratings per game, the rating over time as a chart, recent games and
   tournaments) and the leaderboards (#/leaderboard/GAME). Plain reads of the public API. */
import * as api from "./api.js";
import { h, clear } from "./dom.js";
import { t, tn, number, dateTime } from "./i18n.js";
import * as lobby from "./lobby.js";

// A family's rating is named by its first preset's name (rummy500, basic, board).
const gameName = (game) => lobby.gameName(game);
const SVG = "http://www.w3.org/2000/svg";
const FAMILIES = ["rummy500", "basic", "board"];

function placeText(place) {
  return t("Place %(place)s", { place: number(place) });
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  for (const child of children) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

/* The rating after each result: a line with labelled axes (games played, rating), drawn as SVG in the page. */
function chart(points, label) {
  const width = 360, height = 200, left = 48, right = 12, top = 12, bottom = 36;
  const ratings = points.map((p) => p.rating);
  let low = Math.min(...ratings), high = Math.max(...ratings);
  if (high - low < 20) { low -= 10; high += 10; }
  // one result: its point in the middle (a line needs two)
  const x = (i) => left + (points.length < 2 ? (width - left - right) / 2 : (i * (width - left - right)) / (points.length - 1));
  const y = (r) => top + ((high - r) * (height - top - bottom)) / (high - low);
  const figure = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, class: "rating-chart" });
  figure.append(svg("title", {}, label));
  const ticks = 4;
  for (let i = 0; i <= ticks; i++) {
    const value = Math.round(low + ((high - low) * i) / ticks);
    figure.append(svg("line", { x1: left, x2: width - right, y1: y(value), y2: y(value), class: "grid-line" }));
    figure.append(svg("text", { x: left - 6, y: y(value) + 4, "text-anchor": "end", class: "tick" }, number(value)));
  }
  const last = points.length;
  for (const games of [1, Math.ceil(last / 2), last].filter((v, i, a) => a.indexOf(v) === i)) {
    figure.append(svg("text", { x: x(games - 1), y: height - bottom + 16, "text-anchor": "middle", class: "tick" }, number(games)));
  }
  figure.append(svg("text", { x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle", class: "axis-label" }, t("Games played")));
  figure.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "rating-line" }));
  // each result a dot on the line: a single game's rating shows (a one-point line draws nothing)
  for (const [i, p] of points.entries()) {
    if (points.length <= 60 || i === points.length - 1) figure.append(svg("circle", { cx: x(i), cy: y(p.rating), r: 3, class: "rating-point", "data-role": "rating-point" }));
  }
  return figure;
}

async function profile(root, username) {
  clear(root);
  const body = await api.get(`/players/${encodeURIComponent(username)}/`);
  const section = h("section", { class: "panel players", dataset: { role: "profile" } },
    h("h1", {}, body.username),
    h("p", { class: "hint" }, t("Playing since %(date)s", { date: dateTime(body.joined) })),
    // one's own page leads to one's rounds, to replay them (the list is the player's alone)
    api.session() && api.session().username === body.username
      ? h("p", {}, h("a", { href: "#/rounds", dataset: { role: "profile-rounds" } }, t("My rounds: replay the rounds you played"))) : null);
  root.append(section);
  section.append(h("h2", {}, t("Ratings")));
  if (!body.ratings.length) section.append(h("p", { class: "empty" }, t("No rated games yet.")));
  for (const rating of body.ratings) {
    const card = h("div", { class: "rating-card", dataset: { role: "profile-rating", game: rating.game } },
      h("h3", {}, gameName(rating.game)),
      h("p", {},
        h("strong", { class: "rating-value" }, number(rating.rating)), " ",
        tn("after %(n)s rated game", "after %(n)s rated games", rating.games, { n: number(rating.games) }),
        rating.provisional ? h("span", { class: "badge" }, " ", t("provisional")) : null),
      h("p", {}, h("a", { href: `#/leaderboard/${rating.game}` }, t("Leaderboard"))));
    section.append(card);
    const history = await api.get(`/players/${encodeURIComponent(username)}/history/?game=${rating.game}&page_size=500`);
    if (history.results.length) {
      card.append(chart(history.results, t("Rating of %(player)s in %(game)s over their games", { player: body.username, game: gameName(rating.game) })));
    }
  }
  section.append(h("h2", {}, t("Recent games")));
  if (!body.recent.length) section.append(h("p", { class: "empty" }, t("No rated games yet.")));
  else {
    section.append(h("ul", { class: "plain-list", dataset: { role: "profile-recent" } },
      body.recent.map((r) => h("li", {},
        placeText(r.place), " · ", gameName(r.game), " · ",
        r.tournament ? h("a", { href: `#/tournament/${r.tournament}` }, t("tournament")) : t("ring table"),
        " · ", dateTime(r.at)))));
  }
  section.append(h("h2", {}, t("Tournaments")));
  if (!body.tournaments.length) section.append(h("p", { class: "empty" }, t("No finished tournaments yet.")));
  else {
    section.append(h("ul", { class: "plain-list", dataset: { role: "profile-tournaments" } },
      body.tournaments.map((x) => h("li", {},
        h("a", { href: `#/tournament/${x.id}` }, x.name), " · ", placeText(x.place),
        x.prize === null ? null : [" · ", t("won %(chips)s chips", { chips: number(x.prize) })]))));
  }
}

async function leaderboard(root, game) {
  clear(root);
  const family = FAMILIES.includes(game) ? game : "rummy500";
  const section = h("section", { class: "panel players", dataset: { role: "leaderboard", game: family } },
    h("h1", {}, t("Leaderboard: %(game)s", { game: gameName(family) })),
    h("nav", { "aria-label": t("Games") },
      h("ul", { class: "tabs" }, FAMILIES.map((f) => h("li", {},
        h("a", { href: `#/leaderboard/${f}`, "aria-current": f === family ? "page" : null }, gameName(f)))))),
    h("p", { class: "hint" }, t("Players appear here once their rating is no longer provisional.")));
  root.append(section);
  const body = h("tbody", {});
  const more = h("button", { type: "button", hidden: true, dataset: { role: "leaderboard-more" } }, t("More"));
  section.append(h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("Leaderboard") },
    h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col", class: "num" }, t("Rating")), h("th", { scope: "col", class: "num" }, t("Games")))),
      body)), more);
  let next = null;
  async function load(url) {
    const page = await api.get(url);
    for (const row of page.results) {
      body.append(h("tr", { dataset: { role: "leaderboard-row", username: row.username } },
        h("td", {}, number(row.rank)),
        h("td", {}, h("a", { href: `#/players/${encodeURIComponent(row.username)}` }, row.username)),
        h("td", { class: "num" }, number(row.rating)),
        h("td", { class: "num" }, number(row.games))));
    }
    next = page.next;
    more.hidden = !next;
  }
  more.addEventListener("click", () => next && load(next));
  await load(`/leaderboards/?game=${family}`);
  if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 4, class: "empty" }, t("Nobody is ranked here yet."))));
}

/* A player's rating in a game's family, beside their name at a table or in standings: a small link to the
   profile, filled in when the profile arrives (each profile read once per page load). */
const profiles = new Map();
function ratingBadge(username, game) {
  const family = { rummy500_household: "rummy500", block: "basic", wrotham: "basic", romme: "basic" }[game] || game;
  // The link's name is its words: "Rating of ann:" (read by screen readers only) and the number shown.
  const value = h("span", {}, "…");
  const badge = h("a", {
    class: "rating-badge", href: `#/players/${encodeURIComponent(username)}`, dataset: { role: "rating-badge", username },
  }, h("span", { class: "visually-hidden" }, t("Rating of %(player)s:", { player: username }), " "), value);
  if (!profiles.has(username)) profiles.set(username, api.get(`/players/${encodeURIComponent(username)}/`).catch(() => null));
  profiles.get(username).then((body) => {
    const rating = body && body.ratings.find((r) => r.game === family);
    value.textContent = rating ? number(rating.rating) : t("new");
    if (rating && rating.provisional) badge.classList.add("provisional");
  });
  return badge;
}

export { profile, leaderboard, ratingBadge };
