"""Selecting A Scenario: the 2D6 roll (the Eldar's Farsight re-roll) and each scenario's rules.

The scenario section lost its titles; the ten descriptions follow in the order of the contents
list (Cleanse ... Stand Your Ground), which bagm reads as their titles. The rules are
paraphrased and structured: special rules, deployment, first turn, the end, bonus points.
"""

from __future__ import annotations

from dataclasses import dataclass

from bagm.chance.dice import Dice
from bagm.errors import BagmError

TITLES_NOTE = ("reading: the scenario titles were lost in the text; each description is named "
               "by its place in the contents list")


class ScenarioError(BagmError, ValueError):
    """An unknown scenario or a roll that is not a 2D6 result."""


@dataclass(frozen=True)
class Scenario:
    key: str
    name: str
    special_rules: tuple[str, ...]
    deployment: str
    first_turn: str
    ending: str
    bonus: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {"key": self.key, "name": self.name, "special_rules": list(self.special_rules),
                "deployment": self.deployment, "first_turn": self.first_turn,
                "ending": self.ending, "bonus": list(self.bonus)}


_ROLL_OFF = "both roll a D6; the higher chooses to go first or second"
SCENARIOS: dict[str, Scenario] = {s.key: s for s in (
    Scenario("cleanse", "Cleanse", (),
             "Attacker picks a side and deploys first within 6\"; Defender on the opposite side "
             "within 6\"; opposing models at least 18\" apart.",
             _ROLL_OFF + " (rolled once per game).",
             "When a side fails its Rout test and withdraws, or is wiped out; the side left wins."),
    Scenario("rescue", "Rescue", ("Random Game Length", "Reserves"),
             "Defender puts at least half the unit in the middle of the board (it may use cover "
             "such as sandbags); the rest is in Reserve and enters from a random table edge. "
             "Attacker deploys no closer than 18\" to the Defender.",
             "Attacker, every turn.",
             "Attacker wins by removing every Defender model (Out of Action or Killed); Defender "
             "wins by keeping at least 25% of its starting models on the board.",
             ("Surviving The Battle: +1 point per Defender model not Killed or Out of Action",
              ("Genocide: +1 point per Attacker model if every Defender model was taken Out of "
              "Action or Killed"))),
    Scenario("breakthrough", "Breakthrough", ("Night Fighting", "Sentries"),
             "Defender sets up on a chosen side within 12\" of its edge; Attacker places "
             "Sentries, the rest arrives on the opposite side within 6\" once the alarm is raised.",
             "Defender, every turn.",
             "Six turns. Defender wins with at least half its unit in the Attacker's deployment "
             "zone; otherwise, or if the Defender fails a Rout test, the Attacker wins.",
             ("Escape: +1 point per Defender model that reached the Attacker's deployment zone",)),
    Scenario("surprise", "Surprise", ("Random Game Length",),
             "Defender deploys anywhere, models at least 6\" apart; Attacker within 6\" of a "
             "random table edge.",
             _ROLL_OFF + ".",
             "A unit that fails its Rout test loses; both units still on the board at the end "
             "is a draw."),
    Scenario("chance_encounter", "Chance Encounter", ("Night Fighting on a D6 roll of 4+",
                                                      "Random Game Length"),
             "A building in the centre holds a data terminal (cover for the Defender only). "
             "Defender deploys in or around it and secretly picks the Leader or a Specialist to "
             "carry the terminal for the whole game; Attacker anywhere at least 18\" away.",
             "Defender, every turn.",
             "Defender wins if the carrier leaves the table; Attacker wins if the carrier is "
             "taken Out of Action or Killed.",
             ("Escape: +20 points if the Defender gets the terminal off the table",)),
    Scenario("hunt", "Hunt", ("Night Fighting on a D6 roll of 4+", "Hidden Setup (Attacker only)"),
             "Defender anywhere; Attacker within 6\" of a random table edge.",
             "Attacker, every turn.",
             "Over when the Defender's Leader leaves the table; the Defender wins if the "
             "Attacker fails a Rout test and withdraws.",
             (("+50 points to the Attacker if the Defender's Leader is taken Out of Action; "
              "+100 if it is Killed"),)),
    Scenario("recon", "Recon", ("Hidden Setup (Defender only)", "Random Game Length"),
             "Defender anywhere, models at least 6\" apart; Attacker within 6\" of a random "
             "table edge.",
             "Attacker, every turn.",
             "Defender wins by taking every Attacker model Out of Action or Killing it; any "
             "other result is an Attacker win."),
    Scenario("pig_in_the_middle", "Pig In The Middle", ("Random Game Length",),
             "Defender in the middle of the table within a 12\" circle; Attacker splits its unit "
             "between two opposite sides, each within 6\".",
             "Attacker, every turn.",
             "Defender wins with at least 25% of its original models on the board at the end; "
             "any other result is an Attacker win."),
    Scenario("no_retreat_no_surrender", "No Retreat No Surrender", ("Random Game Length",),
             "As Cleanse: Attacker picks a side and deploys within 6\"; Defender opposite; "
             "opposing models at least 18\" apart.",
             "Attacker, every turn. No Rout tests and no voluntary withdrawal.",
             "The last unit on the board wins; a draw if the game ends first."),
    Scenario("stand_your_ground", "Stand Your Ground", ("Obstacles",),
             "Defender sets up around a terrain piece at least 12\" from every edge and may place "
             "D6 obstacles; Attacker up to 12\" onto the table from a random edge.",
             _ROLL_OFF + ".",
             "When a side fails its Rout test and withdraws; the unit left wins.",
             ("Not An Inch Given: +20 points to the Defender if it wins",)),
)}


def scenario_for(total: int, table: dict[int, str]) -> str:
    """The scenario key a 2D6 total selects (``choose``: the player with fewer models picks)."""
    if total not in table:
        raise ScenarioError(f"a 2D6 roll is 2 to 12, not {total}")
    return table[total]


def find(name: str) -> Scenario:
    want = "".join(c for c in name.lower() if c.isalnum())
    for s in SCENARIOS.values():
        if want in ("".join(c for c in s.key if c.isalnum()), "".join(c for c in s.name.lower() if c.isalnum())):
            return s
    raise ScenarioError(f"unknown scenario '{name}'; known: " + ", ".join(s.name for s in SCENARIOS.values()))


@dataclass(frozen=True)
class ScenarioRoll:
    rolls: tuple[tuple[int, int], ...]  # each 2D6 roll made (two with Farsight's re-roll)
    key: str

    @property
    def total(self) -> int:
        return sum(self.rolls[-1])


def roll_scenario(dice: Dice, table: dict[int, str], farsight_reroll: bool = False) -> ScenarioRoll:
    """Roll 2D6 on the scenario table; with Farsight (Eldar) the player re-rolls once and the
    second roll stands."""
    rolls = [(dice.d6("scenario"), dice.d6("scenario"))]
    if farsight_reroll:
        rolls.append((dice.d6("Farsight re-roll"), dice.d6("Farsight re-roll")))
    return ScenarioRoll(tuple(rolls), scenario_for(sum(rolls[-1]), table))


def roll_sides(dice: Dice) -> list[tuple[int, int]]:
    """Attack & Defender: each player rolls a D6 and the higher chooses to attack or defend.
    Reading: equal rolls are rolled again (the text does not say)."""
    rolls = []
    while True:
        a, b = dice.d6("player A: Attacker or Defender"), dice.d6("player B: Attacker or Defender")
        rolls.append((a, b))
        if a != b:
            return rolls
