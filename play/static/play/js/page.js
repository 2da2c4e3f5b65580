/* What every page shares (play/base.html loads it first): the skip link, and tables of figures that stack on a
 * phone. Deferred: the page is parsed when this runs. */
// The skip link ("Skip to the main content") leads to the page's main landmark, whatever that element's id
// (the landing page's is "main", the player client's "app"), and moves the keyboard focus there without
// touching location.hash (the player client's routes are hash routes).
const link = document.querySelector("a.skip-link");
const main = document.querySelector("main");
if (link && main) {
  if (!main.id) main.id = "main";
  if (!main.hasAttribute("tabindex")) main.setAttribute("tabindex", "-1");
  link.setAttribute("href", `#${main.id}`);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    main.focus();
  });
}

// A table of figures (`table.grid`) with a header row and four columns or more stacks on a phone (play.css,
// `.grid.stack`: each row a card, each cell after its column's name). The names are copied from the header row
// into each cell's data-label, for the rows drawn now and later. A table whose script labels its own cells
// (any data-label when first seen), or marked data-layout="table", is left as it is.
const MIN_COLUMNS = 4;

function headings(table) {
  const row = table.tHead && table.tHead.rows[0];
  return row ? Array.from(row.cells, (cell) => cell.textContent.trim()) : [];
}

function stack(table) {
  if (!table.dataset.stacked) {
    if (table.dataset.layout === "table" || table.querySelector("[data-label]")) {
      table.dataset.stacked = "no";
      return;
    }
    const names = headings(table);
    if (names.length < MIN_COLUMNS) return; // its header may come later: look again then
    table.dataset.stacked = "yes";
    table.classList.add("stack");
  }
  if (table.dataset.stacked !== "yes") return;
  const names = headings(table);
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        if (cell.tagName === "TD" && cell.colSpan === 1 && names[column] && !cell.hasAttribute("data-label")) {
          cell.dataset.label = names[column];
        }
        column += cell.colSpan;
      }
    }
  }
}

let pending = false;
function scan() {
  pending = false;
  document.querySelectorAll("table.grid").forEach(stack);
}
scan();
new MutationObserver(() => {
  if (!pending) {
    pending = true;
    queueMicrotask(scan);
  }
}).observe(document.body, { childList: true, subtree: true });
