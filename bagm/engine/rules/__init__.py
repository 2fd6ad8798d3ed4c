"""The rules that plug into the game as entries: Leader abilities and Battlefield Command,
Stratagems, Enhancements, missions and their rules."""
