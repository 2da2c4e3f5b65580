/* The wallet: the balance, how to get chips (the house's daily top-up, or the site's admins), and the history
   (GET /wallet/transfers/, newest first, page by page) in words.
   R.wallet.chipsHint(container) renders the "how to get chips" part alone, for other pages (a refused buy-in). */
import * as api from "./api.js";
import * as breakPanel from "./breaks.js";
import { h, clear, flash } from "./dom.js";
import { t, tn, number, dateTime } from "./i18n.js";


/* What a line of the history was, in words. The house grant's reasons are the server's own
   ("welcome chips", "daily top-up to N": ledger/services/grants.py). */
function describe(row) {
  switch (row.kind) {
    case "grant":
      return /^welcome/.test(row.reason) ? t("Welcome chips from the house") : t("Daily chips from the house");
    case "adjustment":
      return row.amount > 0 ? t("Credited by the site's admins") : t("Debited by the site's admins");
    case "buy_in":
      return row.table ? t("Buy-in at table #%(table)s", { table: row.table }) : t("Buy-in at a table");
    case "cash_out":
      return row.table ? t("Cash-out from table #%(table)s", { table: row.table }) : t("Cash-out from a table");
    case "tournament_buy_in":
      return t("Entry to tournament #%(tournament)s", { tournament: row.tournament });
    case "payout":
      return t("Prize from tournament #%(tournament)s", { tournament: row.tournament });
    case "refund":
      return row.tournament ? t("Refund from tournament #%(tournament)s", { tournament: row.tournament }) : t("Refund");
    case "ticket_conversion":
      return t("Tickets to tournament #%(tournament)s turned into chips", { tournament: row.tournament });
    case "reversal":
      return t("Correction of an earlier transfer");
    default:
      return t("Other movement");
  }
}

/* Where it happened: a link to the table or tournament, if any. */
function where(row) {
  if (row.table) return h("a", { href: `#/table/${row.table}` }, t("table #%(table)s", { table: row.table }));
  if (row.tournament) return h("a", { href: `#/tournament/${row.tournament}` }, t("tournament #%(tournament)s", { tournament: row.tournament }));
  return null;
}

function historyRow(row) {
  const signed = `${row.amount > 0 ? "+" : "−"}${number(Math.abs(row.amount))}`;
  // An admin's reason is words for the player ("welcome", "prize of the month"); the house's are in the sentence.
  const reason = row.kind === "adjustment" && row.reason ? row.reason : null;
  const place = where(row);
  return h("li", { class: "wallet-row", dataset: { role: "wallet-row", kind: row.kind, amount: row.amount } },
    h("div", { class: "wallet-line" },
      h("span", {}, describe(row)),
      h("span", { class: `amount ${row.amount < 0 ? "debit" : "credit"}` }, signed)),
    h("div", { class: "hint" },
      dateTime(row.created_at), " · ", t("Balance after: %(chips)s", { chips: number(row.balance_after) }),
      place ? [" · ", place] : null,
      row.round ? [" · ", t("round #%(round)s", { round: row.round })] : null,
      reason ? [" · ", h("q", {}, reason)] : null));
}

/* The sentence (and button) saying how to get chips, from GET /wallet/'s `top_up`. */
function hintFor(topUp, refresh) {
  const state = (topUp && topUp.state) || "off";
  if (state === "available") {
    const button = h("button", { type: "button", dataset: { role: "top-up" } }, t("Get chips"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const answer = await api.post("/wallet/top-up/");
        const got = answer.balance - (answer.transfer.computation.balance || 0);
        flash(t("You got %(chips)s chips: your balance is %(balance)s.", { chips: number(got), balance: number(answer.balance) }), "info");
        window.dispatchEvent(new CustomEvent("ramino:wallet", { detail: { balance: answer.balance } }));
      } catch (err) {
        flash(err.describe ? err.describe() : String(err), "error");
      }
      await refresh();
    });
    return [h("p", { dataset: { role: "top-up-text" } }, t("You can top your wallet up to %(floor)s chips once a day.", { floor: number(topUp.floor) })), button];
  }
  if (state === "claimed_today") {
    return [h("p", { dataset: { role: "top-up-text" } }, t("You had today's chips. You can get more from %(when)s.", { when: dateTime(topUp.next_at) }))];
  }
  if (state === "above_floor") {
    return [h("p", { dataset: { role: "top-up-text" } }, t("When your balance is below %(floor)s chips, you can top it up to that once a day.", { floor: number(topUp.floor) }))];
  }
  if (state === "guest") {
    return [h("p", { dataset: { role: "top-up-text" } }, t("A guest plays without chips: create an account to get chips."))];
  }
  return [h("p", { dataset: { role: "top-up-text" } }, t("Chips come from the site's admins: ask them to credit your wallet."))];
}

