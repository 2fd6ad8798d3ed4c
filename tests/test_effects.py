"""Effects from every source in one vocabulary (:class:`bagm.data.models.Effect`): a Detachment
rule on the units of its army, a Detachment Enhancement on its bearer's unit, a conferred Leader
ability on the unit it leads. The facts come from data packs; an overlay pack supplies them here."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from bagm.data.packs import Catalog, data_dirs
from bagm.engine.game.muster import build_army
from bagm.engine.rules.effects import effect_defence, effect_has, effect_least, effect_sum

GK = str(REPO / "rosters" / "grey_knights_void_purge_force.yaml")


def catalog(tmp_path: Path, rule: str | None, sigil: str | None) -> Catalog:
    """Grey Knights with the Void Purge Force's rule and Sigil of Warding given ``effects``
    (YAML flow text; None: not modelled)."""
    lines = ["faction: Grey Knights", "detachments:", "  - name: Void Purge Force"]
    lines.append(f"    rule_effects: {rule if rule is not None else 'null'}")
    lines += ["    enhancements:",
              "      - {name: Sigil of Warding" + (f", effects: {sigil}" if sigil is not None else "") + "}",
              "      - {name: Tactical Haruspexy}",
              # the rule and the Enhancement alone: the Purifier Squad's own ability and the army rule
              # (Eye of the Prognosticars) left unmodelled
              "abilities:", "  - {name: Sanctity of Purpose, effects: null}", "  - {name: Gate of Infinity, effects: null}"]
    (tmp_path / "gk.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Catalog(data_dirs([tmp_path]))


def test_unmodelled_rule_and_enhancement_are_listed_and_give_nothing(tmp_path):
    army = build_army("A", GK, catalog(tmp_path, None, None))
    assert any("Detachment rule 'An Urgent Duty'" in n and "not implemented" in n for n in army.not_modelled)
    assert any("Enhancement 'Sigil of Warding' is not implemented" in n for n in army.not_modelled)
    assert not any(u.standing or u.affected for u in army.units)


def test_a_detachment_rule_applies_to_every_unit_of_its_army_with_the_keyword(tmp_path):
    # Boarding Actions "Detachment Rules": the rule's effect on the army's units; a keyword
    # condition says which (here every GREY KNIGHTS unit gains +1 OC and Fights First)
    army = build_army("A", GK, catalog(tmp_path, "[{OC_mod: 1, fights_first: true, only_keyword: GREY KNIGHTS}]", None))
    assert not any("Detachment rule" in n for n in army.not_modelled)
    for u in army.units:
        assert u.affected and [name for name, _ in u.standing] == ["An Urgent Duty"]
        assert u.oc() == u.OC + 1 and effect_has(u, "fights_first")
        assert u.source("fights_first") == "An Urgent Duty"
    strike = next(u for u in army.units if u.name.startswith("Strike Squad"))
    strike.battleshocked = True
    assert strike.oc() == 0  # Battle-shock still sets OC to 0


def test_a_keyword_condition_leaves_out_units_without_it(tmp_path):
    army = build_army("A", GK, catalog(tmp_path, "[{M_mod: 2, only_keyword: TERMINATOR}]", None))
    for u in army.units:
        assert u.move() == u.M + (2 if "TERMINATOR" in u.keywords else 0)
    assert {"TERMINATOR" in u.keywords for u in army.units} == {True, False}


def test_a_detachment_enhancement_applies_to_its_bearers_unit_only(tmp_path):
    army = build_army("A", GK, catalog(tmp_path, None, "[{invuln: 3, fnp: 6, pile_in: 6}]"))
    assert not any("Sigil of Warding" in n for n in army.not_modelled)
    chaplain = next(u for u in army.units if u.enhancement == "Sigil of Warding")
    assert [name for name, _ in chaplain.standing] == ["Sigil of Warding"]
    assert effect_defence(chaplain) == (3, 6) and effect_least(chaplain, "pile_in") == 6
    others = [u for u in army.units if u is not chaplain]
    assert all(not u.affected and effect_defence(u) == (u.invuln, None) for u in others)


def test_effects_of_several_sources_add_up(tmp_path):
    army = build_army("A", GK, catalog(tmp_path, "[{charge_mod: 1}]", "[{charge_mod: 1}]"))
    chaplain = next(u for u in army.units if u.enhancement == "Sigil of Warding")
    assert effect_sum(chaplain, "charge_mod") == 2
    assert all(effect_sum(u, "charge_mod") == 1 for u in army.units if u is not chaplain)


@pytest.mark.parametrize("bad", ["[{OC_mod: one}]", "[{no_such_field: 1}]"])
def test_a_bad_effect_in_a_pack_is_a_clear_error(tmp_path, bad):
    from bagm.errors import BagmError

    with pytest.raises(BagmError) as e:
        build_army("A", GK, catalog(tmp_path, bad, None))
    assert "gk.yaml" in str(e.value)
