/* The debrief's after-action review around the table's timeline (classview/static/scrub.js's player):
 * pause by itself at each event of the kinds chosen, filter by side, unit and kind (the table, the
 * lanes and the lists show only what is chosen), the events and the comms (who signalled whom, what
 * jamming cut) on lanes under the table, and in lists beside each other. Data: debrief/aar.py. */
(function (global) {
  "use strict";

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function clock(t) {
    var m = Math.floor(t / 60), s = t - 60 * m;
    return m + ":" + (s < 10 ? "0" : "") + s.toFixed(1);
  }

  function init(root, player, data) {
    if (!player) { root.hidden = true; return null; }
    var q = function (sel) { return root.querySelector(sel); };
    var units = {}, kindWords = {};
    data.units.forEach(function (u) { units[u[0]] = { id: u[0], name: u[1], side: u[2] }; });
    data.kinds.forEach(function (k) { kindWords[k[0]] = k[2]; });
    var colors = {};
    data.sides.forEach(function (s) { colors[s[0]] = s[1]; });
    var duration = Math.max(player.duration_s, 1e-3);
    var nameOf = function (id) { return units[id] ? units[id].name : "unit " + id; };

    function box(into, cls, value, label, checked, color) {
      var l = document.createElement("label");
      l.className = cls;
      l.innerHTML = '<input type="checkbox" value="' + esc(value) + '"' + (checked ? " checked" : "") + "> " +
        (color ? '<span class="chip" style="background:' + esc(color) + '"></span>' : "") + esc(label);
      into.appendChild(l);
      return l.querySelector("input");
    }

    // The choices: what to pause at (none at first: Play plays on), and what to show (everything).
    var pauseBoxes = data.kinds.map(function (k) { return box(q("fieldset.pause"), "kind k-" + k[0], k[0], k[1], false); });
    var topicBoxes = data.topics.filter(function (tp) { return tp[1].length; }).map(function (tp) {
      var b = box(q("fieldset.pause"), "topic", tp[0], "topic: " + tp[0], false);
      b.times = tp[1];
      return b;
    });
    var sideBoxes = data.sides.map(function (s) { return box(q(".show .sides"), "aar-side", s[0], s[0] || "(no side)", true, s[1]); });
    // (the tracker's events are left out until asked, as in the window's list)
    var kindBoxes = data.kinds.map(function (k) { return box(q(".show .kinds"), "kind k-" + k[0], k[0], k[1], k[3] !== false); });
    var unitSelect = q("select.unit");
    data.units.slice().sort(function (a, b) { return a[1] < b[1] ? -1 : 1; }).forEach(function (u) {
      var o = document.createElement("option");
      o.value = u[0]; o.textContent = u[1] + (u[2] ? " (" + u[2] + ")" : "");
      unitSelect.appendChild(o);
    });

    var ticked = function (boxes) {
      var out = {};
      boxes.forEach(function (b) { if (b.checked) { out[b.value] = true; } });
      return out;
    };

    /* Whether an event (its kind, the units it concerns, the side that acted) passes the Show filters,
     * as appmodel.recording.review.passes decides for the window: an event of no side (a bookmark) always. */
    function shown(kind, ids, f, side) {
      if (!f.kinds[kind]) { return false; }
      if (f.unit !== null && ids.indexOf(f.unit) < 0) { return false; }
      return side === null || side === undefined || f.sides[side] === true;
    }

    function filters() {
      return { kinds: ticked(kindBoxes), sides: ticked(sideBoxes),
               unit: unitSelect.value === "" ? null : parseInt(unitSelect.value, 10) };
    }

    function commsWords(c) {
      var who = nameOf(c[2]);
      if (c[1] === "jamming") { return who + " jams" + (c[4].length ? ": cuts " + c[4].join(", ") : ": no radio cut"); }
      var to = c[3].map(nameOf).join(", ");
      if (c[1] === "sigint") { return who + " listens" + (to ? ": finds " + to : ": finds nobody"); }
      return who + " → " + (to || "nobody heard (or not recorded)");
    }

    var rows = [], commsRows = [];

    function mark(lane, t, cls, title, text) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "mark " + cls;
      b.style.left = (100 * t / duration).toFixed(3) + "%";
      b.title = clock(t) + " " + title;
      b.setAttribute("aria-label", clock(t) + " " + title);
      if (text) { b.textContent = text; }
      b.addEventListener("click", function () { player.pause(); player.show(t); });
      lane.appendChild(b);
    }

    function rebuild() {
      var f = filters();
      // The table: a side left out is left off the table too.
      var hidden = data.units.filter(function (u) { return !f.sides[u[2]]; }).map(function (u) { return u[0]; });
      player.setHidden(hidden);
      var events = data.events.filter(function (e) { return shown(e[1], e[2], f, e[4]); });
      var comms = data.comms.filter(function (c) {  // filtered as the event it belongs to
        var e = data.events[c[6]];
        return shown(e[1], e[2], f, e[4]);
      });
      var lanes = root.querySelectorAll(".lane");
      Array.prototype.forEach.call(lanes, function (lane) {
        Array.prototype.forEach.call(lane.querySelectorAll(".mark"), function (m) { m.remove(); });
      });
      var eventsLane = q('.lane[data-lane="events"]'), commsLane = q('.lane[data-lane="comms"]');
      events.forEach(function (e) { mark(eventsLane, e[0], "k-" + e[1], e[3]); });
      comms.forEach(function (c) { mark(commsLane, c[0], "k-" + (c[1] === "jamming" ? "jamming" : "signal"), commsWords(c), commsWords(c)); });
      var list = q("ol.events");
      list.innerHTML = events.map(function (e) {
        return '<li data-t="' + e[0] + '" class="k-' + esc(e[1]) + '"><button type="button">' + clock(e[0]) + "</button> " +
          '<span class="kind">' + esc(kindWords[e[1]] || e[1]) + "</span> " + esc(e[3]) + "</li>";
      }).join("") || "<li>Nothing of the kinds chosen.</li>";
      q(".count").textContent = "(" + events.length + " of " + data.events.length + ")";
      var clist = q("ol.comms");
      clist.innerHTML = comms.map(function (c) {
        var cut = c[1] === "jamming";
        return '<li data-t="' + c[0] + '" class="k-' + (cut ? "jamming" : "signal") + '"><button type="button">' + clock(c[0]) +
          '</button> <b>' + esc(commsWords(c)) + '</b> <small>' + esc(c[5]) + "</small></li>";
      }).join("") || "<li>No radio traffic of the units and kinds chosen.</li>";
      [list, clist].forEach(function (l) {
        Array.prototype.forEach.call(l.querySelectorAll("li[data-t] button"), function (b) {
          b.addEventListener("click", function () { player.pause(); player.show(parseFloat(b.parentNode.getAttribute("data-t"))); });
        });
      });
      rows = Array.prototype.slice.call(list.querySelectorAll("li[data-t]"));
      commsRows = Array.prototype.slice.call(clist.querySelectorAll("li[data-t]"));
      // Pause at: the events shown of the kinds ticked, and the moments of each topic ticked.
      var pauseKinds = ticked(pauseBoxes), stops = [];
      events.forEach(function (e) { if (pauseKinds[e[1]]) { stops.push(e[0]); } });
      topicBoxes.forEach(function (b) { if (b.checked) { stops = stops.concat(b.times); } });
      player.setStops(stops);
      root.setAttribute("data-stops", stops.length);
      follow(player.time());
    }

    /* The playhead on the lanes and the rows up to now marked as past, the last one as current. */
    function follow(t) {
      var left = (100 * t / duration).toFixed(3) + "%";
      Array.prototype.forEach.call(root.querySelectorAll(".lane"), function (lane) {
        var head = lane.querySelector(".head");
        if (!head) { head = document.createElement("span"); head.className = "head"; lane.appendChild(head); }
        head.style.left = left;
      });
      [rows, commsRows].forEach(function (list) {
        var last = null;
        list.forEach(function (li) {
          var past = parseFloat(li.getAttribute("data-t")) <= t + 1e-6;
          li.classList.toggle("past", past);
          li.classList.remove("now");
          if (past) { last = li; }
        });
        if (last) {
          last.classList.add("now");
          // The list (not the page) scrolls to keep the current row in sight.
          var box = last.parentNode, top = last.offsetTop - box.offsetTop;
          if (top < box.scrollTop || top + last.offsetHeight > box.scrollTop + box.clientHeight) {
            box.scrollTop = Math.max(0, top - box.clientHeight / 3);
          }
        }
      });
    }

    root.addEventListener("change", rebuild);
    player.onShow(function (t) { follow(t); });
    rebuild();
    return { rebuild: rebuild };
  }

  global.AfterActionReview = { init: init };
})(window);
