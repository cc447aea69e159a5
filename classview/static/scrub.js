/* The debrief's table timeline: a thinned timeline (classview/timeline.py) turned back into scenes
 * for the same renderer as the live page (classview.js). Play, pause, drag the slider, jump to the
 * next engagement, choose the speed; pause by itself at chosen moments, leave filtered units out, and
 * keep the recording's camera video beside the table at the moment shown. */
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
   * shapes, those riding on a unit put where its track has the unit at ``t``. ``hidden``: unit ids
   * the viewer filtered out (a side unticked): their shapes, labels and rows are left out, and so is
   * a shape between units (a radio link) that reaches one of them. */
  function sceneAt(data, k, t, hidden) {
    var f = data.frames[k];
    if (t === undefined) { t = f.t_s; }
    hidden = hidden || {};
    var poses = {}, pose = function (id) {
      if (!(id in poses)) { poses[id] = poseAt(data, id, t); }
      return poses[id];
    };
    var gone = function (id) { return hidden[id] === true; };
    var items = [];
    f.i.forEach(function (e) {
      if (typeof e === "number") {
        var fixed = data.items[e], owners = fixed.units || [];
        if (!(owners.length && owners.every(gone))) { items.push(fixed); }
        return;
      }
      if (e.slice(1).some(gone)) { return; }
      var item = data.items[e[0]];
      if (item.pin) {
        var owners = e.slice(1).map(pose);
        if (owners.every(function (q) { return q; })) { items.push(pinned(item, owners)); }
        return;
      }
      var p = pose(e[1]);
      if (p) { items.push(placed(item, p)); }
    });
    /* One placement's labels (``l``, or one of ``ls``): those riding on a unit put where it is at t. */
    function labelsOf(list) {
      var labels = [];
      list.forEach(function (e) {
        if (typeof e === "number") {
          var label = data.labels[e];
          if (!gone(label.of)) { labels.push(label); }
          return;
        }
        if (gone(e[1])) { return; }
        var p = pose(e[1]);
        if (p) { labels.push(shifted(data.labels[e[0]], p)); }
      });
      return labels;
    }
    var labels = labelsOf(f.l), sets = null;
    // The placements made for smaller screens (a phone's): the table takes the one for its own scale,
    // as the live class view does (classview.js labelSet).
    if (f.ls && data.label_scales && data.label_scales.length === f.ls.length + 1) {
      sets = data.label_scales.map(function (s, i) {
        return { px_per_in: s.px_per_in, font_in: s.font_in, labels: i ? labelsOf(data.placements[f.ls[i - 1]]) : labels };
      });
    }
    return {
      table_in: data.table_in, font_in: data.font_in, t_s: t, items: items, labels: labels, label_sets: sets,
      units: f.u.map(function (i) { return data.units[i]; }).filter(function (u) { return !gone(u.id); }),
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

  /* Where the recording's camera video was at session time ``t`` (seconds into the video): linear
   * between the points of ``map`` ([t_s, video_s] pairs, classview/timeline.py's video_map). */
  function videoTime(map, t) {
    if (!map || !map.length) { return 0; }
    if (t <= map[0][0]) { return map[0][1]; }
    var n = map.length;
    if (t >= map[n - 1][0]) { return map[n - 1][1]; }
    var lo = 0, hi = n - 1;
    while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (map[mid][0] <= t) { lo = mid; } else { hi = mid; } }
    var a = map[lo], b = map[hi], f = b[0] > a[0] ? (t - a[0]) / (b[0] - a[0]) : 0;
    return a[1] + f * (b[1] - a[1]);
  }

  /* The camera video beside the table, following the timeline: seeked to the moment shown (a seek
   * waits for the one before it to land, so fast play never piles them up), played along at the
   * timeline's speed when the browser can (up to 16x), drift corrected. No video: nothing shown. */
  function cameraFollower(root, video) {
    var box = root.querySelector(".camera"), el = box && box.querySelector("video");
    if (!video || !el) { return function () {}; }
    var seeking = false, latest = null, broken = false, native = false;
    box.hidden = false;
    root.setAttribute("data-video", "loading");
    /* Seek to the newest moment wanted, once the seek before it has landed. */
    function settle() {
      if (broken || latest === null || el.readyState < 1 || seeking || native) { return; }
      if (Math.abs(el.currentTime - latest) < 0.01) { root.setAttribute("data-video-at", el.currentTime.toFixed(3)); return; }
      seeking = true;
      el.currentTime = latest;
    }
    el.addEventListener("loadedmetadata", function () { root.setAttribute("data-video", "ready"); settle(); });
    el.addEventListener("seeked", function () { seeking = false; settle(); });
    el.addEventListener("error", function () {
      broken = true; box.hidden = true; root.setAttribute("data-video", "missing");
    });
    el.src = video.src;
    return function follow(t, playing, speed) {
      if (broken) { return; }
      latest = videoTime(video.map, t);
      root.setAttribute("data-video-target", latest.toFixed(3));
      if (el.readyState < 1) { return; }
      native = playing && speed <= 16;
      if (native) {
        if (el.playbackRate !== speed) { el.playbackRate = speed; }
        if (el.paused) { var p = el.play(); if (p && p.catch) { p.catch(function () {}); } }
        if (Math.abs(el.currentTime - latest) > 0.3 * Math.max(1, speed) && !seeking) { seeking = true; el.currentTime = latest; }
        return;
      }
      if (!el.paused) { el.pause(); }
      settle();
    };
  }

  /* How near a moment of play must come to a stop to be at it (session times are kept to the ms). */
  var STOP_EPS_S = 1e-6;

  function init(root, data) {
    var q = function (sel) { return root.querySelector(sel); };
    var slider = q(".controls input[type=range]"), play = q(".controls .play"), next = q(".controls .next"),
      speed = q(".controls .speed"), clock = q(".controls .clock");
    var t = 0, shown = -1, playing = false, lastTick = 0, hidden = {}, stops = [], listeners = [];
    var follow = cameraFollower(root, data.video);
    slider.max = data.duration_s; slider.step = "any";

    function show(time) {
      t = Math.max(0, Math.min(data.duration_s, time));
      slider.value = t;
      clock.textContent = global.ClassView.clock(t) + " / " + global.ClassView.clock(data.duration_s);
      var k = frameAt(data, t), scene = sceneAt(data, k, t, hidden);
      // The units move between sampled moments (their tracks): the table is drawn at every step, the
      // panels only when the moment changes.
      global.ClassView.renderTable(root.querySelector("svg.table"), scene);
      if (k !== shown) {
        shown = k;
        global.ClassView.renderPanels(root, scene);
        root.setAttribute("data-frame", k);
      }
      root.setAttribute("data-t", t.toFixed(2));
      follow(t, playing, parseFloat(speed.value));
      listeners.forEach(function (fn) { fn(t, playing); });
    }

    /* The first stop after ``from`` up to ``to`` (stops are sorted), or null. Both ends within a
     * microsecond, as the window's replay (ReplayModel.review_between): a stop the replay stands on
     * is behind it, and a step of play that lands a hair short of a stop (the sum of frames' steps
     * rounds) reaches it, rather than stepping over it on the next frame. */
    function stopBetween(from, to) {
      for (var i = 0; i < stops.length; i++) {
        if (stops[i] > to + STOP_EPS_S) { break; }
        if (stops[i] > from + STOP_EPS_S) { return stops[i]; }
      }
      return null;
    }

    function tick(now) {
      if (!playing) { return; }
      var dt = lastTick ? (now - lastTick) / 1000 : 0;
      lastTick = now;
      var to = t + dt * parseFloat(speed.value), stop = stopBetween(t, to);
      if (stop !== null) {
        // An event the viewer chose to pause at: shown exactly at its moment, then paused.
        playing = false;
        show(stop);
        setPlaying(false);
        root.setAttribute("data-paused-at", stop.toFixed(3));
        return;
      }
      show(to);
      if (t >= data.duration_s) { setPlaying(false); return; }
      global.requestAnimationFrame(tick);
    }

    function setPlaying(on) {
      playing = on;
      play.textContent = on ? "Pause" : "Play";
      root.setAttribute("data-playing", on ? "yes" : "no");
      if (on) {
        root.removeAttribute("data-paused-at");
        if (t >= data.duration_s) { show(0); }
        lastTick = 0;
        global.requestAnimationFrame(tick);
      } else {
        follow(t, false, parseFloat(speed.value));
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
    return {
      show: show, play: function () { setPlaying(true); }, pause: function () { setPlaying(false); },
      time: function () { return t; }, playing: function () { return playing; }, duration_s: data.duration_s,
      /* Pause by itself at each of these session times (the review panel's choice). */
      setStops: function (times) { stops = times.slice().sort(function (a, b) { return a - b; }); },
      /* Leave these units out of the table and its panels (a filtered side). */
      setHidden: function (ids) {
        hidden = {};
        ids.forEach(function (id) { hidden[id] = true; });
        shown = -1; show(t);
      },
      /* Call ``fn(t, playing)`` at every moment shown. */
      onShow: function (fn) { listeners.push(fn); }
    };
  }

  global.ClassViewScrub = { init: init, sceneAt: sceneAt, frameAt: frameAt, poseAt: poseAt, videoTime: videoTime };
})(window);