/* Render how to get chips into `container` (emptied first); resolves with the wallet it read. */
async function chipsHint(container, wallet) {
  const current = wallet || (await api.get("/wallet/"));
  const refresh = () => chipsHint(container);
  clear(container);
  container.classList.add("chips-hint");
  container.dataset.role = "chips-hint";
  container.dataset.state = (current.top_up && current.top_up.state) || "off";
  container.append(...hintFor(current.top_up, refresh));
  return current;
}

/* The tickets held (GET /me/tickets/): each an entry to a tournament, or to a recurring tournament's next one. */
function ticketRow(x) {
  const target = x.target_kind === "tournament"
    ? h("a", { href: `#/tournament/${x.target_id}` }, x.target_name)
    : h("span", {}, t("the next %(name)s", { name: x.target_name }));
  return h("li", { class: "wallet-row", dataset: { role: "ticket-row", chipType: x.chip_type, count: x.count } },
    h("div", { class: "wallet-line" },
      h("span", {}, tn("%(n)s ticket to", "%(n)s tickets to", x.count, { n: number(x.count) }), " ", target)),
    h("div", { class: "hint" }, t("Each is one entry, worth %(chips)s chips (buy-in and fee); it becomes chips if the tournament starts without you or is cancelled.", { chips: number(x.face_value) })));
}

async function renderTickets(list) {
  const held = (await api.get("/me/tickets/")).tickets;
  clear(list);
  if (!held.length) list.append(h("li", { class: "empty" }, t("You hold no tickets. Win them in satellites.")));
  else list.append(...held.map(ticketRow));
}

async function render(root) {
  clear(root);
  const tickets = h("ul", { class: "wallet-history", dataset: { role: "wallet-tickets" } });
  const balance = h("strong", { dataset: { role: "wallet-balance" } }, "…");
  const hint = h("div", {});
  const list = h("ol", { class: "wallet-history", dataset: { role: "wallet-rows" } });
  const more = h("button", { type: "button", hidden: true, dataset: { role: "wallet-more" } }, t("Older"));
  // Taking a break, and the break while it lasts (breaks.js).
  const breaks = h("div", {});
  let next = null;
  async function loadPage(url) {
    const answer = await api.get(url);
    list.append(...answer.results.map(historyRow));
    next = answer.next;
    more.hidden = !next;
  }
  async function reload() {
    const wallet = await api.get("/wallet/");
    balance.textContent = number(wallet.balance);
    await chipsHint(hint, wallet);
    clear(list);
    await loadPage("/wallet/transfers/");
    if (!list.children.length) list.append(h("li", { class: "empty" }, t("No chips have moved yet.")));
  }
  more.addEventListener("click", () => next && loadPage(next));
  const section = h("section", { class: "wallet panel", dataset: { role: "wallet" } },
    h("h1", {}, t("Wallet")),
    h("p", { class: "wallet-balance" }, t("Balance:"), " ", balance, " ", t("chips")),
    hint,
    h("h2", {}, t("Tickets")),
    tickets,
    h("p", { class: "wallet-limits" }, h("a", { href: "#/limits", dataset: { role: "wallet-limits" } }, t("Limits on your play and reality checks"))),
    h("h2", {}, t("History")),
    list,
    more,
    breaks);
  root.append(section);
  // A top-up (here or from another page's hint) changes the balance and the history.
  const onTopUp = () => (section.isConnected ? reload() : window.removeEventListener("ramino:wallet", onTopUp));
  window.addEventListener("ramino:wallet", onTopUp);
  await reload();
  await renderTickets(tickets);
  if (breaks) await breakPanel.render(breaks);
}

export { render, chipsHint, describe };
