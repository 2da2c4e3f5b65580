/* The notification centre on every page of the player client (docs/web.md "Notifications"): a button in the top
 * bar with the unread count as its badge, a panel listing the newest notifications (each a link to what it is
 * about; opening one marks it read; "Mark all as read"), and the settings page #/notifications (each kind on or
 * off per channel: in the client, e-mail, Web Push; this browser's push subscription).
 *
 * Fed by the socket's `me` topic (R.socket.me: a message of kind "notification" carries one, as the list gives
 * it) and by GET /me/notifications/ when the page opens; while the socket is down, the count and list are read
 * again every 30 s. The player's language is stored for what is sent to them away from the page (e-mail, push):
 * the page's, whenever it differs from the stored one. */
import * as api from "./api.js";
import { h, clear, flash } from "./dom.js";
import * as dom from "./dom.js";
import { t, tn } from "./i18n.js";
import * as i18n from "./i18n.js";
import * as socket from "./socket.js";

const PAGE = 20;
const POLL_MS = 30000;
const WORKER = "/play/sw.js";

let items = [];
let unread = 0;
let started = false;
let stopFollowing = null;
let timer = null;

function parts() {
  return {
    button: document.querySelector("[data-role=notifications]"),
    badge: document.querySelector("[data-role=notifications-badge]"),
    panel: document.getElementById("notices"),
  };
}

function drawBadge() {
  const { button, badge } = parts();
  if (!button) return;
  badge.textContent = i18n.number(unread);
  badge.hidden = unread === 0;
  button.setAttribute(
    "aria-label",
    unread ? tn("Notifications, %(n)s unread", "Notifications, %(n)s unread", unread, { n: unread }) : t("Notifications")
  );
}

function drawList() {
  const { panel } = parts();
  if (!panel) return;
  const list = clear(panel.querySelector("[data-role=notices-list]"));
  if (!items.length) {
    list.append(h("li", { class: "empty" }, t("Nothing new.")));
  }
  for (const item of items) {
    list.append(
      h(
        "li",
        { class: item.read ? "notice read" : "notice unread", dataset: { id: String(item.id), kind: item.kind } },
        h(
          "a",
          { href: item.link, onclick: () => open(item) },
          h("strong", {}, item.title),
          item.read ? null : h("span", { class: "visually-hidden" }, t(" (unread)")),
          h("span", { class: "notice-body" }, item.body)
        ),
        h("time", { datetime: item.created_at }, dom.when(item.created_at))
      )
    );
  }
  panel.querySelector("[data-role=notices-read-all]").disabled = unread === 0;
}

async function load() {
  try {
    const [page, count] = await Promise.all([
      api.get(`/me/notifications/?page_size=${PAGE}`),
      api.get("/me/notifications/unread/"),
    ]);
    items = page.results;
    unread = count.unread;
    drawBadge();
    drawList();
  } catch (_) {
    // signed out meanwhile, or the server away: the next poll or message tries again
  }
}

function received(kind, data) {
  if (kind !== "notification" || !data || items.some((i) => i.id === data.id)) return;
  items = [data, ...items].slice(0, PAGE);
  if (!data.read) unread += 1;
  drawBadge();
  drawList();
  flash(`${data.title}: ${data.body}`);
}

async function markRead(ids) {
  const answer = await api.post("/me/notifications/read/", ids ? { ids } : {});
  for (const item of items) if (!ids || ids.includes(item.id)) item.read = true;
  unread = answer.unread;
  drawBadge();
  drawList();
}

function open(item) {
  if (!item.read) markRead([item.id]).catch(() => {});
  toggle(false);
}

function toggle(show) {
  const { button, panel } = parts();
  if (!panel) return;
  const visible = show === undefined ? panel.hidden : show;
  panel.hidden = !visible;
  button.setAttribute("aria-expanded", String(visible));
  if (visible) panel.querySelector("h2").focus();
}

async function syncLanguage() {
  try {
    const mine = await api.get("/me/notification-settings/");
    if (mine.language !== i18n.lang()) {
      await api.call("PUT", "/me/notification-settings/", { body: { language: i18n.lang() } });
    }
  } catch (_) {
    // told in the stored language until the next page
  }
}

function start() {
  if (started) return;
  started = true;
  document.querySelector("[data-role=notifications-wrap]").hidden = false;
  stopFollowing = socket.me(received);
  load();
  syncLanguage();
  timer = setInterval(() => {
    if (!socket.live()) load();
  }, POLL_MS);
}

function stop() {
  if (!started) return;
  started = false;
  if (stopFollowing) stopFollowing();
  clearInterval(timer);
  items = [];
  unread = 0;
  toggle(false);
  document.querySelector("[data-role=notifications-wrap]").hidden = true;
  drawBadge();
}

