/* Scorekeeper: small progressive enhancements. Everything works without this file. */
(function () {
  "use strict";

  /* Screen Wake Lock: keep the phone awake while a match page is visible. */
  var lock = null;
  function wantsLock() {
    return document.visibilityState === "visible" && document.querySelector("[data-wake-lock]");
  }
  function acquire() {
    if (!("wakeLock" in navigator) || lock || !wantsLock()) return;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* not allowed here: ignore */ });
  }
  function release() {
    if (lock && !document.querySelector("[data-wake-lock]")) {
      lock.release().catch(function () {});
      lock = null;
    }
  }
  document.addEventListener("visibilitychange", acquire);
  document.addEventListener("htmx:afterSettle", function () { release(); acquire(); });

  /* +/- steppers beside number inputs marked data-stepper (only with JS on). */
  function addSteppers(root) {
    var inputs = (root || document).querySelectorAll("input[data-stepper]:not([data-stepped])");
    Array.prototype.forEach.call(inputs, function (input) {
      input.setAttribute("data-stepped", "");
      var wrap = document.createElement("span");
      wrap.className = "stepper";
      input.parentNode.insertBefore(wrap, input);
      function button(text, delta, label) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "step";
        b.textContent = text;
        b.setAttribute("aria-label", label + " " + (input.labels && input.labels[0] ? input.labels[0].textContent : ""));
        b.tabIndex = -1;
        b.addEventListener("click", function () {
          var value = parseInt(input.value, 10);
          if (isNaN(value)) value = Math.max(0, delta); else value += delta;
          if (input.min !== "" && value < Number(input.min)) value = Number(input.min);
          input.value = String(value);
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
        });
        return b;
      }
      wrap.appendChild(button("−", -1, "One less"));
      wrap.appendChild(input);
      wrap.appendChild(button("+", 1, "One more"));
    });
  }

  function ready() { addSteppers(document); acquire(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();
  document.addEventListener("htmx:load", function (e) { addSteppers(e.target); });
})();
