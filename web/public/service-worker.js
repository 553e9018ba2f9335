/*
 * The app's service worker: it shows the web pushes the server sends (functions/lib/web-push.ts:
 * JSON {title, body, url}) and, when one is clicked, focuses the tab already on its page or
 * opens it. Registered only when a user turns push on (web/src/features/notifications/hooks/useWebPush.ts).
 */

/** What a notification opens when the push names no page of this site. */
const FALLBACK_PATH = '/notifications';

/** The page a push opens, on this site only: a payload naming another origin opens the notifications list. */
function targetUrl(path) {
  const url = new URL(typeof path === 'string' ? path : FALLBACK_PATH, self.location.origin);
  return url.origin === self.location.origin ? url.href : new URL(FALLBACK_PATH, self.location.origin).href;
}

self.addEventListener('push', (event) => {
  let payload;
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    // Not JSON: shown as the body.
    payload = { body: event.data.text() };
  }
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'OddJobs';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof payload.body === 'string' ? payload.body : '',
      icon: '/favicon.svg',
      data: { url: targetUrl(payload.url) },
    }),
  );
});

/** Focuses a tab of the app already on `href`, or opens it in a new one. */
async function openOrFocus(href) {
  const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = tabs.find((tab) => tab.url === href);
  return open ? open.focus() : self.clients.openWindow(href);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openOrFocus(targetUrl(event.notification.data && event.notification.data.url)));
});