/* ---- the settings page (#/notifications) ---- */

const KINDS = [
  ["your_turn", () => t("Your turn (when you are not looking at the table)")],
  ["tournament_soon", () => t("Your tournament starts in 5 minutes")],
  ["tournament_started", () => t("Your tournament has started")],
  ["table_moved", () => t("Your table moved")],
  ["prize_won", () => t("You won a prize")],
  ["deal_proposed", () => t("A deal is proposed at your table")],
];
const CHANNELS = [
  ["client", () => t("In the client")],
  ["email", () => t("E-mail")],
  ["push", () => t("Push")],
];

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && window.isSecureContext;
}

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration(WORKER);
  return registration ? registration.pushManager.getSubscription() : null;
}

async function subscribePush(publicKey) {
  if ((await Notification.requestPermission()) !== "granted") {
    flash(t("The browser did not allow notifications."), "error");
    return;
  }
  const registration = await navigator.serviceWorker.register(WORKER, { scope: "/play/" });
  await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  await api.post("/me/push-subscriptions/", subscription.toJSON());
  flash(t("This browser now receives push notifications."));
}

async function unsubscribePush() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await api.post("/me/push-subscriptions/unsubscribe/", { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
  flash(t("This browser no longer receives push notifications."));
}

async function pushPanel(mine, redraw) {
  const box = h("div", { class: "push-panel" });
  if (!mine.push.available) {
    box.append(h("p", { class: "hint" }, t("This site does not send push notifications.")));
    return box;
  }
  if (!pushSupported()) {
    box.append(h("p", { class: "hint" }, t("This browser cannot receive push notifications.")));
    return box;
  }
  const subscribed = Boolean(await currentSubscription());
  box.append(
    h(
      "p",
      { class: "hint" },
      subscribed ? t("This browser receives push notifications.") : t("This browser receives no push notifications.")
    ),
    h(
      "button",
      {
        type: "button",
        dataset: { role: subscribed ? "push-off" : "push-on" },
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            if (subscribed) await unsubscribePush();
            else await subscribePush(mine.push.public_key);
          } catch (err) {
            flash(err.describe ? err.describe() : String(err), "error");
          }
          redraw();
        },
      },
      subscribed ? t("Stop push notifications here") : t("Receive push notifications here")
    )
  );
  return box;
}

async function render(root) {
  const mine = await api.get("/me/notification-settings/");
  const redraw = () => render(root).catch((err) => flash(String(err), "error"));
  const head = h("tr", {}, h("th", { scope: "col" }, t("Notification")), CHANNELS.map(([, name]) => h("th", { scope: "col" }, name())));
  const rows = KINDS.map(([kind, name]) =>
    h(
      "tr",
      {},
      h("th", { scope: "row", id: `kind-${kind}` }, name()),
      CHANNELS.map(([channel, channelName]) =>
        h(
          "td",
          { dataset: { label: channelName() } },
          h("input", {
            type: "checkbox",
            name: `${kind}.${channel}`,
            checked: mine.switches[kind][channel],
            "aria-label": `${name()}: ${channelName()}`,
            onchange: async (event) => {
              const box = event.currentTarget;
              try {
                await api.call("PUT", "/me/notification-settings/", {
                  body: { switches: { [kind]: { [channel]: box.checked } } },
                });
                flash(t("Saved."));
              } catch (err) {
                box.checked = !box.checked;
                flash(err.describe ? err.describe() : String(err), "error");
              }
            },
          })
        )
      )
    )
  );
  clear(root).append(
    h(
      "section",
      { class: "panel notification-settings" },
      h("h1", {}, t("Notifications")),
      h("p", { class: "hint" }, t("Choose what Ramino tells you, and how.")),
      mine.email ? null : h("p", { class: "hint" }, t("Your account has no e-mail address: nothing is sent by e-mail.")),
      h("table", { class: "grid switches", dataset: { layout: "table" } }, h("thead", {}, head), h("tbody", {}, rows)),
      h("h2", {}, t("Push notifications")),
      await pushPanel(mine, redraw)
    )
  );
}

document.addEventListener("DOMContentLoaded", () => {
  const { button, panel } = parts();
  if (!button || !panel) return;
  button.addEventListener("click", () => toggle());
  panel.querySelector("[data-role=notices-read-all]").addEventListener("click", () => markRead(null).catch(() => {}));
  panel.querySelector("[data-role=notices-settings]").addEventListener("click", () => toggle(false));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      toggle(false);
      button.focus();
    }
  });
  drawBadge();
  drawList();
});

export { start, stop, render, received };
