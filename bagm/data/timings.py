"""The moments of a game at which a rule can be used: a Stratagem's WHEN, an effect's trigger.

The names are the vocabulary data packs use (a Detachment Stratagem's ``when``) and the engine
fires: each moment happens at one place in the phase code (Core Rules "Stratagems": "WHEN").
"""

from __future__ import annotations

from typing import Literal, get_args

Timing = Literal[
    "phase_start", "phase_end", "phase_start_or_end", "selected_to_shoot", "selected_to_fight", "targeted",
    "after_enemy_fought", "battleshock_failed", "after_roll", "your_shooting", "your_command", "round_start",
    "after_shot", "charge_move_end", "enemy_attempt", "selected_to_move",
    "enemy_shot", "enemy_fell_back", "charge_declared", "set_up",
]

TIMINGS: dict[str, str] = {
    "phase_start": "the start of a phase",
    "phase_end": "the end of a phase",
    "phase_start_or_end": "the start or the end of a phase",
    "selected_to_shoot": "your Shooting phase, just after a unit from your army has been selected to shoot",
    "selected_to_fight": "the Fight phase, just after a unit from your army has been selected to fight",
    "targeted": "your opponent's Shooting or Fight phase, just after an enemy unit has selected "
                "its targets (one of your units)",
    "after_enemy_fought": "the Fight phase, just after an enemy unit has fought",
    "battleshock_failed": "the Battle-shock step, just after a Battle-shock test was failed",
    "after_roll": "just after a roll or test of a unit or model from your army",
    "your_shooting": "your Shooting phase",
    "your_command": "your Command phase (the 2023 Battlefield Command)",
    "after_shot": "your Shooting phase, just after a unit from your army has shot",
    "charge_move_end": "your Charge phase, just after a unit from your army has made a Charge move",
    "round_start": "the start of the battle round (the player with the first turn first)",
    "enemy_attempt": "just as an enemy unit attempts a Tactical Manoeuvre or to operate a Hatchway",
    "selected_to_move": "your Movement phase, just after a unit from your army has been selected to make a "
                        "Normal, Advance or Fall Back move",
    "enemy_shot": "your opponent's Shooting phase, just after an enemy unit has shot: about each unit of yours "
                  "hit by one or more of its attacks",
    "enemy_fell_back": "just after an enemy unit has ended a Fall Back move: about each unit of yours that was "
                       "within its Engagement Range when it was selected to Fall Back",
    "charge_declared": "your Charge phase, just after a unit from your army has declared a charge",
    "set_up": "the Reinforcements step, just after a unit from your army has been set up on the battlefield",
}
assert set(TIMINGS) == set(get_args(Timing))

Phase = Literal["command", "movement", "shooting", "charge", "fight"]
