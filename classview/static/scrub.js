/* The debrief's table timeline: a thinned timeline (classview/timeline.py) turned back into scenes
 * for the same renderer as the live page (classview.js). Play, pause, drag the slider, jump to the
 * next engagement, choose the speed. */
(function (global) {
  "use strict";

  /* The tracks (classview/tracks.py) decoded once: per unit id, arrays of t_s, x, y, heading. */
  function decodeTracks(data) {
    if (data.decoded) { return data.decoded; }
    var out = {};
    (data.tracks || []).forEach(function (tr) {
      var n = tr.t.length, t = new Float64Array(n), x = new Float64Array(n), y = new Float64Array(n),
        h = new Float64Array(n), a = 0, b = 0, c = 0, d = 0;
      for (var i = 0; i < n; i++) {
        a += tr.t[i]; b += tr.x[i]; c += tr.y[i]; d += tr.h[i];
        t[i] = a / 1000; x[i] = b / 100; y[i] = c / 100; h[i] = d / 10;
      }
      out[tr.id] = { t: t, x: x, y: y, h: h };
    });
    data.decoded = out;
    return out;
  }

  /* Where unit ``id`` stood at ``t``: [x, y, heading] linear between its track's points (as
   * classview.tracks.pose_at), or null without a track. */
  function poseAt(data, id, t) {
    var tr = decodeTracks(data)[id];
    if (!tr || !tr.t.length) { return null; }
    var n = tr.t.length, lo = 0, hi = n;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (tr.t[mid] <= t) { lo = mid + 1; } else { hi = mid; } }
    if (lo === 0) { return [tr.x[0], tr.y[0], tr.h[0]]; }
    if (lo === n) { return [tr.x[n - 1], tr.y[n - 1], tr.h[n - 1]]; }
    var a = lo - 1, span = tr.t[lo] - tr.t[a], f = span > 0 ? (t - tr.t[a]) / span : 1;
    return [tr.x[a] + f * (tr.x[lo] - tr.x[a]), tr.y[a] + f * (tr.y[lo] - tr.y[a]), tr.h[a] + f * (tr.h[lo] - tr.h[a])];
  }

  function placed(item, pose) {
    var a = item.upright ? 0 : pose[2] * Math.PI / 180, c = Math.cos(a), s = Math.sin(a), p = item.pts, out = [];
    for (var i = 0; i + 1 < p.length; i += 2) {
      out.push(+(pose[0] + c * p[i] - s * p[i + 1]).toFixed(3), +(pose[1] + s * p[i] + c * p[i + 1]).toFixed(3));
    }
    var copy = {};
    for (var k in item) { copy[k] = item[k]; }
    copy.pts = out;
    return copy;
  }

  /* A shape between units: each point an offset from the owner it is pinned to (no turning). */
  function pinned(item, owners) {
    var p = item.pts, out = [], copy = {};
    for (var i = 0; i + 1 < p.length; i += 2) {
      var o = owners[item.pin[i >> 1]];
      out.push(+(o[0] + p[i]).toFixed(3), +(o[1] + p[i + 1]).toFixed(3));
    }
    for (var k in item) { copy[k] = item[k]; }
    copy.pts = out;
    return copy;
  }

  function shifted(label, pose) {
    var copy = {}, move = function (v) { return v.map(function (q, i) { return +(q + pose[i % 2]).toFixed(3); }); };
    for (var k in label) { copy[k] = label[k]; }
    copy.box = move(label.box);
    if (label.leader) { copy.leader = move(label.leader); }
    return copy;
  }

  /* The scene at time ``t`` (frame ``k``: the last sampled moment at or before it): the moment's
   * shapes, those riding on a unit put where its track has the unit at ``t``. */
  function sceneAt(data, k, t) {
    var f = data.frames[k];
    if (t === undefined) { t = f.t_s; }
    var poses = {}, pose = function (id) {
      if (!(id in poses)) { poses[id] = poseAt(data, id, t); }
      return poses[id];
    };
    var items = [], labels = [];
    f.i.forEach(function (e) {
      if (typeof e === "number") { items.push(data.items[e]); return; }
      var item = data.items[e[0]];
      if (item.pin) {
        var owners = e.slice(1).map(pose);
        if (owners.every(function (q) { return q; })) { items.push(pinned(item, owners)); }
        return;
      }
      var p = pose(e[1]);
      if (p) { items.push(placed(item, p)); }
    });
    f.l.forEach(function (e) {
      if (typeof e === "number") { labels.push(data.labels[e]); return; }
      var p = pose(e[1]);
      if (p) { labels.push(shifted(data.labels[e[0]], p)); }
    });
    return {
      table_in: data.table_in, font_in: data.font_in, t_s: t, items: items, labels: labels,
      units: f.u.map(function (i) { return data.units[i]; }),
      turn: data.texts[f.turn], roll: data.texts[f.roll],
      log: data.log.slice(Math.max(0, f.n - 40), f.n)
    };
  }

  /* The last frame at or before t (frames are sorted by time). */
  function frameAt(data, t) {
    var lo = 0, hi = data.frames.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (data.frames[mid].t_s <= t + 1e-6) { lo = mid; } else { hi = mid - 1; }
    }
    return lo;
  }

  function init(root, data) {
    var q = function (sel) { return root.querySelector(sel); };
    var slider = q(".controls input[type=range]"), play = q(".controls .play"), next = q(".controls .next"),
      speed = q(".controls .speed"), clock = q(".controls .clock");
    var t = 0, shown = -1, playing = false, lastTick = 0;
    slider.max = data.duration_s; slider.step = "any";

    function show(time) {
      t = Math.max(0, Math.min(data.duration_s, time));
      slider.value = t;
      clock.textContent = global.ClassView.clock(t) + " / " + global.ClassView.clock(data.duration_s);
      var k = frameAt(data, t), scene = sceneAt(data, k, t);
      // The units move between sampled moments (their tracks): the table is drawn at every step, the
      // panels only when the moment changes.
      global.ClassView.renderTable(root.querySelector("svg.table"), scene);
      if (k !== shown) {
        shown = k;
        global.ClassView.renderPanels(root, scene);
        root.setAttribute("data-frame", k);
      }
      root.setAttribute("data-t", t.toFixed(2));
    }

    function tick(now) {
      if (!playing) { return; }
      var dt = lastTick ? (now - lastTick) / 1000 : 0;
      lastTick = now;
      show(t + dt * parseFloat(speed.value));
      if (t >= data.duration_s) { setPlaying(false); return; }
      global.requestAnimationFrame(tick);
    }

    function setPlaying(on) {
      playing = on;
      play.textContent = on ? "Pause" : "Play";
      root.setAttribute("data-playing", on ? "yes" : "no");
      if (on) {
        if (t >= data.duration_s) { show(0); }
        lastTick = 0;
        global.requestAnimationFrame(tick);
      }
    }

    play.addEventListener("click", function () { setPlaying(!playing); });
    slider.addEventListener("input", function () { show(parseFloat(slider.value)); });
    next.addEventListener("click", function () {
      var after = data.engagements.filter(function (e) { return e > t + 0.01; });
      if (after.length) { setPlaying(false); show(after[0]); }
    });
    next.disabled = !data.engagements.length;
    if (global.ClassViewZoom) { global.ClassViewZoom.attach(root); }
    global.addEventListener("resize", function () { shown = -1; show(t); });
    show(0);
    return { show: show, play: function () { setPlaying(true); }, pause: function () { setPlaying(false); } };
  }

  global.ClassViewScrub = { init: init, sceneAt: sceneAt, frameAt: frameAt, poseAt: poseAt };
})(window);
