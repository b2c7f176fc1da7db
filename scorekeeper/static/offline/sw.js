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

// Where a start's time goes: [step, ms since the worker began] (bench/offline.py --breakdown)
const STEPS = [];
function step(name) {
  STEPS.push([name, Math.round(performance.now())]);
}
self.startSteps = STEPS;
step("worker's scripts loaded");
// Pyodide's memory must hold a snapshot before it is copied in: the runtime ignores the size
// it is given (INITIAL_MEMORY), so the memory is grown here, as the runtime is instantiated.
let memoryWanted = 0;
const instantiate = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async (...args) => {
  const made = await instantiate(...args);
  const memory = made.instance.exports.memory;
  if (memory && memoryWanted > memory.buffer.byteLength) {
    memory.grow(Math.ceil((memoryWanted - memory.buffer.byteLength) / 65536));
  }
  step("pyodide.asm.wasm compiled");
  return made;
};
// the packages the first page needs, imported one by one only to time each (each needs the one before)
const TIMED_IMPORTS = ["werkzeug", "jinja2", "flask", "wtforms", "sqlite_utils", "scorekeeper.engine",
  "scorekeeper.games", "scorekeeper.web", "scorekeeper.phone"];

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
// Pyodide's memory once the compiled copies are read and everything the first start imported
// is imported again (keepSnapshot): a start from it skips starting Python and those imports.
const SNAPSHOT = new URL("_phone/compiled/memory.bin", SCOPE).href;

// Writes each file of a compiled copy (a zip of stored files: phone.py's compiled_copy) into
// Pyodide's file system under ``folder``. Done here rather than by pyodide.unpackArchive,
// which unzips in Python, 4 times slower (bench/offline.py --breakdown).
function unzip(FS, zip, folder) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;  // the central directory's end
  if (end < 0) throw new Error("the compiled copy is not a zip");
  const count = view.getUint16(end + 10, true);
  const names = new TextDecoder();
  let entry = view.getUint32(end + 16, true);
  for (let n = 0; n < count; n += 1) {
    const method = view.getUint16(entry + 10, true);
    const size = view.getUint32(entry + 20, true);
    const nameLength = view.getUint16(entry + 28, true);
    const skip = nameLength + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
    const name = names.decode(zip.subarray(entry + 46, entry + 46 + nameLength));
    const local = view.getUint32(entry + 42, true);
    entry += 46 + skip;
    if (name.endsWith("/")) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (method !== 0) throw new Error(`${name} is not stored as it is in the compiled copy`);
    const data = zip.subarray(start, start + size);
    const path = folder + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, data);
  }
}

function runtime(options) {
  return loadPyodide({ indexURL: new URL("_phone/", SCOPE).href, createPyodideModule, ...options });
}

// Python started from the snapshot, or null where there is none or it cannot be read (then
// it is dropped, and the next start after this one makes it again).
async function fromSnapshot(cache) {
  const kept = await cache.match(SNAPSHOT);
  if (!kept) return null;
  const snapshot = new Uint8Array(await kept.arrayBuffer());
  step(`snapshot read from the cache (${(snapshot.length / 1e6).toFixed(1)} MB)`);
  memoryWanted = snapshot.length;
  try {
    return await runtime({ stdLibURL: COMPILED_STDLIB, _loadSnapshot: snapshot });
  } catch (error) {
    console.warn("The snapshot could not be read; Python starts without it:", error);
    step(`snapshot not read (${error})`);
    await cache.delete(SNAPSHOT);
    return null;
  } finally {
    memoryWanted = 0;
  }
}

