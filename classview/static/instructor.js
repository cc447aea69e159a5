/* The instructor's page (classview/instructor.py): the live page with a Bookmark button. Pressing it
 * marks the moment; the note and the review topic can then be typed in, and "Add" sends them (with how
 * long ago the button was pressed) to the server, which makes the bookmark through the session, as
 * Ctrl+B does in the window. The server's answer, or its refusal in one sentence, is shown. */
(function () {
  "use strict";
  var header = document.querySelector("#view header");
  var button = document.createElement("button");
  button.type = "button"; button.className = "bookmark-button"; button.textContent = "Bookmark";
  button.title = "Mark this moment for the debrief, with a note and a review topic";
  header.appendChild(button);

  var panel = document.createElement("form");
  panel.className = "bookmark-panel"; panel.hidden = true;
  panel.innerHTML = '<h2>Bookmark <span class="at"></span></h2>' +
    '<label>Note <input name="note" type="text" autocomplete="off"></label>' +
    '<label>Review topic <select name="topic"><option value="">(no topic)</option></select></label>' +
    '<label>or a new topic <input name="new_topic" type="text" autocomplete="off"></label>' +
    '<div class="buttons"><button type="submit" class="add">Add bookmark</button> ' +
    '<button type="button" class="cancel">Cancel</button></div><p class="result" role="status"></p>';
  document.body.appendChild(panel);
  var note = panel.querySelector("[name=note]"), topic = panel.querySelector("[name=topic]"),
    fresh = panel.querySelector("[name=new_topic]"), result = panel.querySelector(".result");
  var pressedAt = null;

  fetch("topics.json", { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (info) {
    note.maxLength = info.max_note; fresh.maxLength = info.max_topic;
    info.topics.forEach(function (name) {
      var o = document.createElement("option"); o.value = name; o.textContent = name; topic.appendChild(o);
    });
  }).catch(function () {});

  button.addEventListener("click", function () {
    pressedAt = performance.now();
    panel.querySelector(".at").textContent = new Date().toLocaleTimeString();
    result.textContent = ""; result.className = "result";
    panel.hidden = false;
    note.focus();
  });
  panel.querySelector(".cancel").addEventListener("click", function () { panel.hidden = true; pressedAt = null; });
  panel.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var ago = pressedAt === null ? 0 : (performance.now() - pressedAt) / 1000;
    var body = JSON.stringify({ note: note.value, topic: fresh.value.trim() || topic.value, ago_s: ago });
    var add = panel.querySelector(".add");
    add.disabled = true;
    fetch("bookmark", { method: "POST", headers: { "Content-Type": "application/json" }, body: body, cache: "no-store" })
      .then(function (r) {
        return r.text().then(function (text) { return { ok: r.ok, status: r.status, text: text }; });
      })
      .then(function (answer) {
        add.disabled = false;
        if (answer.ok) {
          var made = JSON.parse(answer.text);
          result.textContent = "Bookmarked at " + window.ClassView.clock(made.t_s) + (made.topic ? " under " + made.topic : "") + ".";
          result.className = "result done";
          note.value = ""; fresh.value = ""; pressedAt = null;
          setTimeout(function () { if (result.className === "result done") { panel.hidden = true; } }, 1500);
        } else {
          result.textContent = answer.text.trim() || ("refused (" + answer.status + ")");
          result.className = "result refused";
        }
      })
      .catch(function () {
        add.disabled = false;
        result.textContent = "The class view could not be reached: the bookmark was not made.";
        result.className = "result refused";
      });
  });
})();
