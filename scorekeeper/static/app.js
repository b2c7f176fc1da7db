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

  /* "0 for the rest": every box of its group still blank gets the number, typed in where
     the scorer sees it (the preview and the draft follow as for any typing). */
  document.addEventListener("click", function (e) {
    var b = e.target && e.target.closest && e.target.closest("button[data-fill-blank]");
    if (!b) return;
    e.preventDefault();
    var group = b.closest("fieldset");
    var prefix = b.value + "_";
    Array.prototype.forEach.call(group ? group.querySelectorAll("input") : [], function (input) {
      if (input.name.indexOf(prefix) !== 0 || input.value !== "") return;
      input.value = b.getAttribute("data-fill-blank");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  });

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
  /* A scorer's page polls too: its ETag is the version the hand form's slot was drawn
     for (a save's answer brings a new one, not a new #match-live), and the form's request
     key lets the server say that a save whose answer was lost did happen. */
  function pollForm(elt) { return elt.querySelector && elt.querySelector("form[data-draft]"); }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt;
    /* a link followed in place goes where it points now: htmx reads a boosted link's
       address once, and the referee link's is set in place as the hand is typed */
    if (e.detail.boosted && elt && elt.tagName === "A" && e.detail.verb === "get" && elt.getAttribute("href")) {
      e.detail.path = elt.getAttribute("href");
    }
    var etag = elt && elt.getAttribute && elt.getAttribute("data-etag");
    if (!etag || e.detail.verb !== "get") return;
    var drawn = elt.querySelector && elt.querySelector("#match-record[data-version]");
    if (drawn && /^\d+$/.test(drawn.getAttribute("data-version"))) etag = 'W/"v' + drawn.getAttribute("data-version") + '"';
    if (skipPoll(elt, etag, e.detail.triggeringEvent)) { e.preventDefault(); return; }
    var form = pollForm(elt);
    if (form && form.elements.request_key && e.detail.parameters.key === undefined) {
      e.detail.parameters.key = form.elements.request_key.value;
    }
    e.detail.headers["If-None-Match"] = etag;
  });
  /* A poll costs the server little, but thousands of phones poll: none while the page is
     hidden (another tab, a phone asleep), one at once when it is shown again ("shown", in
     the poll's hx-trigger), and fewer while the match is idle: once nothing has changed for
     data-idle-after seconds, one poll in data-idle-every seconds (the page says both). */
  function skipPoll(elt, etag, why) {
    var now = Date.now();
    if (elt.pollTag !== etag) { elt.pollTag = etag; elt.changedAt = now; }
    if (why && why.type === "shown") { elt.polledAt = now; return false; }
    if (document.visibilityState === "hidden") return true;
    var idleAfter = Number(elt.getAttribute("data-idle-after")) * 1000;
    var idleEvery = Number(elt.getAttribute("data-idle-every")) * 1000;
    if (idleAfter && idleEvery && now - elt.changedAt >= idleAfter && now - (elt.polledAt || 0) < idleEvery - 500) return true;
    elt.polledAt = now;
    return false;
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") document.dispatchEvent(new Event("shown"));
  });
  /* Not while this page has a request of its own out (a save, a link being followed):
     its answer lands on what is there now. */
  function busy(root) {
    return Array.prototype.some.call(root.querySelectorAll(".htmx-request"), function (el) { return el.id !== "preview"; });
  }
  /* A saved hand's answer replaces the hand form by id; a preview still on its way for
     the old form has nowhere to go (its field messages belong to a form that is gone). */
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.isConnected === false) { e.preventDefault(); return; }
    if (elt && elt.getAttribute && elt.getAttribute("data-etag") && busy(elt)) e.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    /* only an answer whose place is gone is dropped: a link followed is never dropped
       because something near it was redrawn while its page was on its way */
    if (e.detail.target && e.detail.target.isConnected === false) { e.detail.shouldSwap = false; return; }
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status === 304) e.detail.shouldSwap = false;
    /* 503: the server could not save (its disk is full, its database read-only). The form
       stays as typed, with the server's words and a Try again, as when the Wi-Fi drops. */
    var config = e.detail.requestConfig || {};
    var sent = config.elt && (config.elt.tagName === "FORM" ? config.elt : config.elt.closest && config.elt.closest("form"));
    if (status === 503 && sent && config.verb === "post" && sent.isConnected) {
      e.detail.shouldSwap = false;
      var said = new DOMParser().parseFromString(e.detail.xhr.responseText, "text/html").querySelector(".error-page p");
      offlineBox(sent, config.triggeringEvent && config.triggeringEvent.submitter, said && said.textContent);
      return;
    }
    /* Error answers are swapped in (base.html's htmx-config) so a form shows its
       messages; a watcher's poll keeps its scoreboard instead and says it is retrying. */
    var source = e.detail.requestConfig && e.detail.requestConfig.elt;
    if (status >= 400 && source && source.getAttribute && source.getAttribute("data-etag")) {
      e.detail.shouldSwap = false;
      e.detail.isError = true;
    }
    /* a link redrawn while its page was on its way (a save's answer replaced it): htmx
       forgot that it was followed in place, so the address bar is moved on here */
    var config = e.detail.requestConfig;
    if (e.detail.shouldSwap && config && config.boosted && config.verb === "get" && source &&
        source.isConnected === false && window.history && window.history.pushState) {
      var path = (e.detail.pathInfo && e.detail.pathInfo.responsePath) || config.path;
      if (path && path !== window.location.pathname + window.location.search) window.history.pushState({ htmx: true }, "", path);
    }
    if (e.detail.shouldSwap && status === 200 && source && source.getAttribute && source.getAttribute("data-etag")) {
      if (busy(source)) { e.detail.shouldSwap = false; return; }  /* the next poll brings it */
      keepTyping(source);
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
    if (!config || !config.boosted) return;
    /* a form sent in place whose answer is another page (Start the match: the new match)
       opens that page at its top too; one that comes back with its errors stays put */
    var info = e.detail.pathInfo || {};
    if (config.verb !== "get" && !(info.responsePath && info.responsePath.split("?")[0] !== (config.path || "").split("?")[0])) return;
    var id = (config.verb === "get" ? config.path || "" : info.responsePath).split("#")[1];
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
  /* A preview's answer: each field's messages into the box beside its field, and the
     referee link's address set in place. Nothing is swapped out of band: the link may be
     the one being tapped, and replacing it would drop the tap's page on its way. */
  function placePreview(preview) {
    var fields = preview.querySelector(".preview-fields");
    if (!fields) return;
    var form = preview.closest("form");
    Array.prototype.forEach.call(fields.querySelectorAll("[data-errors-for]"), function (source) {
      var box = document.getElementById(source.getAttribute("data-errors-for"));
      if (!box || box.closest("form") !== form) return;
      while (box.firstChild) box.removeChild(box.firstChild);
      while (source.firstChild) box.appendChild(source.firstChild);
    });
    var url = fields.getAttribute("data-referee-url");
    var link = document.getElementById("referee-link");
    if (url && link && link.getAttribute("href") !== url) link.setAttribute("href", url);
    var picture = fields.querySelector(".seat-picture");
    var drawn = Array.prototype.find.call(document.querySelectorAll(".seat-picture"), function (f) { return !fields.contains(f); });
    if (picture && drawn && !drawn.isEqualNode(picture)) drawn.replaceWith(picture);  /* nothing in it can be tapped */
    fields.remove();
  }
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "preview") {
      placePreview(e.detail.target);
      fillFromCounter(e.detail.target);
    }
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

  /* A box a refused save marked as still to fill in (aria-invalid): typed or chosen, it is
     no longer blank, so its mark goes (every option of a radio field with it). */
  document.addEventListener("input", function (e) {
    var input = e.target;
    if (!input || !input.form || !input.name || input.getAttribute("aria-invalid") !== "true") return;
    Array.prototype.forEach.call(input.form.querySelectorAll('[aria-invalid="true"]'), function (other) {
      if (other.name === input.name) other.removeAttribute("aria-invalid");
    });
  });

  /* Wi-Fi drops: a form whose request never got an answer (no connection, or no answer
     in time) keeps everything typed, says so, and offers to send it again. Its request
     key is unchanged, so a save that did reach the server is not saved twice. */
  function offlineBox(form, submitter, message) {
    var old = form.querySelector(".offline");
    if (old) old.remove();  /* one message, for the latest try */
    var box = document.createElement("div");
    box.className = "alert error offline";
    box.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = message || ("Not sent: this phone could not reach the scorekeeper (Wi-Fi or signal?). " +
      "Everything you typed is still here. Nothing is saved twice: try again when the connection is back.");
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
    var kept = e.detail.xhr && e.detail.xhr.status === 503;  /* not saved: its box stays */
    var box = form && form.tagName === "FORM" && e.detail.successful && !kept && form.querySelector(".offline");
    if (box) box.remove();
  });

  /* Nothing typed is lost: the hand being typed (and a correction under way) is kept on
     the phone until it is saved or cleared, and comes back after the referee, the rules,
     Back, a reload or a phone that slept, marked as a draft with a Clear button. A form
     marked data-draft ("<match>:new", "<match>:edit:<n>") is kept under that name with
     the hand number it was typed as, the match version it was typed against and the
     request key it would be saved with: the server names the key of what it saved
     (data-saved-key), and that draft is done with. */
  var DRAFT = "scorekeeper-draft:";
  var DRAFT_DAYS = 2;
  var NOT_TYPED = { csrf_token: 1, version: 1, request_key: 1 };
  function storage() { try { return window.localStorage; } catch (err) { return null; } }
  function draftName(form) { return DRAFT + form.getAttribute("data-draft"); }
  function readDraft(name) {
    var store = storage();
    if (!store) return null;
    try {
      var d = JSON.parse(store.getItem(name) || "null");
      return d && d.fields ? d : null;
    } catch (err) { return null; }
  }
  function putDraft(name, d) {
    var store = storage();
    try { if (store) store.setItem(name, JSON.stringify(d)); } catch (err) { /* full or refused: the form still works */ }
  }
  /* the form's fields as typed, or (asDrawn) as the page drew them */
  function typedIn(form, asDrawn) {
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || NOT_TYPED[el.name] || el.type === "submit" || el.type === "button") return;
      var list = fields[el.name] || (fields[el.name] = []);
      if (el.type === "radio" || el.type === "checkbox") { if (asDrawn ? el.defaultChecked : el.checked) list.push(el.value); }
      else if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.options, function (o) {
          if (asDrawn ? o.defaultSelected : o.selected) list.push(o.value);
        });
        if (asDrawn && !el.multiple && !list.length && el.options.length) list.push(el.options[0].value);
      } else list.push(asDrawn ? el.defaultValue : el.value);
    });
    return fields;
  }
  function handNumber(form) { return Number(form.getAttribute("data-draft-number")); }
  function isBlank(form) { return JSON.stringify(typedIn(form)) === form.getAttribute("data-draft-blank"); }
  function writeDraft(form) {
    var store = storage();
    if (!store || !form.isConnected || !form.hasAttribute("data-draft-blank")) return;
    if (isBlank(form)) { store.removeItem(draftName(form)); return; }
    var d = { number: handNumber(form), fields: typedIn(form), at: Date.now(),
              filled: Array.prototype.map.call(form.querySelectorAll("[data-filled-value]"), function (el) { return el.name; }),
              key: form.elements.request_key ? form.elements.request_key.value : "",
              version: form.elements.version ? form.elements.version.value : "" };
    putDraft(draftName(form), d);
  }
  function draftTyped(e) {
    var form = e.target && e.target.form;
    /* after the other listeners (the last trick count fills itself in) */
    if (form && form.hasAttribute("data-draft")) window.setTimeout(function () { writeDraft(form); }, 0);
  }
  document.addEventListener("input", draftTyped);
  document.addEventListener("change", draftTyped);
  function putBack(form, d) {
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || NOT_TYPED[el.name] || !(el.name in d.fields) || el.type === "submit" || el.type === "button") return;
      var values = d.fields[el.name];
      if (el.type === "radio" || el.type === "checkbox") el.checked = values.indexOf(el.value) >= 0;
      else if (el.tagName === "SELECT" && el.multiple) {
        Array.prototype.forEach.call(el.options, function (o) { o.selected = values.indexOf(o.value) >= 0; });
      } else {
        var i = seen[el.name] || 0;
        seen[el.name] = i + 1;
        if (i < values.length) el.value = values[i];
      }
    });
    Array.prototype.forEach.call(d.filled || [], function (name) {
      var el = form.elements[name];
      if (el && el.setAttribute && el.value !== "") el.setAttribute("data-filled-value", el.value);
    });
    /* a folded part of the form (who dealt, out of turn) that holds something is shown open */
    Array.prototype.forEach.call(form.querySelectorAll("details"), function (more) {
      var changed = Array.prototype.some.call(more.querySelectorAll("input, select"), function (el) {
        if (el.type === "radio" || el.type === "checkbox") return el.checked !== el.defaultChecked;
        if (el.tagName === "SELECT") {
          var drawn = Array.prototype.filter.call(el.options, function (o) { return o.defaultSelected; })[0] || el.options[0];
          return !!drawn && el.value !== drawn.value;
        }
        return el.value !== el.defaultValue;
      });
      if (changed) more.open = true;
    });
  }
  function refreshPreview(form) {  /* the preview follows "change" on its form */
    window.setTimeout(function () {
      if (form.isConnected) form.dispatchEvent(new Event("change", { bubbles: true }));
    }, 0);
  }
  function clearDraft(form) {
    var store = storage();
    if (store) store.removeItem(draftName(form));
    form.reset();
    Array.prototype.forEach.call(form.querySelectorAll("[data-filled-value]"), function (el) { el.removeAttribute("data-filled-value"); });
    var note = form.querySelector(".draft-note");
    if (note) note.remove();
    var first = form.querySelector("input:not([type=hidden]), select");
    if (first) first.focus({ preventScroll: true });
    refreshPreview(form);
  }
  function draftNote(form, message, moved) {
    var note = form.querySelector(".draft-note");
    if (!note) {
      note = document.createElement("div");
      note.className = "draft-note";
      note.setAttribute("role", "status");
      var text = document.createElement("p");
      var clear = document.createElement("button");
      clear.type = "button";
      clear.className = "button";
      clear.textContent = "Clear";
      clear.setAttribute("aria-label", "Clear the draft");
      clear.addEventListener("click", function () { clearDraft(form); });
      note.appendChild(text);
      note.appendChild(clear);
      form.insertBefore(note, form.querySelector(":scope > .alert, :scope > fieldset, :scope > details"));
    }
    note.classList.toggle("moved", !!moved);
    note.firstChild.textContent = message;
  }
  function movedMessage(d, here) {
    var notice = document.querySelector("#match-notice .notice");
    var said = notice && notice.firstChild && notice.firstChild.nodeType === 3 ? notice.firstChild.textContent.trim() : "";
    return (said || "The match changed on another phone.") + " What you typed for hand " + d.number +
      " is kept below as hand " + here + ": keep it if it is hand " + here + "’s, or clear it.";
  }
  function restoreDraft(form, d, moved) {
    putBack(form, d);
    if (moved) draftNote(form, movedMessage(d, handNumber(form)), true);
    else if (!isBlank(form)) draftNote(form, "Draft kept on this phone (not saved yet).");
    writeDraft(form);  /* kept from now on as this form: its hand number, request key and version */
    /* drawn for another dealer than the draft's: the form is drawn again for the draft's
       (its names and order follow who dealt), and the draft comes back into that one */
    var dealer = form.querySelector("#group-dealer[hx-post] select[name=dealer]");
    var drawn = dealer && (Array.prototype.filter.call(dealer.options, function (o) { return o.defaultSelected; })[0] || dealer.options[0]);
    if (drawn && dealer.value !== drawn.value) { dealer.dispatchEvent(new Event("change", { bubbles: true })); return; }
    refreshPreview(form);
  }
  /* The server said which key it saved (a save's answer, or a poll that learned of a save
     whose answer was lost): that draft is done with. Old drafts go too. */
  function forgetSaved() {
    var store = storage();
    if (!store) return;
    var keys = Array.prototype.map.call(document.querySelectorAll("[data-saved-key]"), function (el) {
      return el.getAttribute("data-saved-key");
    });
    for (var i = store.length - 1; i >= 0; i--) {
      var name = store.key(i);
      if (!name || name.indexOf(DRAFT) !== 0) continue;
      var d = readDraft(name);
      if (!d || keys.indexOf(d.key) >= 0 || Date.now() - (d.at || 0) > DRAFT_DAYS * 864e5) store.removeItem(name);
    }
  }
  function initDraft(form) {
    if (form.hasAttribute("data-draft-blank")) return;
    form.setAttribute("data-draft-blank", JSON.stringify(typedIn(form, true)));
    var name = draftName(form);
    var d = readDraft(name);
    var here = handNumber(form);
    /* a hand just undone comes back as the draft of this hand, to correct or clear */
    var undone = form.getAttribute("data-draft-undone");
    if (undone && (!d || d.number !== here)) {
      try { d = { number: here, fields: JSON.parse(undone), filled: [] }; } catch (err) { d = null; }
      form.removeAttribute("data-draft-undone");
      if (d) { restoreDraft(form, d, false); return; }
    }
    if (!d) return;
    if (d.number === here || !/:new$/.test(form.getAttribute("data-draft"))) { restoreDraft(form, d, false); return; }
    /* the server kept it as this hand and said why ("saved on another phone while you
       were typing"): what is in the form is the draft from now on */
    if (form.querySelector("a.discard")) {
      d.number = here;
      d.key = form.elements.request_key ? form.elements.request_key.value : "";
      d.version = form.elements.version ? form.elements.version.value : "";
      putDraft(name, d);
      return;
    }
    /* typed as another hand: saved from this phone (its answer lost), or on another phone? */
    var live = document.getElementById("match-live");
    /* the poll that drew this form asked about this key already: the whole page's answer
       says so on #match-live, an answer in parts on the form's own #match-record */
    var checked = [live, document.getElementById("match-record")].some(function (el) {
      return el && el.getAttribute("data-checked-key") === d.key;
    });
    if (!checked && live && live.getAttribute("hx-get") && d.asked !== here && window.htmx) {
      d.asked = here;
      putDraft(name, d);
      htmx.ajax("GET", live.getAttribute("hx-get"), { source: live, target: live, swap: "outerHTML",
                                                       values: { since: d.version, key: d.key } })
        .then(null, function () { if (form.isConnected) restoreDraft(form, d, true); });
      return;
    }
    restoreDraft(form, d, true);
  }
  /* A poll that redraws a scorer's page: what is being typed goes back into the new form,
     the caret where it was, the form where it was on the screen. */
  var kept = null;
  function keepTyping(live) {
    var form = pollForm(live);
    kept = null;
    if (!form) return;
    if (!isBlank(form)) writeDraft(form);
    var active = document.activeElement;
    kept = { top: form.getBoundingClientRect().top, name: active && active.form === form ? active.name : null,
             value: active && active.value, start: null, end: null };
    try { kept.start = active.selectionStart; kept.end = active.selectionEnd; } catch (err) { /* not a text box */ }
  }
  function backToTyping() {
    var was = kept;
    kept = null;
    var form = document.querySelector("#match-live form[data-draft]");
    if (!was || !form) return;
    if (!document.querySelector("#main [data-focus]")) window.scrollBy(0, form.getBoundingClientRect().top - was.top);
    if (!was.name) return;
    var fields = Array.prototype.filter.call(form.elements, function (el) {
      return el.name === was.name && (el.type !== "radio" || el.value === was.value);
    });
    if (!fields.length) return;
    fields[0].focus({ preventScroll: true });
    if (was.start !== null && fields[0].setSelectionRange) {
      try { fields[0].setSelectionRange(was.start, was.end); } catch (err) { /* not a text box */ }
    }
  }
  function drafts(root) {
    forgetSaved();
    var forms = root.matches && root.matches("form[data-draft]") ? [root] : root.querySelectorAll("form[data-draft]");
    Array.prototype.forEach.call(forms, initDraft);
    /* the poll's answer: the whole page, or in parts (the form's own part, by id) */
    if (kept && (root.id === "match-live" || root.id === "match-record")) backToTyping();
  }
  /* "It was the same hand: discard mine" leaves the draft behind too */
  document.addEventListener("click", function (e) {
    var link = e.target && e.target.closest && e.target.closest("form[data-draft] a.discard");
    if (link) { var store = storage(); if (store) store.removeItem(draftName(link.closest("form"))); }
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

  /* The print view on a screen: the line that says the grid swipes sideways shows only
     while the grid is wider than its box (without JavaScript it shows on a phone). */
  function gridHints() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-grid-hint]"), function (hint) {
      var wrap = hint.nextElementSibling;
      if (!wrap) return;
      hint.setAttribute("data-checked", "");
      hint.toggleAttribute("data-shown", wrap.scrollWidth > wrap.clientWidth + 1);
    });
  }
  window.addEventListener("resize", gridHints);

  /* The big screen on a screen held sideways (a TV, a tablet) cannot be scrolled by anyone
     watching it: where what it shows is still taller than the screen (eight long names, many
     events), every size on it shrinks together (--fit on <main>, which the poll's swap keeps)
     to the largest that fits, down to 60%. Upright, or on a phone on its side (its own sizes
     keep the standings above the fold), the page scrolls as any other and keeps its sizes. */
  function fitScreen() {
    var screen = document.querySelector(".screen");
    var main = screen && screen.closest("main");
    if (!main) return;
    var page = document.scrollingElement || document.documentElement;
    var fits = function (fit) {
      main.style.setProperty("--fit", String(fit));
      return page.scrollHeight <= window.innerHeight;
    };
    if (!window.matchMedia("(orientation: landscape) and (min-height: 30em)").matches || fits(1)) {
      main.style.removeProperty("--fit");
      return;
    }
    var low = 0.6, high = 1;
    if (!fits(low)) return;
    for (var step = 0; step < 6; step++) {  /* to within 1% */
      var mid = (low + high) / 2;
      if (fits(mid)) low = mid; else high = mid;
    }
    fits(low);
  }
  window.addEventListener("resize", fitScreen);
  document.addEventListener("htmx:afterSwap", fitScreen);  /* a poll brought the screen anew */
  if (document.fonts) document.fonts.ready.then(fitScreen);  /* a name's font came late */

  /* A setting that applies only while another has a given value (Setting.applies_when) is
     hidden otherwise; without JavaScript every setting shows. The server checks every
     setting sent, one that does not apply too, so a setting with a message stays shown. */
  function settingValue(field) {
    if (!field) return null;
    if (field.type === "checkbox") return field.checked ? "y" : "";
    return field.value;
  }
  function appliesWhen(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-applies-field]"), function (el) {
      var form = el.closest("form");
      var field = form && form.elements[el.getAttribute("data-applies-field")];
      el.hidden = settingValue(field) !== el.getAttribute("data-applies-value") && !el.querySelector(".field-messages");
    });
  }
  document.addEventListener("change", function (e) {
    if (e.target && e.target.form && e.target.form.querySelector("[data-applies-field]")) appliesWhen(e.target.form);
  });

  /* Watchers: the page says it updates by itself only where it does (JavaScript on). */
  function liveHow(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-live-how]"), function (el) {
      el.textContent = "the score updates by itself.";
    });
  }

  function ready() { addSteppers(document); acquire(); localTimes(document); shareUrls(document); shareButtons(document); printOnArrival(); gridHints(); fitScreen(); showNotice(); liveHow(document); drafts(document); appliesWhen(document); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready); else ready();
  /* With JavaScript on, what is there only for a page without it goes ("Use this dealer":
     the choice itself draws the form again), and "0 for the rest" fills in on the phone
     (a plain button: no send, and never the form's Save). */
  function scripted(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-without-js]"), function (el) { el.remove(); });
    Array.prototype.forEach.call(root.querySelectorAll("button[data-fill-blank]"), function (b) { b.type = "button"; });
  }
  document.addEventListener("htmx:load", function (e) { scripted(e.target); addSteppers(e.target); localTimes(e.target); shareUrls(e.target); shareButtons(e.target); liveHow(e.target); drafts(e.target); appliesWhen(e.target); });
  /* The app kept on this phone (a service worker answers its pages): the browser fetches a
     download by itself, past the worker, from a network that may not be there. So a download
     link is fetched through the worker and saved from what it answered, under its own name. */
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a[download]:not([href^='blob:'])");  /* not the saving one below */
    if (!link || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    e.preventDefault();
    fetch(link.href).then(function (r) {
      var named = /filename="?([^";]+)"?/.exec(r.headers.get("Content-Disposition") || "");
      return r.blob().then(function (blob) {
        var save = document.createElement("a");
        save.href = URL.createObjectURL(blob);
        save.download = named ? named[1] : link.getAttribute("download") || "";
        document.body.appendChild(save);
        save.click();
        save.remove();
        setTimeout(function () { URL.revokeObjectURL(save.href); }, 60000);
      });
    });
  });
  /* A page the browser kept from before (its back-forward cache) may be out of date: load it again. */
  window.addEventListener("pageshow", function (e) { if (e.persisted) window.location.reload(); });
})();
