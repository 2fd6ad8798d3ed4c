"""``bagm data coverage``: what the engine models of the data, per faction and in total; its
counts against the packs and the rosters counted independently, its JSON shape, and the
README's table held equal to its output."""

from __future__ import annotations

import json
import os
import re
from functools import cache

from conftest import REPO
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.data.packs import Catalog, data_dirs
from bagm.engine.coverage import KINDS, bundled_rosters, coverage
from bagm.engine.game.muster import build_army
from bagm.render.coverage_render import coverage_markdown
from bagm.roster.model import load_roster
from bagm.roster.validate import validate

ROSTERS = REPO / "rosters"


@cache
def bundled() -> dict:
    return coverage(Catalog(), ROSTERS).to_dict()


def test_json_shape_and_totals():
    d = bundled()
    assert set(d) >= {"total", "factions"} and set(d["total"]) == set(KINDS)
    for counts in [d["total"], *d["factions"].values()]:
        assert set(counts) == set(KINDS)
        assert all(isinstance(m, int) and isinstance(a, int) and 0 <= m <= a for m, a in counts.values())
    for k in KINDS:
        assert d["total"][k] == [sum(f[k][i] for f in d["factions"].values()) for i in (0, 1)]
    assert d["rosters"] == len(list(ROSTERS.glob("*.yaml")))
    # what is not modelled, by name: as many as the counts leave out
    for faction, counts in d["factions"].items():
        for k, (m, a) in counts.items():
            assert sum(d["not_modelled"].get(faction, {}).get(k, {}).values()) == a - m, (faction, k)


def test_the_counts_of_all_agree_with_the_packs_and_rosters():
    cat = Catalog()
    packs = [f.pack for f in cat.all()]
    d = bundled()["total"]
    assert d["detachment_rules"][1] == sum(1 for p in packs for det in p.detachments if det.rule) == 58
    assert d["enhancements"][1] == sum(len(det.enhancements) for p in packs for det in p.detachments)
    assert d["leader_abilities"][1] == sum(len(u.leader.abilities) for p in packs for u in p.units if u.leader)
    assert d["leader_abilities"][0] == sum(1 for p in packs for u in p.units if u.leader
                                          for a in u.leader.abilities if a.effects)
    occurrences = 0
    for path in ROSTERS.glob("*.yaml"):
        occurrences += sum(len(u.datasheet.abilities) for u in validate(load_roster(path), cat).units)
    assert d["ability_occurrences"][1] == occurrences


def test_ability_occurrences_modelled_are_those_games_do_not_list():
    # the names a game lists as "not implemented" (or as Leader abilities without effects) are
    # exactly the occurrences the count leaves out, roster by roster
    from bagm.data.abilities import played

    cat = Catalog()
    for path in sorted(ROSTERS.glob("*.yaml"))[::6]:
        report = validate(load_roster(path), cat)
        table = cat.abilities(report.faction)
        unmodelled = {(u.datasheet.name, p.name) for u in report.units
                      for p in played(u.datasheet, table) if not p.modelled}
        notes = build_army("A", path, cat).not_modelled
        listed = set()
        for n in notes:
            m = re.match(r"(.+?): (?:ability|Leader ability) '(.+?)' (?:is not implemented|has no modelled effect)", n)
            if m:
                listed.add((m.group(1), m.group(2)))
        assert listed == unmodelled, path.name


