"""The rules engine: dice, the attack sequence, exact odds (and, in time, the battlefield,
game state, phases and bots).

Modules are imported directly (``from bagm.engine.attack.odds import distribution``); this package
imports nothing itself so that loading one part costs nothing for the others.
"""
