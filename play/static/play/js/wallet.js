/* The wallet: the balance and its history (GET /wallet/transfers/, newest first, page by page). */
(function (R) {
  "use strict";

  const { h, clear, chips, when } = R.dom;
  const KINDS = { adjustment: "credit or debit by the site", buy_in: "buy-in at a table", cash_out: "cash-out from a table" };

  async function render(root) {
    clear(root);
    const balance = h("strong", { dataset: { role: "wallet-balance" } }, "…");
    const body = h("tbody", { dataset: { role: "wallet-rows" } });
    const more = h("button", { type: "button", hidden: true, dataset: { role: "wallet-more" } }, "Older");
    let next = null;
    async function loadPage(url) {
      const answer = await R.api.get(url);
      for (const row of answer.results) {
        body.append(h("tr", { dataset: { role: "wallet-row", kind: row.kind, amount: row.amount } },
          h("td", {}, when(row.created_at)),
          h("td", {}, row.kind, KINDS[row.kind] ? h("small", { class: "hint" }, ` (${KINDS[row.kind]})`) : null),
          h("td", { class: row.amount < 0 ? "debit num" : "credit num" }, `${row.amount > 0 ? "+" : ""}${chips(row.amount)}`),
          h("td", { class: "num" }, chips(row.balance_after)),
          h("td", {}, row.table ? h("a", { href: `#/table/${row.table}` }, `table #${row.table}`) : "", row.round ? ` · round #${row.round}` : ""),
          h("td", {}, row.reason || "")));
      }
      next = answer.next;
      more.hidden = !next;
    }
    more.addEventListener("click", () => next && loadPage(next));
    root.append(
      h("section", { class: "wallet panel", dataset: { role: "wallet" } },
        h("h1", {}, "Wallet"),
        h("p", {}, "Balance: ", balance, " chips"),
        h("table", { class: "grid" },
          h("thead", {}, h("tr", {}, ["When", "What", "Chips", "Balance after", "Where", "Reason"].map((x) => h("th", {}, x)))),
          body),
        more));
    R.api.get("/wallet/").then((w) => (balance.textContent = chips(w.balance)));
    await loadPage("/wallet/transfers/");
    if (!body.children.length) body.append(h("tr", {}, h("td", { colspan: 6, class: "empty" }, "No chips have moved yet.")));
  }

  R.wallet = { render };
})((window.Ramino = window.Ramino || {}));
