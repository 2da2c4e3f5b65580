/* The table page's head: the table and its tournament, a private table's share box, the buy-in (sit, top up)
 * and leaving (asked first). */
import * as api from "./api.js";
import { h, flash } from "./dom.js";
import * as dom from "./dom.js";
import { t, tn, number } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as practice from "./practice.js";
import * as W from "./table-words.js";
import { chipsText, errorText, inRunningRound, me, sent, tournamentOf } from "./table-facts.js";
import { draw } from "./table-view.js";
import { load, refreshGame } from "./table.js";

// ------------------------------------------------------------------------------------------- the head

function header(p) {
  const tb = p.table;
  const tour = tournamentOf(p);
  const mine = tb.players.find((x) => x.username === me() && x.status !== "left");
  const opts = tb.options || {};
  // A practice table (no chips, ended rather than left): its head is practice.js's.
  if (tb.practice) return practice.head(p, { mine, midRound: inRunningRound(p), redraw: () => draw(p), refresh: () => refreshGame(p, true) });
  if (tour) {
    const goal = tour.kind === "single" && tour.target_score ? t("first to %(points)s wins", { points: W.points(tour.target_score) })
      : tour.kind === "quick" && tour.rounds ? tn("%(n)s round", "%(n)s rounds", tour.rounds, { n: number(tour.rounds) })
      : tour.kind === "multi" ? t("played for tournament chips") : "";
    return h("div", { class: "table-head", dataset: { role: "table-head", tournament: tour.id } },
      h("h1", { tabindex: "-1", dataset: { focus: "heading" } }, t("Tournament table · %(name)s", { name: tour.name })),
      h("p", { class: "facts" }, [lobby.gameName(tb.game), W.tournamentKind(tour.kind), goal].filter(Boolean).join(" · ")),
      p.moved ? h("p", { class: "notice", dataset: { role: "moved" } }, t("You were moved to table %(table)s (from table %(from)s).", { table: String(p.moved.to), from: String(p.moved.from) })) : null,
      tour.my_table && tour.my_table !== tb.id
        ? h("p", { class: "notice", dataset: { role: "my-table" } }, t("You play at table %(table)s.", { table: String(tour.my_table) }), " ",
          h("a", { href: `#/table/${tour.my_table}`, dataset: { role: "my-table-link", focus: "my-table-link" } }, t("Go to your table")))
        : null,
      h("p", { class: "facts" }, h("a", { href: `#/tournament/${tour.id}`, dataset: { role: "tournament-link", focus: "tournament-link" } }, t("The tournament's page: standings, prizes")),
        " · ", t("The tournament seats its players and plays them to the end: there is no buy-in, top-up or leaving here.")));
  }
  const clock = W.clock(opts) || t("the server's usual clock");
  const facts = [
    tb.multiplier > 1 ? t("PCR %(pcr)s × %(multiplier)s", { pcr: number(tb.pcr), multiplier: number(tb.multiplier) }) : t("PCR %(pcr)s", { pcr: number(tb.pcr) }),
    t("buy-in %(min)s–%(max)s chips", { min: number(tb.min_buy_in), max: number(tb.max_buy_in) }),
    tn("%(n)s seat", "%(n)s seats", tb.seats, { n: number(tb.seats) }),
    clock,
    tb.status === "open" ? t("open") : tb.status === "closed" ? t("closed") : t("out of service"),
  ];
  return h("div", { class: "table-head", dataset: { role: "table-head" } },
    h("h1", { tabindex: "-1", dataset: { focus: "heading" } }, t("Table %(id)s · %(game)s", { id: `#${tb.id}`, game: lobby.gameName(tb.game) })),
    h("p", { class: "facts" }, facts.join(" · ")),
    tb.code ? shareBox(tb) : null,
    h("div", { class: "seat-actions" },
      tb.status === "open" ? buyIn(p, tb, mine) : null,
      mine && mine.status === "leaving" ? h("p", { class: "hint", dataset: { role: "leaving" } }, t("You are leaving: the server plays your hand to the end of this round, then your chips go back to your wallet.")) : null,
      mine && mine.status !== "leaving" ? h("button", { type: "button", dataset: { role: "leave", focus: "leave" }, onclick: () => { p.confirmLeave = true; p.focusNext = "leave-confirm"; draw(p); } }, t("Leave the table")) : null),
    p.confirmLeave && mine ? leaveConfirm(p, mine) : null);
}

