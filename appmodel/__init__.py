"""The Qt-free application model: the game session (``game_session.py`` and its parts in ``session/``), what to
draw in table inches (``overlays/``), a recording's one writer and one reader (``recording/``), live tracking
(``tracking/``), replay (``replay_model.py``) and the shipped scenarios (``scenarios/``)."""