def test_a_modelled_rule_enhancement_and_ability_each_count(tmp_path):
    # an overlay gives one unmodelled Detachment rule and Enhancement effects, and one ability a
    # table entry: each count goes up by one (by its occurrences, for the ability); the rule and
    # the Enhancement may be of two factions (an overlay file for each)
    import yaml

    cat = Catalog()
    rules = [(f, d) for f in cat.all() for d in f.pack.detachments
             if d.rule and d.rule_effects is None and not d.rule_moments]
    enhs = [(f, d) for f in cat.all() for d in f.pack.detachments
            if any(e.effects is None and not e.moments and not e.bars for e in d.enhancements)]
    assert rules and enhs, "every Detachment rule or Enhancement is modelled"
    (faction, det), (efaction, edet) = rules[0], enhs[0]
    raw = yaml.safe_load(efaction.files[0].read_text(encoding="utf-8"))
    enh = next(d for d in raw["detachments"] if d["name"] == edet.name)["enhancements"]
    first = next(e for e in enh if not e.get("effects") and not e.get("moments") and not e.get("bars"))
    first["effects"] = [{"fnp": 5}]
    occurring = {p.name for path in ROSTERS.glob("*.yaml")
                 for u in validate(load_roster(path), cat).units if u.datasheet in faction.pack.units
                 for p in __import__("bagm.data.abilities", fromlist=["played"]).played(
                     u.datasheet, cat.abilities(faction.name)) if p.how == ""}
    ability = sorted(occurring)[0] if occurring else None
    overlays: dict[str, dict] = {}
    overlays.setdefault(faction.name, {"faction": faction.name, "detachments": []})["detachments"].append(
        {"name": det.name, "rule_effects": [{"OC_mod": 1}]})
    mine = overlays.setdefault(efaction.name, {"faction": efaction.name, "detachments": []})["detachments"]
    same = next((d for d in mine if d["name"] == edet.name), None)
    if same is not None:
        same["enhancements"] = enh
    else:
        mine.append({"name": edet.name, "enhancements": enh})
    if ability:
        overlays[faction.name]["abilities"] = [{"name": ability, "effects": [{"M_mod": 1}]}]
    for i, overlay in enumerate(overlays.values()):
        (tmp_path / f"x{i}.yaml").write_text(yaml.safe_dump(overlay, allow_unicode=True), encoding="utf-8")
    now = coverage(Catalog(data_dirs([tmp_path])), ROSTERS).to_dict()["factions"]
    before, after = bundled()["factions"][faction.name], now[faction.name]
    assert after["detachment_rules"] == [before["detachment_rules"][0] + 1, before["detachment_rules"][1]]
    ebefore, eafter = bundled()["factions"][efaction.name], now[efaction.name]
    assert eafter["enhancements"] == [ebefore["enhancements"][0] + 1, ebefore["enhancements"][1]]
    missing = bundled()["not_modelled"][faction.name]["ability_occurrences"]
    gained = missing.get(ability, 0) if ability else 0
    assert after["ability_occurrences"] == [before["ability_occurrences"][0] + gained,
                                            before["ability_occurrences"][1]]


def test_no_rosters_counts_no_occurrences(tmp_path):
    d = coverage(Catalog(), tmp_path).to_dict()
    assert d["total"]["ability_occurrences"] == [0, 0] and d["rosters"] == 0
    assert d["total"]["detachment_rules"] == bundled()["total"]["detachment_rules"]


def test_cli_json_text_and_markdown():
    runner = CliRunner()
    res = runner.invoke(app, ["data", "coverage", "--format", "json"])
    assert res.exit_code == 0 and json.loads(res.output) == bundled()
    res = runner.invoke(app, ["data", "coverage"])
    assert res.exit_code == 0 and "Total" in res.output and "Ability occurrences" in res.output
    t = bundled()["total"]["ability_occurrences"]
    assert f"{t[0]}/{t[1]}" in res.output
    res = runner.invoke(app, ["data", "coverage", "--missing"])
    # the most frequent first, a count after a name that occurs more than once
    lines = [x for x in res.output.splitlines() if " · Ability occurrences: " in x]
    assert res.exit_code == 0 and lines and any(" (x" in x for x in lines)
    assert "Waaagh! (x" not in res.output  # modelled (Orks)
    res = runner.invoke(app, ["data", "coverage", "--markdown"])
    assert res.exit_code == 0 and res.output == coverage_markdown(bundled())


def test_cli_bad_rosters_folder_is_exit_2(tmp_path):
    res = CliRunner().invoke(app, ["data", "coverage", "--rosters", str(tmp_path / "none")])
    assert res.exit_code == 2 and "no such folder" in res.output


def test_user_text_is_never_markup(tmp_path):
    (tmp_path / "x.yaml").write_text("faction: '[bold red]Evil[/] Faction'\npoints_source: test\n", encoding="utf-8")
    (tmp_path / "none").mkdir()
    res = CliRunner().invoke(app, ["data", "coverage", "--data", str(tmp_path), "--rosters", str(tmp_path / "none")])
    assert res.exit_code == 0 and "[bold red]Evil[/] Faction" in res.output


README = REPO / "README.md"
BLOCK = re.compile(r"(<!-- coverage:begin -->\n)(.*?)(<!-- coverage:end -->)", re.S)


def test_the_readme_table_is_the_commands_output():
    assert bundled_rosters() == ROSTERS
    want = coverage_markdown(bundled())
    text = README.read_text(encoding="utf-8")
    m = BLOCK.search(text)
    assert m, "README.md has no <!-- coverage:begin/end --> block"
    if m.group(2) != want and os.environ.get("BAGM_REGEN_GOLDEN"):
        from bagm.io.atomic import write_atomic

        write_atomic(README, text[:m.start(2)] + want + text[m.end(2):])
        return
    assert m.group(2) == want, ("README's coverage table is stale: run "
                                "BAGM_REGEN_GOLDEN=1 pytest tests/test_coverage.py")