/** A private table's code and the link to share it by (#/join/CODE), with a button that copies the link. */
function shareBox(tb) {
  const link = lobby.shareLink(tb.code);
  const field = h("input", { id: `share-${tb.id}`, type: "url", readonly: true, value: link, dataset: { role: "share-link" }, onfocus: (e) => e.target.select() });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch (_) {
      field.select();
      document.execCommand("copy");
    }
    dom.flash(t("Link copied: send it to the players you invite."), "info");
  };
  return h("div", { class: "code share", dataset: { role: "share" } },
    h("p", {}, t("Private table code:"), " ", h("strong", { dataset: { role: "table-code" } }, tb.code)),
    h("label", { for: `share-${tb.id}` }, t("Link to share with the players you invite")),
    h("div", { class: "share-row" }, field, h("button", { type: "button", dataset: { role: "copy-link" }, onclick: copy }, t("Copy the link"))));
}

/** The lobby's buy-in form (sit, or top up), its amount and focus kept across redraws. */
function buyIn(p, tb, mine) {
  const form = lobby.buyInForm(tb, (hash) => (hash === location.hash ? load(p.root, tb.id) : (location.hash = hash)), mine ? t("Top up") : t("Sit"));
  const input = form.querySelector("input");
  if (input) {
    input.dataset.focus = "buy-in";
    if (p.buyIn) input.value = p.buyIn;
    input.addEventListener("input", () => (p.buyIn = input.value));
  }
  const button = form.querySelector("button");
  if (button) button.dataset.focus = "sit";
  return form;
}

/** Leaving asks first, and says what really happens (tournaments/live/tables.py `leave`). */
function leaveConfirm(p, mine) {
  const midRound = inRunningRound(p);
  const text = midRound
    ? [
        t("This round is still being played. If you leave now, the server plays your hand at once, every turn until the round ends: it draws from the stock, uses a card you already had to use, and discards your highest card. It never melds for you, so the cards left in your hand count against you."),
        t("The round is then settled as usual: you pay what your hand loses, at most your stack of %(chips)s. What is left of your stack goes back to your wallet.", { chips: chipsText(mine.chips) }),
      ]
    : [t("Your stack of %(chips)s goes back to your wallet now.", { chips: chipsText(mine.chips) })];
  return h("section", { class: "confirm panel", role: "group", "aria-labelledby": "leave-title", dataset: { role: "leave-confirmation", midRound: String(midRound) } },
    h("h2", { id: "leave-title" }, midRound ? t("Leave in the middle of a round?") : t("Leave the table?")),
    text.map((x) => h("p", { dataset: { role: "leave-explanation" } }, x)),
    h("div", { class: "seat-actions" },
      h("button", { type: "button", class: "danger", dataset: { role: "leave-confirm", focus: "leave-confirm" }, onclick: () => leave(p, midRound) }, midRound ? t("Leave now and let the server play my hand") : t("Leave now")),
      h("button", { type: "button", dataset: { role: "leave-cancel", focus: "leave-cancel" }, onclick: () => { p.confirmLeave = false; p.focusNext = "leave"; draw(p); } }, t("Stay at the table"))));
}

async function leave(p, midRound) {
  p.confirmLeave = false;
  try {
    p.table = await api.post(`/tables/${p.table.id}/leave/`, undefined, sent());
    flash(midRound ? t("You are leaving: the server plays your hand to the end of this round, then your chips go back to your wallet.") : t("You left the table: your chips are back in your wallet."), "info");
  } catch (err) {
    flash(errorText(err), "error");
  }
  await refreshGame(p, true);
}


export { header, shareBox, buyIn, leaveConfirm, leave };
