"""Rules the engine once got wrong (issue 12, section 2), each against the book's text, with
scripted dice and the public Game API only."""

from __future__ import annotations

from conftest import REPO

from bagm.chance.dice import Dice
from bagm.data.packs import Catalog
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.roster.model import load_roster
from bagm.roster.squads import form_boarding_squads
from bagm.roster.underdog import decide
from bagm.roster.validate import validate

ROSTERS = REPO / "rosters"
GK_VOID = ROSTERS / "grey_knights_void_purge_force.yaml"
GK_BANE = ROSTERS / "grey_knights_baneslayer_strike.yaml"


# --- 1. The Underdog is decided on the roster totals ---------------------------------------------


def test_underdog_compares_roster_totals_not_boarding_squads():
    """Muster Boarding Patrol (step 1): "If, when players compare their points total, one
    players is at least 30 points less than their opponent's, then the player with the smaller
    points total is the Underdog". Form Boarding Squads (step 5) halves split units "rounding up",
    which here lifts 470 to 471: it must not take the Underdog away."""
    bane = validate(load_roster(GK_BANE), Catalog())
    void = validate(load_roster(GK_VOID), Catalog())
    assert (void.points, bane.points) == (500, 470)
    assert form_boarding_squads(str(GK_BANE), bane.units).points == 471  # the boundary case
    cli = decide(void.points, bane.points).underdog
    g = Game(11, build_army("A", GK_VOID), build_army("B", GK_BANE), dice=Dice.scripted([]),
             rolloffs={"attacker": "A", "first_turn": "A"})
    assert cli == g.underdog == "B"
    assert g.cp["B"] == g.cp["A"] + 1  # mission 11's Underdog Bonus: 1 additional CP
