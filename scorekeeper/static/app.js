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

  /* Watchers: the scoreboard polls with the ETag of the version it shows; an
     unchanged match answers 304 Not Modified, which must not be swapped in. */
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock(date) { return two(date.getHours()) + ":" + two(date.getMinutes()) + ":" + two(date.getSeconds()); }
  function localTimes(root) {
    var times = (root || document).querySelectorAll("time[data-local-time]");
    Array.prototype.forEach.call(times, function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      /* data-local-time="date": the date too (the match log), else the clock alone */
      t.textContent = t.getAttribute("data-local-time") === "date"
        ? when.getFullYear() + "-" + two(when.getMonth() + 1) + "-" + two(when.getDate()) + " " + two(when.getHours()) + ":" + two(when.getMinutes())
        : clock(when);
    });
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var etag = e.detail.elt && e.detail.elt.getAttribute && e.detail.elt.getAttribute("data-etag");
    if (etag && e.detail.verb === "get") e.detail.headers["If-None-Match"] = etag;
  });
  /* A saved hand's answer replaces the hand form by id; a preview still on its way for
     the old form has nowhere to go (its field messages belong to a form that is gone). */
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (e.detail.elt && e.detail.elt.isConnected === false) e.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (e.detail.elt && e.detail.elt.isConnected === false) { e.detail.shouldSwap = false; return; }
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status === 304) e.detail.shouldSwap = false;
    /* Error answers are swapped in (base.html's htmx-config) so a form shows its
       messages; a watcher's poll keeps its scoreboard instead and says it is retrying. */
    var source = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (status >= 400 && source && source.getAttribute && source.getAttribute("data-etag")) {
      e.detail.shouldSwap = false;
      e.detail.isError = true;
    }
  });
  /* A notice that just arrived (a hand saved, corrected or undone): bring it to the top
     of the screen, with the totals under it, and focus it so a screen reader reads it
     out (its box is also a live region). Once: the attribute goes. */
  function showNotice() {
    var notice = document.querySelector("#main [data-focus]");
    if (!notice) return false;
    notice.removeAttribute("data-focus");
    notice.focus({ preventScroll: true });
    notice.scrollIntoView({ block: "start" });
    return true;
  }
  /* A link followed in place (hx-boost) opens its page at the top, or at its #anchor, as
     a plain link would (the boost keeps the old scroll position otherwise); a notice that
     just arrived goes first. */
  document.addEventListener("htmx:afterSettle", function (e) {
    if (showNotice()) return;
    var config = e.detail.requestConfig;
    if (!config || !config.boosted || config.verb !== "get") return;
    var id = (config.path || "").split("#")[1];
    var target = id && document.getElementById(decodeURIComponent(id));
    if (target) target.scrollIntoView({ block: "start" }); else window.scrollTo(0, 0);
  });

  /* A sent form that comes back with errors: bring the first one into view. */
  document.addEventListener("htmx:afterSettle", function (e) {
    var config = e.detail.requestConfig;
    if (!config || config.verb !== "post" || !config.elt || config.elt.tagName !== "FORM") return;
    var scope = e.detail.target && e.detail.target.isConnected ? e.detail.target : document;
    var first = scope.querySelector(".alert.error, .field-messages") || document.querySelector("#main .alert.error, #main .field-messages");
    if (!first) return;
    var box = first.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) first.scrollIntoView({ block: "center" });
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail.elt;
    if (!elt || !elt.getAttribute || !elt.getAttribute("data-etag")) return;
    var live = document.querySelector("[data-live-checked]");
    if (live) live.textContent = e.detail.successful || (e.detail.xhr && e.detail.xhr.status === 304)
      ? "checked " + clock(new Date()) : "can't reach the scorekeeper, retrying";
  });

  /* A card counter's points (the preview says what the counted cards make): fill them
     into the points box when it is blank or was filled from the counter before, and
     list it in the form's counter_filled field so the server knows it was not typed.
     A number the scorer typed is never overwritten: the server says when they disagree. */
  function counterFilled(form) { return form && form.querySelector("input[data-counter-filled]"); }
  function setFilled(form, name, on) {
    var list = counterFilled(form);
    if (!list) return;
    var names = list.value.split(" ").filter(function (n) { return n && n !== name; });
    if (on) names.push(name);
    list.value = names.join(" ");
  }
  function fillFromCounter(preview) {
    var form = preview.closest("form");
    if (!counterFilled(form)) return;
    var offered = {};
    Array.prototype.forEach.call(preview.querySelectorAll("[data-fill]"), function (el) {
      offered[el.getAttribute("data-fill")] = el.getAttribute("data-fill-value");
    });
    Array.prototype.forEach.call(counterFilled(form).value.split(" ").filter(Boolean), function (name) {
      var input = form.querySelector('input[name="' + name + '"]');
      if (input && !(name in offered) && input.value === input.getAttribute("data-filled-value")) {
        input.value = ""; input.removeAttribute("data-filled-value"); setFilled(form, name, false);
      }
    });
    Object.keys(offered).forEach(function (name) {
      var input = form.querySelector('input[name="' + name + '"]');
      if (!input) return;
      if (input.value === "" || input.value === input.getAttribute("data-filled-value")) {
        input.value = offered[name];
        input.setAttribute("data-filled-value", offered[name]);
        setFilled(form, name, true);
      }
    });
  }
  document.addEventListener("input", function (e) {
    var input = e.target;
    if (!input || !input.hasAttribute || !input.hasAttribute("data-filled-value")) return;
    if (input.value !== input.getAttribute("data-filled-value")) {  /* typed over: the scorer's own number now */
      input.removeAttribute("data-filled-value");
      setFilled(input.form, input.name, false);
    }
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "preview") fillFromCounter(e.detail.target);
  });

  /* Fewer taps: numbers that always add up to a known total (a hand's 11 tricks): once
     all but one are typed, the last one follows. It is marked as filled in, so typing over
     it makes it the scorer's own, and it follows the others while it is not. */
  function fillLast(changed) {
    var name = changed.getAttribute("data-sum");
    var form = changed.form;
    if (!name || !form) return;
    var inputs = Array.prototype.slice.call(form.querySelectorAll('input[data-sum="' + name + '"]'));
    var total = parseInt(changed.getAttribute("data-sum-total"), 10);
    var open = inputs.filter(function (i) {
      return i.value === "" || i.value === i.getAttribute("data-filled-value");
    });
    if (open.length !== 1 || open[0] === changed || isNaN(total)) return;
    var sum = 0, bad = false;
    inputs.forEach(function (i) {
      if (i === open[0]) return;
      var n = Number(i.value);
      if (!/^\d+$/.test(i.value)) bad = true; else sum += n;
    });
    var last = open[0];
    if (bad || sum > total) {  /* nothing sensible to fill in: leave it to the scorer */
      if (last.hasAttribute("data-filled-value")) { last.value = ""; last.removeAttribute("data-filled-value"); }
      return;
    }
    last.value = String(total - sum);
    last.setAttribute("data-filled-value", last.value);
  }
  document.addEventListener("input", function (e) {
    if (e.target && e.target.hasAttribute && e.target.hasAttribute("data-sum")) fillLast(e.target);
  });

  /* Wi-Fi drops: a form whose request never got an answer (no connection, or no answer
     in time) keeps everything typed, says so, and offers to send it again. Its request
     key is unchanged, so a save that did reach the server is not saved twice. */
  function offlineBox(form, submitter) {
    var old = form.querySelector(".offline");
    if (old) old.remove();  /* one message, for the latest try */
    var box = document.createElement("div");
    box.className = "alert error offline";
    box.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = "Not sent: this phone could not reach the scorekeeper (Wi-Fi or signal?). " +
      "Everything you typed is still here. Nothing is saved twice: try again when the connection is back.";
    var again = document.createElement("button");
    again.type = "button";
    again.className = "button primary";
    again.textContent = "Try again";
    again.addEventListener("click", function () {
      box.remove();
      /* the same button again (a tally's tap carries its player) */
      if (form.requestSubmit) form.requestSubmit(submitter && submitter.isConnected ? submitter : undefined);
      else htmx.trigger(form, "submit");
    });
    box.appendChild(text);
    box.appendChild(again);
    var submit = form.querySelector("button[type=submit]");
    form.insertBefore(box, submit && submit.parentNode === form ? submit : null);
    box.scrollIntoView({ block: "center" });
    return box;
  }
  function unreached(e) {
    var elt = e.detail && e.detail.elt;
    if (!elt || !elt.closest) return;
    if (elt.id === "preview") {  /* the preview waits for the connection too */
      elt.textContent = "No connection: the preview comes back when the phone is online again.";
      return;
    }
    var form = elt.tagName === "FORM" ? elt : elt.closest("form");
    var config = e.detail.requestConfig || {};
    var event = config.triggeringEvent;
    if (form && config.verb === "post") offlineBox(form, event && event.submitter);
  }
  document.addEventListener("htmx:sendError", unreached);
  document.addEventListener("htmx:timeout", unreached);
  document.addEventListener("htmx:afterRequest", function (e) {  /* the form itself got through */
    var form = e.detail.elt;
    var box = form && form.tagName === "FORM" && e.detail.successful && form.querySelector(".offline");
    if (box) box.remove();
  });

  /* Share links: tap the address to select it; a Copy button where the clipboard is allowed. */
  function shareUrls(root) {
    var inputs = (root || document).querySelectorAll("input.share-url:not([data-copy])");
    Array.prototype.forEach.call(inputs, function (input) {
      input.setAttribute("data-copy", "");
      input.addEventListener("focus", function () { input.select(); });
      if (!navigator.clipboard || !window.isSecureContext) return;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "button small";
      b.textContent = "Copy link";
      b.addEventListener("click", function () {
        navigator.clipboard.writeText(input.value).then(function () { b.textContent = "Copied"; }, function () {});
      });
      input.parentNode.insertBefore(b, input.nextSibling);
    });
  }

  /* Share the result: the phone's share sheet where it has one, else Copy; the button is
     shown only where one of them works (the text itself is always on the page to select). */
  function canShare() { return typeof navigator.share === "function"; }
  function canCopy() { return !!(navigator.clipboard && window.isSecureContext); }
  function shareButtons(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("button[data-share-text]"), function (b) {
      if (!canShare() && !canCopy()) return;
      b.textContent = canShare() ? "Share…" : "Copy";
      b.hidden = false;
    });
  }
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest && e.target.closest("button[data-share-text]");
    var source = b && document.getElementById(b.getAttribute("data-share-text"));
    if (!source) return;
    var text = source.textContent.trim();
    if (canShare()) {
      navigator.share({ text: text }).catch(function () {});  /* closing the sheet is not an error */
    } else if (canCopy()) {
      navigator.clipboard.writeText(text).then(function () { b.textContent = "Copied"; }, function () {});
    }
  });

  /* New match: the first-dealer choices follow the names as they are typed. */
  document.addEventListener("input", function (e) {
    var m = e.target && e.target.name && /^player_(\d+)$/.exec(e.target.name);
    var option = m && document.querySelector('#first_dealer option[value="' + m[1] + '"]');
    if (option) option.textContent = e.target.value.trim() || "Player " + (Number(m[1]) + 1);
  });

  /* Print: a link marked data-print opens the print dialog instead of following itself
     (without JavaScript it simply opens the print view). The match page's Print button
     leads to the print view with dialog=1: there the dialog opens once the sheet is in. */
  document.addEventListener("click", function (e) {
    var link = e.target && e.target.closest && e.target.closest("a[data-print]");
    if (!link || typeof window.print !== "function") return;
    e.preventDefault();
    window.print();
  });
  function printOnArrival() {
    if (!document.body || !document.body.hasAttribute("data-print-dialog")) return;
    document.body.removeAttribute("data-print-dialog");
    if (window.history && window.history.replaceState) {  /* a reload shows the sheet, not the dialog again */
      window.history.replaceState(null, "", window.location.href.replace(/([?&])dialog=1(&|$)/, "$1").replace(/[?&]$/, ""));
    }
    window.setTimeout(function () { window.print(); }, 0);
  }

  /* Watchers: the page says it updates by itself only where it does (JavaScript on). */
  function liveHow(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-live-how]"), function (el) {
      el.textContent = "the score updates by itself.";
    });
  }

  function ready() { addSteppers(document); acquire(); localTimes(document); shareUrls(document); shareButtons(document); printOnArrival(); showNotice(); liveHow(document); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();
  document.addEventListener("htmx:load", function (e) { addSteppers(e.target); localTimes(e.target); shareUrls(e.target); shareButtons(e.target); liveHow(e.target); });
})();
