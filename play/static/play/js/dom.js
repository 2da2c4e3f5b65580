/* DOM helpers. Every piece of text from the server goes in through textContent, never as HTML. */
import * as i18n from "./i18n.js";

/** h("button", {class: "x", dataset: {role: "y"}, onclick: fn}, "text", child, ...) */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

let flashTimer = null;
function flash(message, kind) {
  const box = document.getElementById("flash");
  if (!box) return;
  box.textContent = message;
  box.className = `flash ${kind || "info"}`;
  box.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => (box.hidden = true), 6000);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A form's fields by name, numbers as numbers where the input is type=number. */
function formValues(form) {
  const values = {};
  for (const input of form.elements) {
    if (!input.name) continue;
    if (input.type === "checkbox") values[input.name] = input.checked;
    else if (input.type === "number") values[input.name] = input.value === "" ? null : Number(input.value);
    else values[input.name] = input.value.trim();
  }
  return values;
}

/* A chip count as the page's language writes it (Italian 10.000, English 10,000). */
function chips(n) {
  return n === null || n === undefined ? "–" : i18n.number(n);
}

function when(iso) {
  return i18n.dateTime(iso);
}

export { h, append, clear, flash, sleep, formValues, chips, when };
