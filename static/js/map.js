/* Battle map: arrow keys step through the replay, the PNG download, and map clicks in the set-up editor.
   Everything here is an extra: without JavaScript the replay links, the SVG download and the forms work. */
(function () {
  "use strict";

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(el.tagName));
  }

  // Replay: Left / Right / Home / End follow the replay links (htmx swaps the panel when it is loaded).
  var KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || typing(document.activeElement)) return;
    var which = KEYS[ev.key];
    if (!which) return;
    var link = document.querySelector('a[data-replay="' + which + '"]');
    if (!link) return;
    ev.preventDefault();
    link.click();
  });

  // PNG download: draw the SVG on a canvas at twice its size and save it (no server-side rasteriser).
  function pngFrom(url, button) {
    fetch(url, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (text) {
      var svg = new Blob([text], { type: "image/svg+xml" });
      var src = URL.createObjectURL(svg);
      var img = new Image();
      img.onload = function () {
        var scale = 2;
        var canvas = document.createElement("canvas");
        canvas.width = img.naturalWidth * scale;
        canvas.height = img.naturalHeight * scale;
        var ctx = canvas.getContext("2d");
        ctx.fillStyle = "#fff";
        ctx.fillRect(0, 0, canvas.width, canvas.height);
        ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
        URL.revokeObjectURL(src);
        canvas.toBlob(function (blob) {
          var a = document.createElement("a");
          a.href = URL.createObjectURL(blob);
          var name = (url.split("/").slice(-2, -1)[0] || "battle") + "-map.png";
          var m = /step=(\d+)/.exec(url);
          a.download = "battle-" + name.replace(/\.svg.*$/, "") + (m ? "-step-" + m[1] : "") + ".png";
          document.body.appendChild(a);
          a.click();
          a.remove();
          button.disabled = false;
        }, "image/png");
      };
      img.src = src;
    }).catch(function () { button.disabled = false; });
  }

  function showPngButtons(root) {
    (root || document).querySelectorAll("button[data-png]").forEach(function (b) { b.hidden = false; });
    showZoom(root);
  }

  // Zoom: the map at 1,200 px in its scrolling frame (labels readable on a phone), kept from step to step
  // of the replay (htmx swaps the panel) for this tab.
  var ZOOM_KEY = "navalwar-map-zoom";
  function zoomed() {
    try { return sessionStorage.getItem(ZOOM_KEY) === "1"; } catch (e) { return false; }
  }
  function applyZoom(root, on) {
    (root || document).querySelectorAll("button[data-zoom]").forEach(function (b) {
      var fig = b.closest(".map-figure");
      if (fig) fig.classList.toggle("map-figure--zoomed", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.textContent = on ? "Fit to the page" : "Zoom in";
    });
  }
  function showZoom(root) {
    (root || document).querySelectorAll("button[data-zoom]").forEach(function (b) { b.hidden = false; });
    applyZoom(root, zoomed());
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button[data-zoom]");
    if (!b) return;
    var on = b.getAttribute("aria-pressed") !== "true";
    try { sessionStorage.setItem(ZOOM_KEY, on ? "1" : "0"); } catch (e) { /* private mode: this page only */ }
    applyZoom(document, on);
    if (on) centreOnShips(b.closest(".map-figure"));
  });
  // Scroll the zoomed frame to the selected ship, else to the middle of the ships shown.
  function centreOnShips(fig) {
    var frame = fig && fig.querySelector(".map-scroll");
    if (!frame) return;
    var ships = fig.querySelectorAll("svg.nw-map g.ship.selected");
    if (!ships.length) ships = fig.querySelectorAll("svg.nw-map g.ship");
    if (!ships.length) return;
    var box = frame.getBoundingClientRect();
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    ships.forEach(function (g) {
      var r = g.getBoundingClientRect();
      x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top); x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
    });
    frame.scrollLeft += (x0 + x1) / 2 - (box.left + box.width / 2);
    frame.scrollTop += (y0 + y1) / 2 - (box.top + box.height / 2);
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button[data-png]");
    if (!b) return;
    b.disabled = true;
    pngFrom(b.getAttribute("data-png"), b);
  });

  // Set-up editor: a click on a hex (or on the table) fills the chosen form's coordinates and submits it.
  function chosenForm() {
    var radio = document.querySelector("input[data-pick-radio]:checked");
    var key = radio ? radio.value : "place";
    return document.querySelector('form[data-pick="' + key + '"]');
  }
  function setField(form, name, value) {
    var el = form.querySelector('[name$="-' + name + '"]');
    if (el) el.value = value;
  }
  document.addEventListener("click", function (ev) {
    var editor = ev.target.closest && ev.target.closest("[data-setup] svg.nw-map");
    if (!editor) return;
    if (ev.target.closest("a")) return; // choosing a ship follows its link
    var form = chosenForm();
    if (!form) return;
    var cell = ev.target.closest(".cell");
    if (cell) {
      setField(form, "q", cell.getAttribute("data-q"));
      setField(form, "r", cell.getAttribute("data-r"));
    } else if (editor.getAttribute("data-geometry").indexOf("table") === 0) {
      var pt = editor.createSVGPoint();
      pt.x = ev.clientX;
      pt.y = ev.clientY;
      var p = pt.matrixTransform(editor.getScreenCTM().inverse());
      var scale = parseFloat(editor.getAttribute("data-scale"));
      var x = (p.x - parseFloat(editor.getAttribute("data-ox"))) / scale;
      var y = (p.y - parseFloat(editor.getAttribute("data-oy"))) / scale;
      setField(form, "x", Math.round(x * 10) / 10);
      setField(form, "y", Math.round(y * 10) / 10);
    } else {
      return;
    }
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  });
  // Turn buttons: add to the heading field of the place form.
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button[data-turn]");
    if (!b) return;
    var form = b.closest("form");
    var heading = form.querySelector('[name$="-heading"]');
    var ship = document.querySelector('svg.nw-map .ship.selected');
    var current = heading.value !== "" ? parseFloat(heading.value) :
      (ship ? parseFloat(ship.getAttribute("data-heading")) : 0);
    heading.value = ((current + parseFloat(b.getAttribute("data-turn"))) % 360 + 360) % 360;
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  });

  function ready() {
    showPngButtons(document);
    document.querySelectorAll("[data-turn-buttons]").forEach(function (p) { p.hidden = false; });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  document.addEventListener("htmx:afterSwap", function (ev) { showPngButtons(ev.target); });
})();
