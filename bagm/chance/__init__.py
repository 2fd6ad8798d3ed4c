"""Chance, shared by every rules system bagm plays: seeded dice that record each roll
(:mod:`bagm.chance.dice`), dice expressions, and exact distributions in fractions
(:mod:`bagm.chance.dist`).

Neutral ground: this package imports nothing else of bagm, so Boarding Actions, Skirmish Battles,
Battlefleet Gothic and Heroes of Black Reach all build on it without knowing each other.
"""
