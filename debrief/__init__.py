"""The debrief: what happened in a recorded session, as facts (``facts.py``, Qt-free, shared with the
GUI replay) and as a self-contained HTML report (``report.py``); docs/debrief.md."""
