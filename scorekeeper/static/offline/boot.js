// The first page of the kept app: installs the service worker (sw.js), waits until the
// app answers inside it, then shows the app. Later visits go straight to the app.
const status = document.getElementById("status");

function say(text) {
  status.textContent = text;
}

async function keep() {
  if (!window.isSecureContext || !("serviceWorker" in navigator)) {
    say("Keeping the app on this phone needs HTTPS: open it at an https:// address. "
        + "Scoring with the server works as before.");
    return;
  }
  await navigator.serviceWorker.register("sw.js", { type: "module" });
  const registration = await navigator.serviceWorker.ready;
  // a slow phone takes a while the first time (the whole app is compiled): say so, or it looks stuck
  say("Starting the app on this phone… The first start takes longest: keep this page open.");
  const reply = await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("message", (event) => resolve(event.data), { once: true });
    registration.active.postMessage("start");
  });
  if (reply.error) {
    say(`The app could not start on this phone: ${reply.error}`);
    return;
  }
  location.reload();  // now answered by the app on this phone
}

keep().catch((error) => say(`The app could not be kept on this phone: ${error}`));
