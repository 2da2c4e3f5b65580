/* The chat panel (docs/web.md "Chat"): a room's messages, quick phrases as buttons, a line to write, and per
 * message mute, block and report. At a table it is a drawer opened by a button (it fits a 390 px phone); on the
 * lobby and a tournament's page it sits below the page. Messages arrive over the live socket (topic
 * `chat:<room>`) or, without one, by reading the room every few seconds; writing is a REST call. One panel at a
 * time: `mount` replaces the one before, `stop` removes it. Everything from the server goes in as text. */
import * as api from "./api.js";
import { h, sleep } from "./dom.js";
import { t } from "./i18n.js";
import * as socket from "./socket.js";

const POLL_MS = 3000;
const KEEP = 200; // messages kept on the page

let panel = null;

function reasons() {
  return [
    ["spam", t("Spam")],
    ["insult", t("Insult")],
    ["chip_trading", t("Chip trading")],
    ["other", t("Other")],
  ];
}

function roomPath(room) {
  return `/chat/rooms/${encodeURIComponent(room)}`;
}

function say(p, text, kind) {
  p.status.textContent = text;
  p.status.className = `chat-status ${kind || ""}`;
}

function textOf(p, message) {
  return message.phrase && p.phrases[message.phrase] ? p.phrases[message.phrase] : message.text;
}

function actions(p, message) {
  const me = (api.session() || {}).username;
  if (message.author === me) return null;
  const reason = h("select", { dataset: { role: "chat-report-reason" }, "aria-label": t("Reason") },
    reasons().map(([value, label]) => h("option", { value }, label)));
  return h("details", { class: "chat-actions" },
    h("summary", { "aria-label": t("Actions for the message of %(name)s", { name: message.author }) }, "⋯"),
    h("button", { type: "button", dataset: { role: "chat-mute" }, onclick: () => mute(p, message.author, false) }, t("Mute")),
    h("button", { type: "button", dataset: { role: "chat-block" }, onclick: () => mute(p, message.author, true) }, t("Block")),
    reason,
    h("button", { type: "button", dataset: { role: "chat-report" }, onclick: () => report(p, message, reason.value) }, t("Report")));
}

function add(p, messages) {
  let added = 0;
  for (const m of messages) {
    const id = m.id;
    if (p.shown.has(id) || p.muted.has(m.author)) continue;
    p.shown.add(id);
    p.last = Math.max(p.last, id);
    p.list.append(h("li", { dataset: { role: "chat-message", id: String(id), author: m.author } },
      h("strong", { class: "chat-author" }, m.author), " ",
      h("span", { class: "chat-text", dataset: { role: "chat-text" } }, textOf(p, m)), " ",
      actions(p, m)));
    added += 1;
  }
  while (p.list.children.length > KEEP) p.list.firstChild.remove();
  if (added) {
    p.log.scrollTop = p.log.scrollHeight;
    if (p.drawer && p.drawer.hidden) {
      p.unread += added;
      p.badge.textContent = String(p.unread);
      p.badge.hidden = false;
    }
  }
}

async function send(p, body) {
  try {
    const message = await api.post(`${roomPath(p.room)}/messages/`, body);
    add(p, [message]);
    say(p, "");
    return true;
  } catch (err) {
    say(p, err.describe ? err.describe() : String(err), "error");
    return false;
  }
}

async function mute(p, username, block) {
  try {
    await api.post(block ? "/me/chat/blocks/" : "/me/chat/mutes/", { username });
    p.muted.add(username);
    for (const li of Array.from(p.list.querySelectorAll("li"))) if (li.dataset.author === username) li.remove();
    say(p, block ? t("%(name)s is blocked: you no longer see their messages, and they cannot sit at your private tables.", { name: username })
      : t("%(name)s is muted: you no longer see their messages.", { name: username }), "ok");
  } catch (err) {
    say(p, err.describe ? err.describe() : String(err), "error");
  }
}

async function report(p, message, reason) {
  try {
    await api.post(`/chat/messages/${message.id}/report/`, { reason });
    say(p, t("Thank you: the message was reported to the staff."), "ok");
  } catch (err) {
    say(p, err.describe ? err.describe() : String(err), "error");
  }
}

async function follow(p) {
  const signal = p.abort.signal;
  while (panel === p) {
    try {
      const answer = await socket.events(`chat:${p.room}`, p.last, signal);
      if (panel !== p) return;
      if (answer) {
        add(p, answer.data.events);
        continue;
      }
      const after = p.last ? `?after=${p.last}` : "";
      const page = await api.get(`${roomPath(p.room)}/messages/${after}`, { signal });
      add(p, page.messages);
      await sleep(POLL_MS);
    } catch (err) {
      if (panel !== p || (err && err.name === "AbortError")) return;
      await sleep(POLL_MS);
    }
  }
}

