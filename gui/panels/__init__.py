"""The companion's side panels: roster, attack, turn, log, replay timeline (Qt widgets that subscribe
to a :class:`gui.session.GameSession` and disconnect when closed)."""
