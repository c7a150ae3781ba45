/* Navalwar battle page: the deadline countdown and the messages of htmx requests that fail.
   No dependencies; the page works without it (the server writes the time left when it renders). */
(function () {
  "use strict";

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function left(ms) {
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    s = s % 60;
    if (d > 0) { return plural(d, "day") + " " + plural(h, "hour"); }
    if (h > 0) { return h + " h " + m + " min"; }
    if (m > 0) { return m + " min " + (s < 10 ? "0" : "") + s + " s"; }
    return plural(s, "second");
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var at = Date.parse(el.getAttribute("data-deadline"));
      if (isNaN(at)) { return; }
      var ms = at - now;
      var text = ms > 0 ? "(" + left(ms) + " left)" : "(the deadline has passed)";
      if (el.textContent !== text) { el.textContent = text; }
      el.classList.toggle("countdown--soon", ms > 0 && ms < 3600 * 1000);
      el.classList.toggle("countdown--passed", ms <= 0);
    });
  }

  function say(text, level) {
    var box = document.getElementById("order-messages");
    if (!box) { return; }
    var p = document.createElement("p");
    p.className = "message message--" + (level || "error");
    p.textContent = text;
    box.replaceChildren(p);
  }

  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail.xhr;
    var type = xhr.getResponseHeader("Content-Type") || "";
    var text = type.indexOf("text/plain") === 0 && xhr.responseText
      ? xhr.responseText
      : xhr.status >= 500
        ? "The server could not do that (error " + xhr.status + "). Your saved orders are unchanged; try again."
        : "That was refused (error " + xhr.status + ").";
    say(text, "error");
  });
  document.addEventListener("htmx:sendError", function () {
    say("No answer from the server: check your connection. Your saved orders are unchanged.", "error");
  });

  tick();
  setInterval(tick, 1000);
})();
