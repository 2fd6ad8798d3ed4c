"""Playing and recording games: the event log, replay, scripts."""
