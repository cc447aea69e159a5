/* Zoom and pan on the class view's table: the mouse wheel or a pinch zooms about the point under it,
 * a drag pans, and the buttons zoom in, out and back to the whole table. The view is a box in table
 * inches kept on the <svg> (svg.zoomBox; null = the whole table), which renderTable (classview.js)
 * applies on every redraw, so a live update never throws the student back to the whole table.
 * On a phone, a one-finger drag over the whole table scrolls the page as usual; zoomed in, it pans. */
(function (global) {
  "use strict";
  var MAX_ZOOM = 8, STEP = 1.5;

  function fullBox(svg) { return svg.fullBox || null; }

  /* The view clamped to a sensible zoom and to the table (null when it shows the whole table). */
  function clamp(svg, box) {
    var full = fullBox(svg);
    if (!full || !box) { return null; }
    var w = Math.max(full[2] / MAX_ZOOM, Math.min(full[2], box[2]));
    if (w >= full[2] - 1e-9) { return null; }
    var h = w * full[3] / full[2];
    var x = Math.max(full[0], Math.min(full[0] + full[2] - w, box[0] + (box[2] - w) / 2));
    var y = Math.max(full[1], Math.min(full[1] + full[3] - h, box[1] + (box[3] - h) / 2));
    return [x, y, w, h];
  }

  function current(svg) { return svg.zoomBox || fullBox(svg); }

  function apply(svg, box) {
    var view = clamp(svg, box);
    svg.zoomBox = view && view.map(function (v) { return +v.toFixed(4); });
    var shown = current(svg);
    if (shown) { svg.setAttribute("viewBox", shown.join(" ")); }
    svg.style.touchAction = svg.zoomBox ? "none" : "pan-y";
    svg.setAttribute("data-zoom", svg.zoomBox ? (fullBox(svg)[2] / svg.zoomBox[2]).toFixed(3) : "1");
  }

  /* A screen point (client pixels) in table-drawing units (the SVG's user space). */
  function toUser(svg, clientX, clientY) {
    var m = svg.getScreenCTM();
    if (!m) { return null; }
    var p = svg.createSVGPoint();
    p.x = clientX; p.y = clientY;
    return p.matrixTransform(m.inverse());
  }

  /* Zoom by ``factor`` (> 1: closer) keeping the point under (clientX, clientY) where it is. */
  function zoomAt(svg, factor, clientX, clientY) {
    var box = current(svg);
    if (!box) { return; }
    var p = toUser(svg, clientX, clientY) || { x: box[0] + box[2] / 2, y: box[1] + box[3] / 2 };
    var w = box[2] / factor, h = box[3] / factor;
    apply(svg, [p.x - (p.x - box[0]) / factor, p.y - (p.y - box[1]) / factor, w, h]);
  }

  /* Move the view so the table follows a drag of (dx, dy) screen pixels. */
  function panBy(svg, dx, dy) {
    var box = svg.zoomBox, m = svg.getScreenCTM();
    if (!box || !m || !m.a) { return; }
    apply(svg, [box[0] - dx / m.a, box[1] - dy / m.d, box[2], box[3]]);
  }

  function centre(svg) {
    var r = svg.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  }

  function button(label, title, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button"; b.className = cls; b.textContent = label; b.title = title;
    b.setAttribute("aria-label", title);
    b.addEventListener("click", onClick);
    return b;
  }

  function attach(root) {
    var svg = root.querySelector("svg.table"), holder = svg.parentNode;
    var pointers = {}, pinch = null;
    svg.zoomBox = null;
    svg.style.touchAction = "pan-y";
    svg.setAttribute("data-zoom", "1");

    var bar = document.createElement("div");
    bar.className = "zoom";
    var hint = document.createElement("span");
    hint.className = "hint";
    var touch = global.matchMedia && global.matchMedia("(pointer: coarse)").matches;
    hint.textContent = touch ? "Pinch to zoom, drag to move" : "Scroll to zoom, drag to move";
    bar.appendChild(hint);
    bar.appendChild(button("+", "Zoom in", "in", function () { var c = centre(svg); zoomAt(svg, STEP, c[0], c[1]); }));
    bar.appendChild(button("\u2212", "Zoom out", "out", function () { var c = centre(svg); zoomAt(svg, 1 / STEP, c[0], c[1]); }));
    bar.appendChild(button("Fit table", "Show the whole table", "fit", function () { apply(svg, null); }));
    holder.appendChild(bar);

    svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      var dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1);
      zoomAt(svg, Math.exp(-dy * 0.002), e.clientX, e.clientY);
    }, { passive: false });

    function ids() { return Object.keys(pointers); }
    function pinchState() {
      var k = ids(), a = pointers[k[0]], b = pointers[k[1]];
      return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    }

    svg.addEventListener("pointerdown", function (e) {
      if (e.pointerType === "mouse" && e.button !== 0) { return; }
      pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
      try { svg.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer: no capture */ }
      pinch = ids().length === 2 ? pinchState() : null;
      if (svg.zoomBox || pinch) { e.preventDefault(); }
    });
    svg.addEventListener("pointermove", function (e) {
      var p = pointers[e.pointerId];
      if (!p) { return; }
      var dx = e.clientX - p.x, dy = e.clientY - p.y;
      p.x = e.clientX; p.y = e.clientY;
      if (ids().length >= 2 && pinch) {
        var now = pinchState();
        if (pinch.d > 0 && now.d > 0) { zoomAt(svg, now.d / pinch.d, now.x, now.y); }
        panBy(svg, now.x - pinch.x, now.y - pinch.y);
        pinch = now;
      } else if (ids().length === 1) {
        panBy(svg, dx, dy);
      }
      svg.classList.toggle("dragging", !!svg.zoomBox);
    });
    function up(e) {
      delete pointers[e.pointerId];
      pinch = ids().length === 2 ? pinchState() : null;
      if (!ids().length) { svg.classList.remove("dragging"); }
    }
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    return { zoomAt: function (f, x, y) { zoomAt(svg, f, x, y); }, fit: function () { apply(svg, null); } };
  }

  global.ClassViewZoom = { attach: attach, clamp: clamp };
})(window);
