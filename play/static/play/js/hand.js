/* The player's hand at the table: cards to select (tap, click, Space or Enter; arrow keys move between them,
 * Shift+arrow moves the card itself), sorted by suit or rank or reordered by dragging (pointer events: mouse,
 * pen and touch alike). The order is kept per game in this tab (sessionStorage). What the selected cards can do
 * comes from the server's legal moves only: `actions` finds the moves that use exactly the selection. */
import * as api from "./api.js";
import { card, face, name } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { keys, moveCard, ordered as orderedBy, prune, selectedCodes, sortOrder } from "./lib/hand.mjs";
import { actions, sameCards } from "./lib/moves.mjs";


// ------------------------------------------------------------------------------------------ the order

function storeKey(gameId) {
  const s = api.session();
  return `ramino.hand.${s ? s.username : ""}.${gameId}`;
}

function savedOrder(gameId) {
  try {
    const value = JSON.parse(sessionStorage.getItem(storeKey(gameId)) || "null");
    return Array.isArray(value) ? value : null;
  } catch (_) {
    return null;
  }
}

function saveOrder(gameId, codes) {
  try {
    sessionStorage.setItem(storeKey(gameId), JSON.stringify(codes));
  } catch (_) {
    // storage full or refused: the order lasts until the next redraw only
  }
}

/** The hand in the player's order: the saved order for the cards still held, new cards at the end. */
function ordered(gameId, hand) {
  return orderedBy(savedOrder(gameId), hand);
}

// ------------------------------------------------------------------------------------------ the view

/**
 * The hand as a row of toggle buttons. `state` is the page's: {order, selected (Set of keys), focus (key)};
 * `onChange()` redraws the page after a selection or an order change.
 */
function render(gameId, state, onChange) {
  const codes = state.order;
  const ks = keys(codes);
  if (!ks.includes(state.focus)) state.focus = ks[0] || null;
  const row = h("div", { class: "hand-cards", role: "group", "aria-label": t("Your cards"), dataset: { role: "hand-cards" } });
  codes.forEach((code, index) => {
    const key = ks[index];
    const selected = state.selected.has(key);
    const el = card(code, {
      type: "button",
      class: `hand-card${selected ? " selected" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      // the name starts with the card as shown (7♥), then says it in words
      "aria-label": `${face(code).text} (${name(code)})`,
      tabindex: key === state.focus ? "0" : "-1",
      dataset: { role: "hand-card", key, index: String(index), focus: `card:${key}` },
    }, "button");
    el.addEventListener("click", () => {
      if (state.suppressClick) {
        state.suppressClick = false;
        return;
      }
      state.focus = key;
      if (state.selected.has(key)) state.selected.delete(key);
      else state.selected.add(key);
      onChange();
    });
    el.addEventListener("focus", () => {
      state.focus = key;
    });
    el.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
      if (step !== undefined) {
        event.preventDefault();
        event.stopPropagation();
        const target = Math.max(0, Math.min(codes.length - 1, index + step));
        if (event.shiftKey) {
          state.order = moveCard(codes, index, target);
          saveOrder(gameId, state.order);
          state.focus = keys(state.order)[target];
        } else {
          state.focus = ks[target];
        }
        onChange();
      } else if (event.key === "Home" || event.key === "End") {
        event.preventDefault();
        state.focus = event.key === "Home" ? ks[0] : ks[ks.length - 1];
        onChange();
      }
    });
    dragging(el, index, gameId, state, onChange);
    row.append(el);
  });
  return row;
}

/** Reorder by dragging: past a few pixels a press becomes a drag; the card goes where it is released. */
function dragging(el, index, gameId, state, onChange) {
  el.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const start = { x: event.clientX, y: event.clientY };
    let active = false;
    let target = index;
    const row = el.parentElement;
    const over = (x, y) => {
      const cards = Array.from(row.querySelectorAll("[data-role=hand-card]"));
      let best = index;
      let bestDistance = Infinity;
      cards.forEach((c, i) => {
        const r = c.getBoundingClientRect();
        const dx = x - (r.left + r.width / 2);
        const dy = y - (r.top + r.height / 2);
        const d = dx * dx + dy * dy * 4;
        if (d < bestDistance) {
          bestDistance = d;
          best = i;
        }
      });
      return best;
    };
    const onMove = (e) => {
      if (!active && Math.hypot(e.clientX - start.x, e.clientY - start.y) < 8) return;
      if (!active) {
        active = true;
        state.dragging = true;
        el.classList.add("dragging");
      }
      e.preventDefault();
      target = over(e.clientX, e.clientY);
      row.querySelectorAll(".drop-before, .drop-after").forEach((c) => c.classList.remove("drop-before", "drop-after"));
      const mark = row.querySelectorAll("[data-role=hand-card]")[target];
      if (mark && target !== index) mark.classList.add(target < index ? "drop-before" : "drop-after");
    };
    const onUp = () => {
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerup", onUp);
      document.removeEventListener("pointercancel", onUp);
      if (!active) return;
      state.dragging = false;
      state.suppressClick = true;
      setTimeout(() => (state.suppressClick = false), 0);
      if (target !== index) {
        state.order = moveCard(state.order, index, target);
        saveOrder(gameId, state.order);
        state.focus = keys(state.order)[target];
      }
      onChange();
    };
    document.addEventListener("pointermove", onMove);
    document.addEventListener("pointerup", onUp);
    document.addEventListener("pointercancel", onUp);
  });
}

function sortHand(gameId, state, by) {
  saveOrder(gameId, sortOrder(state, by));
}

export { ordered, keys, render, actions, sortHand, selectedCodes, prune, saveOrder, sameCards };
