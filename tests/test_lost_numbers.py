"""Abilities whose number no Boarding Actions text gives (``lost:`` in a pack's ability table): never
guessed, never played, and every game that has one says which number is missing. Battle Focus (Aeldari):
its tokens each battle round are set by the battle size, which Boarding Actions does not name."""

from __future__ import annotations

from conftest import REPO

from bagm.data.abilities import played
from bagm.engine.game.muster import build_army

KHAINES_ARROW = str(REPO / "rosters" / "aeldari_khaines_arrow.yaml")


def test_battle_focus_is_not_played_and_every_game_names_the_lost_number():
    army = build_army("A", KHAINES_ARROW)
    notes = [n for n in army.not_modelled if "'Battle Focus'" in n]
    assert notes and all("is not implemented (the number it needs is lost: Battle Focus tokens each battle round"
                         in n for n in notes)
    assert not any("Battle Focus" in n for u in army.units for n, _ in u.standing)  # no effect on any unit


def test_a_lost_number_counts_as_not_modelled():
    from bagm.data.packs import Catalog

    cat = Catalog()
    aeldari = cat.faction("Aeldari")
    assert aeldari is not None
    ds = next(d for d in aeldari.pack.units if "Battle Focus" in d.abilities)
    how = {p.name: p for p in played(ds, cat.abilities("Aeldari"))}["Battle Focus"]
    assert how.how == "" and not how.modelled and how.left == (
        "the number it needs is lost: Battle Focus tokens each battle round (by battle size; Boarding Actions names none)",)
