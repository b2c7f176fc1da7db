// Carries what the phone's own Python queued for the server (scorekeeper/phone_sync.py
// decides what and when; this only moves requests and answers): after the app answered a
// request, each waiting item is posted to the server that serves the kept app, and its
// answer handed back to Python. With no server in reach the first fetch fails and the rest
// wait for the next time. Only an app kept from `scorekeeper serve` (mounted at /offline/)
// has a server to send to; a static build is on this phone only.
export function serverOf(scope) {
  return scope.endsWith("/offline/") ? new URL("../", scope).href : null;
}

const GIVE_UP_MS = 20000;  // a server that took the connection and never answers: asked again later

// ``python(fn)`` runs fn(module, phone) in the app's own queue (and saves the phone's
// storage after it); the fetches wait outside it, so a server that does not answer (a
// laptop asleep, a network that passes nothing back) never holds up the phone's pages.
export async function sendWaiting(server, python) {
  const items = JSON.parse(await python((module, phone) => module.outbox(phone)));
  for (const item of items) {
    let status, text;
    try {
      const reply = await fetch(new URL(item.path, server).href, {
        method: item.method, body: item.body, credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        signal: AbortSignal.timeout(GIVE_UP_MS),
      });
      status = reply.status;
      text = await reply.text();
    } catch {
      break;  // no server in reach: everything waits, in order
    }
    await python((module, phone) => module.received(phone, item.id, status, text));
  }
}

// One sending at a time; a tap answered meanwhile sends again once it is done.
export function sender(server, python) {
  let sending = false, again = false;
  return function send() {
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    (async () => {
      do {
        again = false;
        await sendWaiting(server, python);
      } while (again);
    })().catch((error) => console.warn("Sending to the server waits:", error)).finally(() => { sending = false; });
  };
}
