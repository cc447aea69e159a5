/* The class view's renderer: a scene (classview/scene.py) -> SVG and side panels.
 * Shared by the live page (live.js) and the debrief's timeline (scrub.js). Plain JS, no build step.
 * Coordinates: table inches, +x right, +y up (as the rules and the Qt views); SVG's y runs down, so
 * every y is drawn as depth - y. Pen widths are screen pixels (non-scaling strokes), as the Qt painter's. */
(function (global) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var MARGIN_IN = 1.5;
  var SURROUND = "#1c1f24", SAND = "#5b5140";

  function el(name, attrs) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) { if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]); }
    return e;
  }

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function pathData(pts, depth, closed) {
    var d = "";
    for (var i = 0; i + 1 < pts.length; i += 2) {
      d += (i ? "L" : "M") + pts[i] + " " + +(depth - pts[i + 1]).toFixed(3);
    }
    return closed ? d + "Z" : d;
  }

  /* Pixels of the screen per table inch, as the SVG is drawn now (markers are sized in pixels). */
  function pxPerIn(svg, scene) {
    var box = svg.getBoundingClientRect();
    var w = scene.table_in[0] + 2 * MARGIN_IN, h = scene.table_in[1] + 2 * MARGIN_IN;
    if (!box.width || !box.height) { return 20; }
    return Math.min(box.width / w, box.height / h);
  }

  function drawItem(group, item, depth, inPerPx) {
    var pts = item.pts, w = item.width_px;
    if (item.marker === "raster") {
      /* one pixel per grid cell over the rectangle pts[0] (near-left) .. pts[4] (far-right) */
      group.appendChild(el("image", { href: item.png, x: pts[0], y: depth - pts[5], width: pts[2] - pts[0],
        height: pts[5] - pts[1], preserveAspectRatio: "none", style: "image-rendering: pixelated",
        "data-layer": item.layer }));
      return;
    }
    if (item.marker === "symbol") {
      /* milsymbol's SVG, centred on the unit, width_px * 5 screen pixels high */
      var h = w * 5 * inPerPx;
      group.appendChild(el("image", { href: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(item.svg),
        x: pts[0] - h, y: depth - pts[1] - h / 2, width: 2 * h, height: h, "data-layer": item.layer }));
      return;
    }
    if (item.marker) {
      var cx = pts[0], cy = depth - pts[1], r = w * 2.5 * inPerPx;
      if (item.marker === "x") {
        group.appendChild(el("path", { d: "M" + (cx - r) + " " + (cy - r) + "L" + (cx + r) + " " + (cy + r) +
          "M" + (cx - r) + " " + (cy + r) + "L" + (cx + r) + " " + (cy - r), stroke: item.color,
          "stroke-width": w, "vector-effect": "non-scaling-stroke", "stroke-linecap": "round", fill: "none" }));
      } else {
        group.appendChild(el("circle", { cx: cx, cy: cy, r: r, fill: item.color, stroke: "#000000",
          "stroke-width": 1, "vector-effect": "non-scaling-stroke" }));
      }
      return;
    }
    var attrs = { d: pathData(pts, depth, item.closed), stroke: item.color, "stroke-width": w,
      "vector-effect": "non-scaling-stroke", "stroke-linecap": "round", "stroke-linejoin": "round",
      fill: "none", "data-layer": item.layer };
    if (item.closed && item.fill) {
      attrs.fill = item.color;
      attrs["fill-opacity"] = (item.fill / 255).toFixed(3);
      attrs["fill-rule"] = "evenodd";
    }
    if (item.dashed) { attrs["stroke-dasharray"] = (4 * w) + " " + (2 * w); }
    if (item.base_of !== undefined) { attrs["data-unit"] = item.base_of; }
    group.appendChild(el("path", attrs));
  }

  function drawLabel(group, label, depth, fontIn, inPerPx) {
    var b = label.box, x0 = b[0], x1 = b[2], top = depth - b[3], bottom = depth - b[1];
    if (label.leader) {
      var l = label.leader;
      group.appendChild(el("line", { x1: l[0], y1: depth - l[1], x2: l[2], y2: depth - l[3], stroke: label.color,
        "stroke-width": 1.5, "vector-effect": "non-scaling-stroke" }));
      group.appendChild(el("circle", { cx: l[0], cy: depth - l[1], r: 2 * inPerPx, fill: label.color }));
    }
    group.appendChild(el("rect", { x: x0, y: top, width: x1 - x0, height: bottom - top, rx: 4 * inPerPx,
      fill: "#000000", "fill-opacity": 0.59 }));
    var t = el("text", { x: (x0 + x1) / 2, y: (top + bottom) / 2, fill: label.color, "font-size": fontIn,
      "font-weight": "bold", "text-anchor": "middle", "dominant-baseline": "central",
      "font-family": "DejaVu Sans, Arial, Helvetica, sans-serif", "data-layer": label.layer });
    t.textContent = label.text;
    group.appendChild(t);
    return t;
  }

  /* The label placement made for this screen (scene.label_sets, largest scale first): the first not
   * above the pixels per inch the screen shows, so a label is about its font's height in pixels on a
   * phone as on a laptop (a phone gets fewer, the ones that matter most); the debrief's timeline has
   * the same sets (scrub.js). A scene without sets has one placement. */
  function labelSet(svg, scene) {
    var sets = scene.label_sets;
    if (!sets || !sets.length) { return { labels: scene.labels, font_in: scene.font_in, px_per_in: null }; }
    var box = svg.getBoundingClientRect(), view = svg.zoomBox || svg.fullBox;
    if (!box.width || !box.height || !view) { return sets[0]; }
    var ppi = Math.min(box.width / view[2], box.height / view[3]);
    for (var k = 0; k < sets.length; k++) { if (sets[k].px_per_in <= ppi * 1.05) { return sets[k]; } }
    return sets[sets.length - 1];
  }

  /* Draw ``scene``'s table into ``svg`` (an <svg> element), replacing what it showed. */
  function renderTable(svg, scene) {
    var w = scene.table_in[0], d = scene.table_in[1], m = MARGIN_IN;
    // The whole table; a zoomed-in view (zoom.js) is kept across redraws, refitted if the table changed.
    svg.fullBox = [-m, -m, w + 2 * m, d + 2 * m];
    svg.zoomBox = svg.zoomBox && global.ClassViewZoom ? global.ClassViewZoom.clamp(svg, svg.zoomBox) : null;
    svg.setAttribute("viewBox", (svg.zoomBox || svg.fullBox).join(" "));
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    var inPerPx = 1 / pxPerIn(svg, scene);
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    svg.appendChild(el("rect", { x: -m, y: -m, width: w + 2 * m, height: d + 2 * m, fill: SURROUND }));
    svg.appendChild(el("rect", { x: 0, y: 0, width: w, height: d, fill: SAND }));
    var shapes = el("g", { "class": "shapes" });
    scene.items.forEach(function (item) { drawItem(shapes, item, d, inPerPx); });
    svg.appendChild(shapes);
    var labels = el("g", { "class": "labels" }), chosen = labelSet(svg, scene);
    if (chosen.px_per_in) { labels.setAttribute("data-px-per-in", chosen.px_per_in); }
    var texts = chosen.labels.map(function (label) { return drawLabel(labels, label, d, chosen.font_in, inPerPx); });
    svg.appendChild(labels);
    // The server placed each label in a box sized by an estimate of its text: a text that turns out
    // wider in this browser's font is squeezed into its box rather than spilling over a neighbour.
    texts.forEach(function (t, k) {
      var b = chosen.labels[k].box, room = (b[2] - b[0]) - 6 * inPerPx;
      try {
        if (t.getComputedTextLength() > room && room > 0) {
          t.setAttribute("textLength", room);
          t.setAttribute("lengthAdjust", "spacingAndGlyphs");
        }
      } catch (e) { /* not laid out (hidden): keep as is */ }
    });
  }

  function clock(t) {
    t = Math.max(0, Math.floor(t));
    var h = Math.floor(t / 3600), mm = Math.floor((t % 3600) / 60), s = t % 60;
    var pad = function (v) { return (v < 10 ? "0" : "") + v; };
    return h ? h + ":" + pad(mm) + ":" + pad(s) : mm + ":" + pad(s);
  }

  function rollCard(roll) {
    if (!roll) { return '<div class="card empty">No action resolved yet.</div>'; }
    var dice = roll.rolls.map(function (r) {
      var faces = r.faces ? r.faces.map(function (f) { return '<span class="die">' + esc(f) + "</span>"; }).join("") : "";
      return '<div class="roll"><span class="what">' + esc(r.label) + "</span> " + faces +
        ' <span class="total">= ' + esc(r.total) + "</span></div>";
    }).join("");
    var warn = (roll.warnings || []).map(function (w) { return '<div class="warn">' + esc(w) + "</div>"; }).join("");
    return '<div class="card"><div class="card-head">' + esc(roll.kind) + (roll.side ? " · " + esc(roll.side) : "") +
      (roll.round ? " · round " + esc(roll.round) : "") + '</div><div class="summary">' + esc(roll.summary) +
      "</div>" + dice + warn + "</div>";
  }

  function unitRows(units) {
    return units.map(function (u) {
      var state = u.on_table ? u.status : "off the table";
      var tokens = u.tokens.length ? " · " + u.tokens.map(esc).join(", ") : "";
      return '<li data-unit="' + u.id + '" class="' + (u.status === "active" && u.on_table ? "" : "down") + '">' +
        '<span class="chip" style="background:' + esc(u.color) + '"></span><span class="name">' + esc(u.name) +
        '</span> <span class="team">' + esc(u.side) + '</span><div class="state">' + esc(state) + tokens + "</div></li>";
    }).join("");
  }

  function logRows(log) {
    return log.slice().reverse().map(function (e) {
      return '<li class="' + esc(e.kind) + '"><span class="t">' + clock(e.t_s) + "</span> " + esc(e.text) + "</li>";
    }).join("");
  }

  /* Fill the side panels inside ``root`` (elements with data-part="turn|roll|units|log"). */
  function renderPanels(root, scene) {
    var part = function (name) { return root.querySelector('[data-part="' + name + '"]'); };
    var turn = part("turn"), roll = part("roll"), units = part("units"), log = part("log");
    if (turn) { turn.textContent = scene.turn.text; }
    if (roll) { roll.innerHTML = rollCard(scene.roll); }
    if (units) { units.innerHTML = unitRows(scene.units); }
    if (log) { log.innerHTML = logRows(scene.log); }
  }

  function render(root, scene) {
    renderTable(root.querySelector("svg.table"), scene);
    renderPanels(root, scene);
  }

  global.ClassView = { render: render, renderTable: renderTable, renderPanels: renderPanels, clock: clock };
})(window);
