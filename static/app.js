// Seller Desk: small progressive enhancements. Every page works without this
// file; it only adds live countdowns, "select all" and edit highlighting.
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

  function enhance(root) {
    startCountdowns(root);
    wireSelectAll(root);
    wireEdits(root);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (e) { enhance(e.target); });
})();
