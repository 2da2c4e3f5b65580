/* The player client's service worker (served at /play/sw.js, its scope /play/; docs/web.md "Notifications"):
 * shows each Web Push the site sends (its payload: title, body, link, tag, decrypted by the browser) and opens
 * its link when the player clicks it, in a tab of the client already open if there is one. */
"use strict";

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_) {
    data = {};
  }
  const title = data.title || "Ramino";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag,
      icon: "{{ icon }}",
      data: { link: data.link || "/play/" },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const link = new URL((event.notification.data && event.notification.data.link) || "/play/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (new URL(client.url).pathname === link.pathname && "focus" in client) {
          client.navigate(link.href);
          return client.focus();
        }
      }
      return self.clients.openWindow(link.href);
    })
  );
});
