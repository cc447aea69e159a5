"""The parts of the game session, one job each; :class:`appmodel.game_session.GameSession` composes them.

Each part is handed what it needs (the ruleset, the units as the rules show them, a recorder) and
never reaches back into the session: the tape and the selection are values worked out from unit
views, the dice sources wrap other dice, the tracked poses turn tracker poses into ``set_pose``
calls, the log holds and words its lines.
"""
