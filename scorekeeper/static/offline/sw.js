// The app kept on this phone: answers the app's requests by calling the same Flask app
// inside Pyodide (scorekeeper/phone.py), with the phone's data in IndexedDB. Written into
// a build by scorekeeper/offline.py, which fills in the version and the files to keep.
import { loadPyodide } from "./_phone/pyodide.mjs";
import createPyodideModule from "./_phone/pyodide.asm.mjs";
import { sender, serverOf } from "./_phone/sync.js";

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

// The standard library and the app as this phone's first start compiled them (phone.py's
// compiled_copy), kept beside the runtime: later starts skip compiling (about two thirds of
// a cold start). Absent until the first start has made them; a new version makes its own.
const COMPILED_STDLIB = new URL("_phone/compiled/python_stdlib.zip", SCOPE).href;
const COMPILED_APP = new URL("_phone/compiled/app.zip", SCOPE).href;

async function boot() {
  const started = performance.now();
  const cache = await caches.open(CACHE);
  const compiled = Boolean(await cache.match(COMPILED_STDLIB)) && Boolean(await cache.match(COMPILED_APP));
  const pyodide = await loadPyodide({
    indexURL: new URL("_phone/", SCOPE).href, createPyodideModule,
    ...(compiled ? { stdLibURL: COMPILED_STDLIB } : {}),
  });
  const zip = new Uint8Array(await (await kept(compiled ? COMPILED_APP : new URL("_phone/app.zip", SCOPE).href)).arrayBuffer());
  pyodide.unpackArchive(zip, "zip", { extractDir: "/app" });
  if (!compiled) pyodide.FS.writeFile("/tmp/app.zip", zip);  // the source of the compiled copy
  pyodide.runPython("import sys; sys.path.insert(0, '/app')");
  pyodide.FS.mkdirTree(DATA);
  pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, DATA);
  await sync(pyodide, true);
  const module = pyodide.pyimport("scorekeeper.phone");
  const phone = module.start(DATA, serverOf(SCOPE));
  await sync(pyodide, false);
  return { pyodide, module, phone, compiled, ms: Math.round(performance.now() - started) };
}

// After the first start has answered: keep what it compiled for the next starts. Python
// runs one thing at a time, so a request that comes meanwhile waits (once per version).
async function keepCompiled(ready) {
  if (ready.compiled) return;
  const { pyodide, module } = ready;
  const stdlib = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('.zip'))");
  module.compiled_copy.callKwargs(stdlib, "/tmp/python_stdlib.compiled.zip", stdlib + "/", { beside: true });
  module.compiled_copy.callKwargs("/tmp/app.zip", "/tmp/app.compiled.zip", "/app/", { beside: false });
  const cache = await caches.open(CACHE);
  const zipped = { headers: { "Content-Type": "application/zip" } };
  await cache.put(COMPILED_STDLIB, new Response(pyodide.FS.readFile("/tmp/python_stdlib.compiled.zip"), zipped));
  await cache.put(COMPILED_APP, new Response(pyodide.FS.readFile("/tmp/app.compiled.zip"), zipped));
  ready.compiled = true;
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

// fn(module, phone) in that queue, the phone's storage saved after it (sync.js's sending)
function python(fn) {
  const mine = turn.then(async () => {
    const { pyodide, module, phone } = await start();
    const result = fn(module, phone);
    await sync(pyodide, false);
    return result;
  });
  turn = mine.catch(() => undefined);
  return mine;
}

const server = serverOf(SCOPE);
const sendSoon = server ? sender(server, python) : () => {};

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
  mine.then(sendSoon, () => undefined);  // then what waits for the server (sync.js), outside this queue
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
    (ready) => {
      event.source.postMessage({ ready: true, ms: ready.ms, version: VERSION });
      const compiling = turn.then(() => keepCompiled(ready));
      turn = compiling.catch((error) => console.warn("The compiled copy waits for the next start:", error));
      return turn;
    },
    (error) => event.source.postMessage({ error: String(error) }),
  ));
});
