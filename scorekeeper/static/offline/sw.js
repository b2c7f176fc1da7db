// The app kept on this phone: answers the app's requests by calling the same Flask app
// inside Pyodide (scorekeeper/phone.py), with the phone's data in IndexedDB. Written into
// a build by scorekeeper/offline.py, which fills in the version and the files to keep.
import { loadPyodide } from "./_phone/pyodide.mjs";
import createPyodideModule from "./_phone/pyodide.asm.mjs";
import { sendWaiting, serverOf } from "./_phone/sync.js";

const VERSION = "__VERSION__";
const CACHE = `scorekeeper-${VERSION}`;
const FILES = ["__FILES__"];  // the runtime's data and app.zip (the two scripts above are kept as the worker's own)
const SCOPE = self.registration.scope;  // the app is mounted here, e.g. https://host/offline/
const DATA = "/phone";  // the phone's folder in Pyodide: database, session key, cookies (IndexedDB)

const network = self.fetch.bind(self);

async function kept(url) {
  const cache = await caches.open(CACHE);
  return (await cache.match(url)) || network(url);
}

// Pyodide fetches its runtime files itself: from the cache, so it starts with no network
self.fetch = (input, init) => {
  const url = typeof input === "string" || input instanceof URL ? new URL(input, SCOPE).href : null;
  return url && url.startsWith(SCOPE + "_phone/") ? kept(url) : network(input, init);
};

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES.map((name) => new URL(name, SCOPE).href));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("scorekeeper-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function sync(pyodide, load) {
  return new Promise((resolve, reject) => pyodide.FS.syncfs(load, (error) => (error ? reject(error) : resolve())));
}

async function boot() {
  const started = performance.now();
  const pyodide = await loadPyodide({ indexURL: new URL("_phone/", SCOPE).href, createPyodideModule });
  const zip = await (await kept(new URL("_phone/app.zip", SCOPE).href)).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/app" });
  pyodide.runPython("import sys; sys.path.insert(0, '/app')");
  pyodide.FS.mkdirTree(DATA);
  pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, DATA);
  await sync(pyodide, true);
  const module = pyodide.pyimport("scorekeeper.phone");
  const phone = module.start(DATA);
  await sync(pyodide, false);
  return { pyodide, module, phone, ms: Math.round(performance.now() - started) };
}

let app = null;
function start() {
  app ??= boot().catch((error) => {
    app = null;  // the next request tries again
    throw error;
  });
  return app;
}

let turn = Promise.resolve();  // one request at a time: each is saved before the next begins

async function answer(request, path) {
  const body = new Uint8Array(await request.arrayBuffer());
  const headers = [...request.headers];
  const mine = turn.then(async () => {
    const { pyodide, module, phone } = await start();
    const result = module.answer(phone, { method: request.method, path, root: SCOPE, headers, body });
    const [status, answerHeaders, content] = result.toJs();
    result.destroy();
    await sync(pyodide, false);  // on the phone's storage before the page hears it was saved
    const empty = status === 204 || status === 304 || request.method === "HEAD";
    return new Response(empty ? null : content, { status, headers: answerHeaders });
  });
  turn = mine.catch(() => undefined);
  const server = serverOf(SCOPE);
  if (server) {  // then what waits for the server, in the same queue (sync.js)
    turn = turn.then(() => start()).then((ready) => sendWaiting(server, ready, () => sync(ready.pyodide, false)))
      .catch((error) => console.warn("Sending to the server waits:", error));
  }
  try {
    return await mine;
  } catch (error) {
    console.error(error);
    return new Response(`The app on this phone failed: ${error}`, { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

self.addEventListener("fetch", (event) => {
  const url = event.request.url;
  if (!url.startsWith(SCOPE)) return;  // another site's: the browser's business
  const rest = url.slice(SCOPE.length);
  if (rest.startsWith("_phone/") || rest === "sw.js") {
    event.respondWith(kept(url));
  } else {
    event.respondWith(answer(event.request, "/" + rest));
  }
});

// The first page asks once the worker is installed: it shows the app when Python answers.
self.addEventListener("message", (event) => {
  event.waitUntil(start().then(
    (ready) => event.source.postMessage({ ready: true, ms: ready.ms, version: VERSION }),
    (error) => event.source.postMessage({ error: String(error) }),
  ));
});
