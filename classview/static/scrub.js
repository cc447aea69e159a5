/* The debrief's table timeline: a thinned timeline (classview/timeline.py) turned back into scenes
 * for the same renderer as the live page (classview.js). Play, pause, drag the slider, jump to the
 * next engagement, choose the speed. */
(function (global) {
  "use strict";

  function sceneAt(data, k) {
    var f = data.frames[k];
    return {
      table_in: data.table_in, font_in: data.font_in, t_s: f.t_s,
      items: f.i.map(function (i) { return data.items[i]; }),
      labels: f.l.map(function (i) { return data.labels[i]; }),
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
      var k = frameAt(data, t);
      if (k !== shown) {
        shown = k;
        global.ClassView.render(root, sceneAt(data, k));
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

  global.ClassViewScrub = { init: init, sceneAt: sceneAt, frameAt: frameAt };
})(window);
