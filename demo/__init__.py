"""The embedded demo: the rulebook's in-depth example played on the synthetic table through the real pipeline.

The story (:mod:`demo.story`) turns the script of ``rules/downrange/examples/in_depth.py`` into
a timeline: units moving on the table as the text narrates, and beats at which the rules act (an
attack is aimed, then resolved with the dice the text states). :mod:`demo.footage` films it with
the synthetic table's simulated webcam; the tracker follows the units from those frames (nothing is
handed over from the script); :mod:`demo.director` feeds the tracked poses and the beats to a
:class:`appmodel.game_session.GameSession`, which decides everything the rules decide.
:mod:`gui.demo.headless` writes the overlaid video, the recording and the debrief report;
:mod:`demo.live` and :mod:`gui.demo.window` play the same story in the companion's window.

Everything here is Qt-free except :mod:`gui.demo.caption` (drawing the caption band), the headless
compositing and :mod:`gui.demo.window`.
"""
