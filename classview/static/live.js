/* The live page: one WebSocket to the server (the same address, with its key), each message the
 * newest scene; drawn at once. Read-only: the page never sends anything that changes the game. */
(function () {
  "use strict";
  var root = document.getElementById("view"), status = document.getElementById("status");
  var scene = null, delay = 500, lastAt = 0;

  function setStatus(text, cls) { status.textContent = text; status.className = "status " + cls; }

  function socketUrl() {
    var base = location.pathname.replace(/[^/]*$/, "");
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + base + "ws";
  }

  function connect() {
    var ws = new WebSocket(socketUrl());
    ws.onopen = function () { delay = 500; setStatus("live", "live"); };
    ws.onmessage = function (msg) {
      scene = JSON.parse(msg.data);
      lastAt = Date.now();
      window.ClassView.render(root, scene);
      root.setAttribute("data-version", scene.version);
    };
    ws.onclose = function () {
      setStatus("reconnecting…", "lost");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    };
  }

  window.ClassViewZoom.attach(root);
  // Pen widths and markers are in screen pixels: redraw at the new size.
  window.addEventListener("resize", function () { if (scene) { window.ClassView.renderTable(root.querySelector("svg.table"), scene); } });
  connect();
})();
