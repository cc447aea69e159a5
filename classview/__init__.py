"""The class view: the table, its overlays, the turn, the last roll and the log in a browser, live
(:mod:`classview.server`) and in the debrief's timeline (:mod:`classview.timeline`). Qt-free: it reads
the application model and draws, in the browser, the same draw items in table inches the Qt painter
draws (:mod:`classview.scene` turns them into JSON; ``static/classview.js`` into SVG)."""
