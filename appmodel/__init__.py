"""The Qt-free application model: the game session, overlay geometry in table inches, live tracking, replay."""
