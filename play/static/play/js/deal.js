/* The final-table deal on a tournament's page (docs/rules.md "The final-table deal"): at the final table between
 * rounds, a player sees both amounts a deal would pay (ICM and chip count, with the amount left to play for) and
 * proposes one; while an offer is open, every player sees it in a dialog with its countdown and accepts or
 * declines; then how it ended. Read from GET /tournaments/ID/deal/ whenever the tournament's event log moves. */
import * as api from "./api.js";
import { h, flash } from "./dom.js";
import { t, number } from "./i18n.js";


  function statusWords(deal) {
    return {
      open: t("Waiting for every player's answer."),
      accepted: t("Accepted by every player: the amounts were paid. Play goes on for the title and the amount kept."),
      declined: t("Declined: nothing changed."),
      expired: t("The time ran out: nothing changed."),
    }[deal.status] || deal.status;
  }

  function secondsLeft(iso) {
    const s = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
    return t("%(s)s s", { s: number(s) });
  }

  function amountsTable(caption, players, columns, mine) {
    // On a narrow phone each player's row is a card, the amounts two by two after their names (lobby.css).
    return h("table", { class: "grid compact", dataset: { role: "deal-amounts" } },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, [t("Player"), ...columns.map((c) => c[0])].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, players.map((name) => h("tr", { class: name === mine ? "current" : null, dataset: { role: "deal-row", username: name } },
        h("th", { scope: "row" }, name),
        columns.map(([label, values, role]) => h("td", { "data-label": label, dataset: { role } }, number(values[name])))))));
  }

  async function send(p, path, body, done) {
    try {
      await api.post(`/tournaments/${p.tournament.id}/${path}`, body);
      flash(done, "info");
    } catch (err) {
      flash(err.describe ? err.describe() : String(err), "error");
    }
    await p.refresh();
  }

  function offerDialog(p, deal, me) {
    const answered = me in deal.answers;
    const mine = deal.players.includes(me);
    const method = deal.method === "icm" ? t("ICM (chances of each place)") : t("chip count");
    return h("section", { class: "panel deal", role: "dialog", "aria-labelledby": "deal-title", "aria-live": "polite", dataset: { role: "deal-dialog", deal: deal.id, status: deal.status } },
      h("h2", { id: "deal-title" }, t("Deal proposed by %(name)s", { name: deal.proposer })),
      h("p", {}, t("Offered: %(method)s. Left to play for: %(keep)s chips, to the winner.", { method, keep: number(deal.keep) })),
      mine ? h("p", { dataset: { role: "deal-my-amount" } }, h("strong", {}, deal.status === "accepted"
        ? t("Your amount: %(amount)s chips, paid.", { amount: number(deal.amounts[me]) })
        : t("Your amount: %(amount)s chips, paid at once if everyone accepts.", { amount: number(deal.amounts[me]) }))) : null,
      amountsTable(t("Amounts"), deal.players, [[t("Chips"), deal.chips, "deal-chips"], [t("ICM"), deal.icm, "deal-icm"], [t("Chip count"), deal.chip_count, "deal-chip-count"], [t("Offered"), deal.amounts, "deal-offered"]], me),
      h("p", { dataset: { role: "deal-status" } }, statusWords(deal), " ",
        deal.status === "open" ? h("span", { dataset: { role: "deal-countdown", expires: deal.expires_at } }, t("Time left: %(left)s", { left: secondsLeft(deal.expires_at) })) : null),
      deal.status === "open" && mine && !answered ? h("div", { class: "actions" },
        h("button", { type: "button", class: "primary", dataset: { role: "deal-accept" }, onclick: () => send(p, `deal/${deal.id}/answer/`, { accept: true }, t("You accepted the deal.")) }, t("Accept the deal")),
        h("button", { type: "button", dataset: { role: "deal-decline" }, onclick: () => send(p, `deal/${deal.id}/answer/`, { accept: false }, t("You declined the deal.")) }, t("Decline"))) : null,
      deal.status === "open" && answered ? h("p", { class: "hint", dataset: { role: "deal-answered" } }, deal.answers[me] ? t("You accepted; waiting for the others.") : t("You declined.")) : null);
  }

  function proposal(p, view, me) {
    const pv = view.preview;
    const players = Object.keys(pv.chips);
    return h("section", { class: "panel deal", dataset: { role: "deal-propose" } },
      h("h2", {}, t("Final-table deal")),
      h("p", {}, t("Share the prizes not yet paid (%(unpaid)s chips) now; %(keep)s chips stay to play for, to the winner. Every player must accept.", { unpaid: number(pv.unpaid), keep: number(pv.keep) })),
      amountsTable(t("What each player would receive"), players, [[t("Chips"), pv.chips, "deal-chips"], [t("ICM"), pv.icm, "deal-icm"], [t("Chip count"), pv.chip_count, "deal-chip-count"]], me),
      h("div", { class: "actions" },
        h("button", { type: "button", dataset: { role: "deal-propose-icm" }, onclick: () => send(p, "deal/", { method: "icm" }, t("Deal proposed.")) }, t("Propose the ICM amounts")),
        h("button", { type: "button", dataset: { role: "deal-propose-chips" }, onclick: () => send(p, "deal/", { method: "chips" }, t("Deal proposed.")) }, t("Propose the chip-count amounts"))));
  }

  /* The panel for the page's current deal view (null when there is nothing to show). */
  function panel(p) {
    const view = p.deal;
    if (!view) return null;
    const me = api.session() ? api.session().username : null;
    if (view.deal && view.deal.status === "open") return offerDialog(p, view.deal, me);
    if (view.can_propose && view.preview) return proposal(p, view, me);
    if (view.deal) return offerDialog(p, view.deal, me);
    return null;
  }

  /* The deal view of a multi-table tournament being played (null for any other, and for a satellite: no deal is
   * made in one, its prizes are tickets). */
  async function read(tour) {
    if (tour.kind !== "multi" || !["running", "paused", "finished"].includes(tour.status)) return null;
    if (tour.satellite_target || tour.satellite_template) return null;
    try {
      return await api.get(`/tournaments/${tour.id}/deal/`);
    } catch (_) {
      return null;
    }
  }

  /* The countdown moves every second without asking the server. */
  function tick(root) {
    const left = root.querySelector("[data-role=deal-countdown]");
    if (left) left.textContent = t("Time left: %(left)s", { left: secondsLeft(left.dataset.expires) });
  }

  export { panel, read, tick };
