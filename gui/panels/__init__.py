"""The companion's side panels: roster, attack, turn, log, replay timeline (Qt widgets that subscribe
to a :class:`appmodel.game_session.GameSession` and disconnect when closed)."""
