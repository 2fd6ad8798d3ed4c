"""The game: armies and units, actions, the mission sequence and the phases of each turn."""
