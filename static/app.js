// Seller Desk: small progressive enhancements. Every page works without this
// file; it only adds live countdowns, "select all", edit highlighting, a
// warning before unsaved edits are lost, focus on the first error, and the
// column labels of the phone layout.
(function () {
  "use strict";

  // Countdowns: <span data-countdown="7"> inside a form whose submit buttons
  // carry data-wait. The number ticks down once a second; at zero the buttons
  // are enabled again and the hint says so.
  function startCountdowns(root) {
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      if (el.dataset.countdownStarted) return;
      el.dataset.countdownStarted = "1";
      var left = parseInt(el.dataset.countdown, 10);
      if (!(left > 0)) left = 0;
      var form = el.closest("form") || document;
      var tick = function () {
        if (!el.isConnected) return;
        if (left <= 0) {
          form.querySelectorAll("button[data-wait]").forEach(function (b) {
            b.disabled = false;
          });
          var box = el.closest("[data-countdown-box]") || el;
          box.textContent = el.dataset.countdownDone || "You can try again now.";
          box.classList.remove("busy");
          return;
        }
        el.textContent = String(left);
        left -= 1;
        setTimeout(tick, 1000);
      };
      tick();
    });
  }

  // "Select all" checkboxes: data-select-all="name" toggles every checkbox
  // with that name.
  function wireSelectAll(root) {
    root.querySelectorAll("input[data-select-all]").forEach(function (box) {
      if (box.dataset.wired) return;
      box.dataset.wired = "1";
      box.addEventListener("change", function () {
        document.querySelectorAll('input[type=checkbox][name="' + box.dataset.selectAll + '"]').forEach(function (c) {
          c.checked = box.checked;
        });
      });
    });
  }

  // Edited inputs get a class so staff can see what they changed before
  // submitting.
  function wireEdits(root) {
    root.querySelectorAll("input[data-original], select[data-original]").forEach(function (input) {
      if (input.dataset.wired) return;
      input.dataset.wired = "1";
      var mark = function () {
        input.classList.toggle("edited", input.value !== input.dataset.original);
      };
      input.addEventListener("input", mark);
      input.addEventListener("change", mark);
      mark();
    });
  }

  // A row that posts a field's original in a hidden orig_<name> input
  // (the nomenclature rows) does not repeat it on the field: the field
  // takes it from there as its data-original.
  function adoptOriginals(root) {
    if (!root.querySelectorAll) return;
    root.querySelectorAll('input[type=hidden][name^="orig_"]').forEach(function (h) {
      var row = h.closest("tr");
      var f = row && row.querySelector('input[name="' + h.name.slice(5) + '"], select[name="' + h.name.slice(5) + '"]');
      if (f && !f.hasAttribute("data-original")) f.setAttribute("data-original", h.value);
    });
  }

  // Table cells learn their column's header as data-label, which the
  // phone layout (rows as cards, app.css) prints before each value.
  function labelCells(root) {
    var tables = [];
    if (root.closest && root.closest("table")) tables.push(root.closest("table"));
    if (root.querySelectorAll) root.querySelectorAll("table").forEach(function (t) { tables.push(t); });
    tables.forEach(function (t) {
      var heads = [];
      t.querySelectorAll("thead th").forEach(function (th) { heads.push(th.textContent.trim()); });
      t.querySelectorAll("tbody tr").forEach(function (tr) {
        Array.prototype.forEach.call(tr.children, function (td, i) {
          if (heads[i] && !td.hasAttribute("data-label")) td.setAttribute("data-label", heads[i]);
        });
      });
    });
  }

  // After a refused submit, focus goes to the first field in error, so a
  // keyboard or screen-reader user lands where the problem is.
  function focusFirstError(root) {
    var bad = root.querySelector && root.querySelector("[aria-invalid=true]");
    if (bad && typeof bad.focus === "function") bad.focus();
  }

  // Doomed drops: in a form carrying data-drop-warning
  // (the prices form), a new price or sale price more than data-drop-limit
  // percent below the row's current price (its orig_price) gets a polite
  // live warning beside the field as it is typed. The server does not block
  // the submit: the marketplace's refusal still comes back on the row.
  function kopecks(text) {
    var s = String(text || "").replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
    if (!/^\d+(\.\d{0,2})?$/.test(s)) return 0;
    var parts = s.split(".");
    return parseInt(parts[0], 10) * 100 + parseInt(((parts[1] || "") + "00").slice(0, 2), 10);
  }
  function dropNote(input, create) {
    var id = input.id + "-drop";
    var note = document.getElementById(id);
    if (note || !create) return note;
    note = document.createElement("div");
    note.id = id;
    note.className = "drop-warning";
    note.setAttribute("aria-live", "polite");
    note.setAttribute("data-testid", "drop-warning");
    input.insertAdjacentElement("afterend", note);
    var by = input.getAttribute("aria-describedby");
    input.setAttribute("aria-describedby", by ? by + " " + id : id);
    return note;
  }
  function checkDrop(form, input) {
    var row = input.closest("tr");
    var orig = row && row.querySelector("input[name=orig_price]");
    if (!orig) return;
    var limit = parseInt(form.dataset.dropLimit, 10) || 90;
    var cur = kopecks(orig.value), now = kopecks(input.value);
    var doomed = cur > 0 && now > 0 && now * 100 < cur * (100 - limit);
    // A sale field emptied over a running sale ends the sale: said so
    // before the row is sent (data-sale-ends).
    var origSale = input.name === "sale" && row.querySelector("input[name=orig_sale]");
    var ends = !!(origSale && origSale.value && !String(input.value).trim() && form.dataset.saleEnds);
    var note = dropNote(input, doomed || ends);
    if (!note) return;
    var text = "";
    if (ends) {
      var money = typeof Intl !== "undefined" ? new Intl.NumberFormat(document.documentElement.lang || "en", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : null;
      var sale = kopecks(origSale.value) / 100;
      text = form.dataset.saleEnds.replace("{sale}", money ? money.format(sale) : String(sale));
    } else if (doomed) {
      // One decimal, rounded down, but never shown as the limit itself.
      var pct = Math.floor((cur - now) * 1000 / cur) / 10;
      if (pct <= limit) pct = Math.ceil((cur - now) * 10000 / cur) / 100;
      var fmt = typeof Intl !== "undefined" ? new Intl.NumberFormat(document.documentElement.lang || "en", { maximumFractionDigits: 2 }) : null;
      text = form.dataset.dropWarning.replace("{pct}", fmt ? fmt.format(pct) : String(pct));
    }
    if (note.textContent !== text) note.textContent = text;
  }
  // Promotion floors: a card in a promotion carries its floor
  // (data-promo-floor, kopecks) beside the row's new price; as a price
  // below it is typed, the row says before anything is sent that the price
  // check will hold it and "send anyway" takes the card out.
  function checkPromoFloors(input) {
    if (input.name !== "price") return;
    var row = input.closest("tr");
    if (!row) return;
    var now = kopecks(input.value);
    row.querySelectorAll("[data-promo-floor]").forEach(function (p) {
      var floor = parseInt(p.dataset.promoFloor, 10) || 0;
      var below = floor > 0 && now > 0 && now < floor;
      var warn = p.querySelector("[data-testid=promo-below]");
      var rule = p.querySelector("[data-testid=promo-rule]");
      if (warn) warn.hidden = !below;
      if (rule) rule.hidden = below;
    });
  }
  function wireDropWarnings(root) {
    var forms = [];
    if (root.matches && root.matches("form[data-drop-warning]")) forms.push(root);
    if (root.querySelectorAll) root.querySelectorAll("form[data-drop-warning]").forEach(function (f) { forms.push(f); });
    forms.forEach(function (form) {
      if (form.dataset.dropWired) return;
      form.dataset.dropWired = "1";
      // The live region exists before its text changes, so it is announced.
      form.addEventListener("focusin", function (e) {
        if (e.target.matches && e.target.matches("input.money")) dropNote(e.target, true);
      });
      form.addEventListener("input", function (e) {
        if (e.target.matches && e.target.matches("input.money")) {
          checkDrop(form, e.target);
          checkPromoFloors(e.target);
        }
      });
    });
  }

  function enhance(root) {
    startCountdowns(root);
    wireSelectAll(root);
    adoptOriginals(root);
    wireEdits(root);
    labelCells(root);
    wireDropWarnings(root);
  }

  // Unsaved edits: leaving the page (a pager link, the navigation, a
  // reload) with edited fields asks first; submitting them does not.
  // "sent" is the form being submitted until its own request ends in place
  // (a refusal swapped into the page): other requests ending meanwhile (a
  // poll, a search) say nothing about it. htmx names the request's element
  // in requestConfig.elt, kept even when the answer swapped that element
  // away (the event then reaches the document from a parent, as its elt).
  var sent = null;
  document.addEventListener("submit", function (e) { sent = e.target; }, true);
  // An edit typed after the send was not sent.
  document.addEventListener("input", function (e) {
    if (sent && e.target && e.target.form === sent) sent = null;
  }, true);
  // An answer that leaves the page (HX-Redirect) ends its request before
  // the browser asks the page whether it may leave: the edits were sent.
  document.addEventListener("htmx:afterRequest", function (e) {
    var d = e.detail || {}, src = d.requestConfig && d.requestConfig.elt;
    if (!sent || !src || !(src === sent || src.form === sent || sent.contains(src))) return;
    if (d.xhr && d.xhr.getResponseHeader && d.xhr.getResponseHeader("HX-Redirect")) return;
    sent = null;
  });
  window.addEventListener("beforeunload", function (e) {
    if (sent || !document.querySelector("input.edited, select.edited")) return;
    e.preventDefault();
    e.returnValue = "";
  });

  // Polls stop once an answer has sent the page elsewhere (HX-Refresh,
  // HX-Redirect). On a busy server the next page takes longer than a
  // poll's interval; a poll answered meanwhile would start the reload
  // again, cancelling the one under way, and the page would never arrive.
  // Shown again from the back/forward cache, the page polls again.
  var leaving = false;
  document.addEventListener("htmx:beforeOnLoad", function (e) {
    var x = e.detail && e.detail.xhr;
    if (x && x.getResponseHeader && (x.getResponseHeader("HX-Refresh") === "true" || x.getResponseHeader("HX-Redirect"))) leaving = true;
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (leaving && elt && elt.getAttribute && /^\s*every\s/.test(elt.getAttribute("hx-trigger") || "")) e.preventDefault();
  });
  window.addEventListener("pageshow", function (e) { if (e.persisted) leaving = false; });

  // The copy's search box: its typing already asks for the
  // results (the form's debounced "input" trigger). The "change" that
  // leaving it fires would ask again and swap the results, with the form
  // the user has just moved into to type a price or a quantity: it stops
  // here. Selects and the other filters still search on "change".
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches("form.copy-search input[type=search]")) e.stopPropagation();
  }, true);

  // Its searches leave out the empty fields, so the address the results
  // push is the view's short link (/prices?q=крос), as the server writes
  // it, not every filter left blank.
  document.addEventListener("htmx:configRequest", function (e) {
    var d = e.detail, form = d && d.elt && d.elt.closest && d.elt.closest("form.copy-search");
    if (!form || d.verb !== "get" || !d.formData) return;
    var empty = [];
    d.formData.forEach(function (v, k) { if (v === "") empty.push(k); });
    empty.forEach(function (k) { d.formData.delete(k); });
  });

  document.addEventListener("DOMContentLoaded", function () { enhance(document); focusFirstError(document); });
  document.addEventListener("htmx:load", function (e) { enhance(e.target); });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.detail && e.detail.xhr && e.detail.xhr.status === 422) focusFirstError(e.target);
  });
})();