async function boot() {
  const started = performance.now();
  step("start asked");
  const cache = await caches.open(CACHE);
  const compiled = Boolean(await cache.match(COMPILED_STDLIB)) && Boolean(await cache.match(COMPILED_APP));
  let pyodide = compiled ? await fromSnapshot(cache) : null;
  const snapshot = pyodide !== null;
  if (snapshot) {
    step("loadPyodide (from the snapshot)");
  } else {
    pyodide = await runtime(compiled ? { stdLibURL: COMPILED_STDLIB } : {});
    step(`loadPyodide (its ${compiled ? "compiled" : "source"} standard library read, Python started)`);
  }
  const zip = new Uint8Array(await (await kept(compiled ? COMPILED_APP : new URL("_phone/app.zip", SCOPE).href)).arrayBuffer());
  if (compiled) {
    unzip(pyodide.FS, zip, "/app/");
  } else {
    pyodide.unpackArchive(zip, "zip", { extractDir: "/app" });
    pyodide.FS.writeFile("/tmp/app.zip", zip);  // the source of the compiled copy
  }
  if (!snapshot) addApp(pyodide);  // a snapshot has it already
  step("app.zip unpacked");
  pyodide.FS.mkdirTree(DATA);
  pyodide.FS.mount(pyodide.FS.filesystems.IDBFS, {}, DATA);
  await sync(pyodide, true);
  step("phone's folder read from IndexedDB");
  for (const name of TIMED_IMPORTS) {
    pyodide.pyimport(name).destroy();
    step(`import ${name}`);
  }
  const module = pyodide.pyimport("scorekeeper.phone");
  const phone = module.start(DATA, serverOf(SCOPE));
  step("create_app (database opened, migrated)");
  await sync(pyodide, false);
  step("phone's folder written to IndexedDB");
  return { pyodide, module, phone, compiled, snapshot, ms: Math.round(performance.now() - started) };
}

function addApp(pyodide) {
  const sys = pyodide.pyimport("sys");
  sys.path.insert(0, "/app");
  sys.destroy();
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

// After the compiled copies are kept: a second Python, started from them, imports what this
// one imported and its memory is kept (Pyodide's makeMemorySnapshot). Made once per version;
// it is then dropped, this start goes on with its own.
async function keepSnapshot(ready) {
  if (ready.snapshot || !ready.compiled) return;
  const cache = await caches.open(CACHE);
  if (await cache.match(SNAPSHOT)) return;
  const imported = ready.module.imported_modules();
  const names = imported.toJs();
  imported.destroy();
  const maker = await runtime({ stdLibURL: COMPILED_STDLIB, _makeSnapshot: true });
  unzip(maker.FS, new Uint8Array(await (await kept(COMPILED_APP)).arrayBuffer()), "/app/");
  addApp(maker);
  const phone = maker.pyimport("scorekeeper.phone");
  phone.import_again(names, "/tmp/snapshot-phone");
  phone.destroy();
  await cache.put(SNAPSHOT, new Response(maker.makeMemorySnapshot(), { headers: { "Content-Type": "application/octet-stream" } }));
  ready.snapshot = true;
}

// What is kept for the next starts, once per worker and version, after the first answer:
// the compiled copies in the queue (this Python makes them: a request that comes meanwhile
// waits), then the snapshot beside it (another Python makes it: requests go on).
function keepForNextStarts(ready) {
  if (!ready.keeping) {
    const compiled = turn.then(() => keepCompiled(ready));
    turn = compiled.catch(() => undefined);
    ready.keeping = compiled.then(() => keepSnapshot(ready))
      .catch((error) => console.warn("What speeds up the next start waits for it:", error));
  }
  return ready.keeping;
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
    const ready = await start();
    const { pyodide, module, phone } = ready;
    const result = module.answer(phone, { method: request.method, path, root: SCOPE, headers, body });
    const [status, answerHeaders, content] = result.toJs();
    result.destroy();
    await sync(pyodide, false);  // on the phone's storage before the page hears it was saved
    if (!STEPS.some(([name]) => name.startsWith("first answer"))) step(`first answer (${path})`);
    setTimeout(() => keepForNextStarts(ready), 2000);  // when the first page has what it asked for
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
      return keepForNextStarts(ready);
    },
    (error) => event.source.postMessage({ error: String(error) }),
  ));
});
