// Carries what the phone's own Python queued for the server (scorekeeper/phone_sync.py
// decides what and when; this only moves requests and answers): after the app answered a
// request, each waiting item is posted to the server that serves the kept app, and its
// answer handed back to Python. With no server in reach the first fetch fails and the rest
// wait for the next time. Only an app kept from `scorekeeper serve` (mounted at /offline/)
// has a server to send to; a static build is on this phone only.
export function serverOf(scope) {
  return scope.endsWith("/offline/") ? new URL("../", scope).href : null;
}

export async function sendWaiting(server, app, save) {
  const { module, phone } = app;
  const items = JSON.parse(module.outbox(phone));
  for (const item of items) {
    let status, text;
    try {
      const reply = await fetch(new URL(item.path, server).href, {
        method: item.method, body: item.body, credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
      });
      status = reply.status;
      text = await reply.text();
    } catch {
      break;  // no server in reach: everything waits, in order
    }
    module.received(phone, item.id, status, text);
  }
  await save();
}