function modeText(room) {
  if (!room.can_write) return t("You can read this room; you cannot write in it.");
  if (room.slow_mode) return t("Slow mode: one message every 10 seconds.");
  if (room.members_only) return t("Members-only mode: only seated or registered players write.");
  return "";
}

function toggle(p, open) {
  p.drawer.hidden = !open;
  p.opener.setAttribute("aria-expanded", String(open));
  if (open) {
    p.unread = 0;
    p.badge.hidden = true;
    p.input.focus();
    p.log.scrollTop = p.log.scrollHeight;
  } else {
    p.opener.focus();
  }
}

/** Show the chat of `room` (`table:12`, `tournament:3`, `lobby`); `drawer`: behind a button (the table). */
async function mount(room, options) {
  stop();
  const drawer = Boolean(options && options.drawer);
  const p = { room, last: 0, shown: new Set(), muted: new Set(), phrases: {}, unread: 0, abort: new AbortController() };
  panel = p;
  let first;
  let phraseList;
  try {
    [first, phraseList] = await Promise.all([
      api.get(`${roomPath(room)}/messages/`, { signal: p.abort.signal }),
      api.get("/chat/phrases/", { signal: p.abort.signal }),
    ]);
  } catch (_) {
    if (panel === p) panel = null;
    return; // chat off here (a practice table), or not this player's room: no panel
  }
  if (panel !== p) return;
  phraseList = phraseList.phrases;
  for (const phrase of phraseList) p.phrases[phrase.code] = phrase.text;
  p.list = h("ol", { class: "chat-list" });
  p.log = h("div", { class: "chat-messages", role: "log", tabindex: "0", "aria-label": t("Messages"), dataset: { role: "chat-messages" } }, p.list);
  p.status = h("p", { class: "chat-status", role: "status", dataset: { role: "chat-status" } });
  p.input = h("input", { id: "chat-input", name: "text", maxlength: "280", autocomplete: "off", dataset: { role: "chat-input" } });
  const form = h("form", { class: "chat-form", dataset: { role: "chat-form" }, onsubmit: async (event) => {
    event.preventDefault();
    const text = p.input.value.trim();
    if (!text) return;
    if (await send(p, { text })) p.input.value = "";
  } },
  h("label", { for: "chat-input", class: "visually-hidden" }, t("Message")),
  p.input,
  h("button", { type: "submit", class: "primary", dataset: { role: "chat-send" } }, t("Send")));
  const phrases = h("div", { class: "chat-phrases", role: "group", "aria-label": t("Quick phrases"), dataset: { role: "chat-phrases" } },
    phraseList.map((phrase) => h("button", { type: "button", dataset: { role: "chat-phrase", phrase: phrase.code }, onclick: () => send(p, { phrase: phrase.code }) }, phrase.text)));
  const writable = first.room.can_write;
  const body = h("div", { class: "chat-body" },
    h("p", { class: "chat-mode", dataset: { role: "chat-mode" } }, modeText(first.room)),
    p.log, writable ? phrases : null, writable ? form : null, p.status);
  const aside = h("aside", { id: "chat", class: drawer ? "chat chat-drawer-mode" : "chat chat-inline", "aria-labelledby": "chat-title", dataset: { role: "chat", room } });
  if (drawer) {
    p.badge = h("span", { class: "chat-badge", dataset: { role: "chat-unread" }, hidden: true });
    p.opener = h("button", { type: "button", class: "chat-toggle primary", "aria-expanded": "false", "aria-controls": "chat-drawer", dataset: { role: "chat-toggle" }, onclick: () => toggle(p, p.drawer.hidden) },
      t("Chat"), " ", p.badge);
    p.drawer = h("div", { id: "chat-drawer", class: "chat-drawer", hidden: true },
      h("div", { class: "chat-head" }, h("h2", { id: "chat-title" }, t("Table chat")),
        h("button", { type: "button", dataset: { role: "chat-close" }, onclick: () => toggle(p, false) }, t("Close"))),
      body);
    p.drawer.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        toggle(p, false);
      }
    });
    aside.append(p.opener, p.drawer);
  } else {
    aside.append(h("h2", { id: "chat-title" }, room === "lobby" ? t("Lobby chat") : t("Tournament chat")), body);
  }
  p.aside = aside;
  document.getElementById("app").after(aside);
  add(p, first.messages);
  follow(p);
}

function stop() {
  if (!panel) return;
  panel.abort.abort();
  if (panel.aside) panel.aside.remove();
  panel = null;
}

export { mount, stop };
