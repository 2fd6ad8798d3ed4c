"""Skirmish Battles: the campaign tracker and the after-battle tables, with scripted dice."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bagm.chance.dice import Dice
from bagm.cli.app import app
from bagm.skirmish import campaign as cp
from bagm.skirmish.campaign import CampaignError, load_campaign
from bagm.skirmish.data import SkirmishData, load_data

REPO = Path(__file__).parents[1]
EXAMPLE = REPO / "rosters" / "skirmish" / "EXAMPLE-overlay.skirmish-data.yaml"
ORKS = REPO / "rosters" / "skirmish" / "orks.skirmish.yaml"


@pytest.fixture(scope="module")
def data() -> SkirmishData:
    return load_data([EXAMPLE])


def roster(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "u.skirmish.yaml"
    p.write_text("skirmish: roster\n" + textwrap.dedent(text))
    return p


SM = """\
faction: Space Marines
leader: {name: Sarg, type: sergeant, weapons: [Bolt Pistol]}
packs:
  - {name: Tac, type: space_marine, models: 4}
"""


def new(tmp_path: Path, data: SkirmishData, text: str | None = None) -> cp.Campaign:
    tmp_path.mkdir(parents=True, exist_ok=True)
    src = ORKS if text is None else roster(tmp_path, text)
    c, _ = cp.start(src, tmp_path / "c.skirmish-campaign.yaml", data, seed=1)
    return c


def fight(c: cp.Campaign, **kw: object) -> None:
    args: dict[str, object] = {"scenario": "cleanse", "result": "lost", "routed": False, "out_of_action": [],
                                   "killed": [], "fled": [], "enemy_out_of_action": 0, "enemy_killed": 0,
                                   "bonus": 0, "dark_eldar_opponent": False}
    args.update(kw)
    cp.battle(c, **args)  # type: ignore[arg-type]


def test_start_takes_a_valid_roster_and_never_overwrites(tmp_path: Path, data: SkirmishData) -> None:
    c = new(tmp_path, data)
    assert c.state["pool"] == 100 - 76 and c.history[0]["event"] == "start"
    assert load_campaign(c.path).unit["packs"][0]["founded"] == 5
    with pytest.raises(CampaignError, match="never overwritten"):
        cp.start(ORKS, c.path, data)
    bad = roster(tmp_path, SM.replace("models: 4", "models: 40"))
    with pytest.raises(CampaignError, match="not a valid unit"):
        cp.start(bad, tmp_path / "d.yaml", data)


def test_the_steps_come_in_order(tmp_path: Path, data: SkirmishData) -> None:
    c = new(tmp_path, data)
    with pytest.raises(CampaignError, match="no battle"):
        cp.points(c, data, Dice.scripted([]), "hand")
    fight(c)
    with pytest.raises(CampaignError, match="at 'injuries'"):
        cp.points(c, data, Dice.scripted([]), "hand")
    with pytest.raises(CampaignError, match="not finished"):
        fight(c)


@pytest.mark.parametrize("text, pack, rolls, left", [
    (None, "Da Boyz", [2, 3], 4),  # Ork Boyz: 1 or 2 dies
    (None, "Da Grots", [3, 4], 3),  # Easy To Kill: 1, 2 or 3
    (SM, "Tac", [1, 2], 3),  # Hard To Kill: only a 1
])
def test_pack_casualties(tmp_path: Path, data: SkirmishData, text: str | None, pack: str,
                         rolls: list[int], left: int) -> None:
    c = new(tmp_path, data, text)
    fight(c, out_of_action=[f"{pack}:2"])
    dice = Dice.scripted(rolls)
    entry = cp.injuries(c, data, dice, "hand")
    dice.assert_consumed()
    assert cp._pack(c.unit, pack)["models"] == left  # type: ignore[index]
    assert entry["dice"] == "hand" and len(entry["rolls"]) == 2


def test_grots_that_fled_roll_no_injury(tmp_path: Path, data: SkirmishData) -> None:
    c = new(tmp_path, data)
    fight(c, fled=["Da Grots:2"])
    cp.injuries(c, data, Dice.scripted([]), "hand")
    assert cp._pack(c.unit, "Da Grots")["models"] == 4  # type: ignore[index]


def injure(tmp_path: Path, data: SkirmishData, rolls: list[int], text: str | None = None,
           **kw: object) -> cp.Campaign:
    c = new(tmp_path, data, text)
    fight(c, out_of_action=["Gorzag" if text is None else "Sarg"],
          dark_eldar_opponent=bool(kw.pop("dark_eldar", False)))
    dice = Dice.scripted(rolls)
    cp.injuries(c, data, dice, "hand", **kw)  # type: ignore[arg-type]
    dice.assert_consumed()
    return c


def test_injury_table_results(tmp_path: Path, data: SkirmishData) -> None:
    c = injure(tmp_path / "a", data, [2, 2])
    assert c.state["injuries"]["Gorzag"] == ["move-1"]  # 22 Minor Leg Injury
    c = injure(tmp_path / "b", data, [2, 3, 1])
    assert c.state["injuries"]["Gorzag"] == ["arm_amputated"]  # 23, then a 1
    c = injure(tmp_path / "c", data, [2, 3, 4])
    assert c.state["miss_games"]["Gorzag"] == 1  # 23, then 2-6: misses the next game
    c = injure(tmp_path / "d", data, [2, 4, 2])
    assert c.state["injuries"]["Gorzag"] == ["Ld-2"]  # 24: Ld -D3
    c = injure(tmp_path / "e", data, [3, 5, 3])
    assert c.state["miss_games"]["Gorzag"] == 3  # 35 Deep Wound: D3 games
    c = injure(tmp_path / "f", data, [3, 6])
    assert c.unit["leader"]["wargear"] == [] and c.unit["leader"]["weapons"] == []  # 36 Looted
    c = injure(tmp_path / "g", data, [4, 1])
    assert "Gorzag" not in c.state.get("injuries", {})  # 41 Full Recovery
    c = injure(tmp_path / "h", data, [6, 4])
    assert c.unit["leader"]["skills"] == ["Fearsome"]  # 64 Horrible Scars
    c = injure(tmp_path / "i", data, [6, 5])
    assert c.pending["pool_bonus"] == 50  # type: ignore[index]  # 65-66 Survives Against The Odds
    c = injure(tmp_path / "j", data, [2, 6])
    assert c.state["injuries"]["Gorzag"] == ["T-1"]  # 26 Chest Wound
    c = injure(tmp_path / "k", data, [3, 1])
    assert c.state["injuries"]["Gorzag"] == ["BS-1"]  # 31 Eye Injury
    c = injure(tmp_path / "l", data, [3, 3])
    assert c.state["injuries"]["Gorzag"] == ["I-1"]  # 33 Nervous System Damage


def test_multiple_injuries_reroll_dead_captured_and_multiple(tmp_path: Path, data: SkirmishData) -> None:
    # 16: Multiple Injuries; D6 = 2 more; 11 Dead, 61 Captured and 21 re-rolled; 22 and 34 stand
    c = injure(tmp_path, data, [1, 6, 2, 1, 1, 6, 1, 2, 1, 2, 2, 3, 4])
    assert c.state["injuries"]["Gorzag"] == ["move-1", "WS-1"]


def test_death_of_a_leader(tmp_path: Path, data: SkirmishData) -> None:
    up = SM + "upgraded:\n  - {name: Kael, from_pack: Tac}\nstate: {battles: 2}\n"
    c = injure(tmp_path / "a", data, [1, 1], up)  # 11: Dead
    assert c.unit["leader"]["name"] == "Kael" and c.unit["leader"]["type"] == "upgraded"
    assert c.unit["upgraded"] == []
    two = up + "  - {name: Brak, from_pack: Tac}\n"
    two = two.replace("state: {battles: 2}\n", "") + "state: {battles: 2}\n"
    with pytest.raises(CampaignError, match="--successor"):
        injure(tmp_path / "b", data, [1, 1], two)
    c = injure(tmp_path / "c", data, [1, 1], two, successor="Brak")
    assert c.unit["leader"]["name"] == "Brak"
    # no upgraded model: each Pack rolls on the Pack Advancement table (EXAMPLE: 12 breaks the mould)
    c = injure(tmp_path / "d", data, [1, 1, 6, 6], SM)
    assert c.unit["leader"]["from_pack"] == "Tac" and c.unit["packs"][0]["models"] == 3
    c = injure(tmp_path / "e", data, [1, 1, 3, 4], SM)
    assert c.state["disbanded"] is True and c.unit["leader"] is None


def test_captured_ransom_and_dark_eldar_prisoners(tmp_path: Path, data: SkirmishData) -> None:
    # killed when the ransom is not paid; then each Pack rolls for a new Leader (none here)
    mould = [3, 3, 3, 3]
    c = injure(tmp_path / "a", data, [6, 1, 1, 2, 3, *mould], ransom="pay")  # 3D6 = 6: 56 points
    assert c.unit["leader"] is None and c.state["disbanded"]  # the Pool (24) cannot pay
    c = injure(tmp_path / "b", data, [6, 1, 1, 1, 1, *mould], ransom="refuse")
    assert c.unit["leader"] is None
    said = c.history[-1]["results"][0]["results"][0]  # the lost half-strength rule, said plainly
    assert "under half strength" in said and "under_half_strength" in said
    c = injure(tmp_path / "c", data, [1, 1, 1, 1, 1, *mould], dark_eldar=True, ransom="refuse")
    assert "ransom" in c.history[-1]["results"][0]["results"][0]  # Dead became Captured


def test_ransom_paid_from_the_pool(tmp_path: Path, data: SkirmishData) -> None:
    c = new(tmp_path, data)
    c.state["pool"] = 60
    fight(c, out_of_action=["Gorzag"])
    cp.injuries(c, data, Dice.scripted([6, 1, 1, 1, 1]), "hand", ransom="pay")
    assert c.unit["leader"]["name"] == "Gorzag" and c.state["pool"] == 60 - 53


def test_points(tmp_path: Path, data: SkirmishData) -> None:
    c = new(tmp_path, data)
    c.unit["leader"]["skills"] = ["Keen Eye"]
    fight(c, result="won", enemy_out_of_action=3, enemy_killed=1, bonus=20)
    cp.injuries(c, data, Dice.scripted([]), "hand")
    entry = cp.points(c, data, Dice.scripted([4, 5]), "hand")
    assert entry["parts"] == {"fought in": 10, "winning side": 25, "scenario bonus": 20,
                              "enemy Out of Action": 15, "enemy Killed": 10,
                              "Keen Eye (Gorzag)": 9}
    assert c.state["pool"] == 24 + 89


def test_the_pool_never_goes_below_zero_and_fought_in_is_lost(tmp_path: Path, data: SkirmishData) -> None:
    low = tmp_path / "low.yaml"
    low.write_text("points: {fought_in: 2}\n")
    d = load_data([EXAMPLE, low])
    c = new(tmp_path, d)
    c.state["pool"] = 3
    fight(c, routed=True)
    cp.injuries(c, d, Dice.scripted([]), "hand")
    cp.points(c, d, Dice.scripted([]), "hand")
    assert c.state["pool"] == 0  # 3 + 2 - 10
    c2 = cp.Campaign(tmp_path / "x.yaml", yaml.safe_load(yaml.safe_dump(c.data)))
    c2.data["pending"] = {"step": "points", "result": "won", "routed": False,
                          "bonus": 0, "enemy_out_of_action": 0, "enemy_killed": 0, "pool_bonus": 0}
    with pytest.raises(CampaignError, match="Fought in"):
        cp.points(c2, load_data(), Dice.scripted([]), "hand")


def spend(tmp_path: Path, data: SkirmishData, text: str | None = None, pool: int = 100) -> cp.Campaign:
    c = new(tmp_path, data, text)
    fight(c)
    cp.injuries(c, data, Dice.scripted([]), "hand")
    cp.points(c, data, Dice.scripted([]), "hand")
    c.state["pool"] = pool
    return c


def test_buying_and_selling(tmp_path: Path, data: SkirmishData) -> None:
    c = spend(tmp_path, data, SM)
    cp.buy(c, data, model="Sarg", item="Frag Grenades")
    assert c.state["pool"] == 99 and c.unit["leader"]["grenades"] == ["Frag Grenades"]
    cp.buy(c, data, model="Sarg", item="Krak Grenades")
    with pytest.raises(CampaignError, match="SK133"):  # a third grenade type: refused
        cp.buy(c, data, model="Sarg", item="Meltabombs")
    assert c.unit["leader"]["grenades"] == ["Frag Grenades", "Krak Grenades"] and c.state["pool"] == 97
    with pytest.raises(CampaignError, match="Points Pool has 97"):
        cp.buy(c, data, new_pack="Scouts", pack_type="scout", models=9)
    cp.buy(c, data, new_pack="Scouts", pack_type="scout", models=2)
    assert c.state["pool"] == 97 - 24
    entry = cp.sell(c, data, model="Sarg", item="Krak Grenades")
    assert entry["points"] == 1 and c.state["pool"] == 74  # half of 2
    cp.sell(c, data, model="Sarg", item="Frag Grenades")
    assert c.state["pool"] == 74  # half of 1, rounded down
    cp.buy(c, data, model="Sarg", item="Purity Seals")
    pool = c.state["pool"]
    with pytest.raises(CampaignError, match="wargear: the text lets a unit sell back weapons only"):
        cp.sell(c, data, model="Sarg", item="Purity Seals")
    assert c.state["pool"] == pool and "Purity Seals" in c.unit["leader"]["wargear"]
    cp.sell(c, data, model="Sarg", item="Bolt Pistol")  # a weapon: half of 1
    assert c.state["pool"] == pool and "Bolt Pistol" not in c.unit["leader"]["weapons"]


def test_upgrading_a_pack_costs_the_upgrade_per_model(tmp_path: Path, data: SkirmishData) -> None:
    ig = ("faction: Imperial Guard\nleader: {name: S, type: sergeant}\n"
          "packs:\n  - {name: P, type: guardsman, models: 5}\n")
    c = spend(tmp_path, data, ig)
    cp.buy(c, data, pack="P", upgrade_to="hardened_veterans")
    assert c.state["pool"] == 100 - 5 * 4  # the text's example: four points a model
    with pytest.raises(CampaignError, match="cannot be upgraded"):
        cp.buy(c, data, pack="P", upgrade_to="storm_troopers")


def test_topping_a_pack_back_up_to_its_minimum(tmp_path: Path, data: SkirmishData) -> None:
    c = new(tmp_path, data)
    fight(c, out_of_action=["Da Grots:2"])
    cp.injuries(c, data, Dice.scripted([1, 1]), "hand")
    cp.points(c, data, Dice.scripted([]), "hand")
    with pytest.raises(CampaignError, match="minimum size"):
        cp.buy(c, data, pack="Da Grots", models=3)
    cp.buy(c, data, pack="Da Grots", models=2)
    assert cp._pack(c.unit, "Da Grots")["models"] == 4  # type: ignore[index]
    with pytest.raises(CampaignError, match="no minimum size"):
        cp.buy(c, data, pack="Da Boyz", models=1)


def test_a_grot_pack_below_four_is_removed_at_the_end(tmp_path: Path, data: SkirmishData) -> None:
    c = new(tmp_path, data)
    fight(c, out_of_action=["Da Grots:1"])
    cp.injuries(c, data, Dice.scripted([1]), "hand")
    cp.points(c, data, Dice.scripted([]), "hand")
    entry, _report = cp.end(c, data)
    assert [p["name"] for p in c.unit["packs"]] == ["Da Boyz"] and "Da Grots removed" in entry["notes"][0]
    assert c.state["battles"] == 1 and c.pending is None


def test_advances(tmp_path: Path, data: SkirmishData) -> None:
    c = spend(tmp_path, data)
    # EXAMPLE Leader table: 3-4 WS+1
    entry = cp.advance(c, data, Dice.scripted([1, 2]), "hand", "Gorzag")
    assert entry["result"] == "WS+1" and c.unit["leader"]["advances"] == {"WS": 1}
    with pytest.raises(CampaignError, match="already rolled"):
        cp.advance(c, data, Dice.scripted([1, 2]), "hand", "Gorzag")
    # Pack table: 12 breaks the mould
    cp.advance(c, data, Dice.scripted([6, 6]), "hand", "Da Boyz", name="Snagga")
    assert c.unit["upgraded"] == [{"name": "Snagga", "from_pack": "Da Boyz"}]
    assert cp._pack(c.unit, "Da Boyz")["models"] == 4  # type: ignore[index]


def test_an_advance_the_model_cannot_take_is_rolled_again(tmp_path: Path, data: SkirmishData) -> None:
    c = spend(tmp_path, data)
    c.unit["leader"]["advances"] = {"WS": 2}
    with pytest.raises(CampaignError, match="cannot take"):
        cp.advance(c, data, Dice.scripted([]), "hand", "Gorzag", result="breaking_the_mould")  # Packs only
    with pytest.raises(CampaignError, match="cannot take"):
        cp.advance(c, data, Dice.scripted([]), "hand", "Gorzag", result="WS+1")  # WS is +2 already
    entry = cp.advance(c, data, Dice.scripted([2, 2, 3, 3]), "hand", "Gorzag")  # WS+1, then BS+1
    assert entry["result"] == "BS+1" and c.unit["leader"]["advances"] == {"WS": 2, "BS": 1}
    c2 = spend(tmp_path / "n", data, "faction: Necrons\npacks:\n  - {name: W, type: warrior, models: 4}\n")
    entry = cp.advance(c2, data, Dice.scripted([6, 6, 3, 3]), "hand", "W")  # Necrons re-roll it
    assert entry["result"] == "BS+1"


def test_a_skill_from_an_advance_is_chosen_before_the_end(tmp_path: Path, data: SkirmishData) -> None:
    c = spend(tmp_path, data)
    cp.advance(c, data, Dice.scripted([1, 1]), "hand", "Gorzag")  # 2: skill
    with pytest.raises(CampaignError, match="choose the new skill"):
        cp.end(c, data)
    with pytest.raises(CampaignError, match="SK161"):  # Nob: Shooting 2, Intelligence 2...
        c.unit["leader"]["skills"] = ["Crack Shot", "Fast Shot"]
        cp.skill(c, data, Dice.scripted([]), "hand", "Gorzag", "Marksman")
    c.unit["leader"]["skills"] = []
    entry = cp.skill(c, data, Dice.scripted([3]), "hand", "Gorzag", "Psychic Training")
    assert c.unit["leader"]["psychic_powers"] == ["Slow Time"] and "Slow Time" in entry["applied"]
    entry, report = cp.end(c, data)
    assert entry["valid"] and report.valid


def test_necron_wargear_returns_to_the_pool(tmp_path: Path, data: SkirmishData) -> None:
    necrons = "faction: Necrons\npacks:\n  - {name: W, type: warrior, models: 3}\n  - {name: X, type: warrior, models: 2}\n"
    c = spend(tmp_path, data, necrons, pool=100)
    cp.end(c, data)
    cp.buy(c, data, pack="W", item="Chronometion")  # before the battle: 10 x 3 models
    cp.buy(c, data, pack="X", item="Solar Pulse")  # 20 x 2
    assert c.state["pool"] == 100 - 30 - 40
    fight(c, out_of_action=["W:1"], killed=["X:2"])
    entry = cp.injuries(c, data, Dice.scripted([1]), "hand")  # W loses a model; X was Killed
    # Tomb Gifts: after the injuries the points spent come back, whatever the Pack lost since;
    # a Pack Killed in the game loses its wargear and the points
    assert {"tomb_gifts": "Chronometion returned from W: +30"} in entry["results"]
    assert {"tomb_gifts": "Solar Pulse lost with X: no points back"} in entry["results"]
    assert c.state["pool"] == 60 and c.unit["packs"][0]["wargear"] == []
    cp.points(c, data, Dice.scripted([]), "hand")
    pool = c.state["pool"]
    cp.buy(c, data, pack="W", item="Chronometion")  # bought after the battle: kept for the next
    with pytest.raises(CampaignError, match="refused: SK13"):  # the unit is below its minimum
        cp.buy(c, data, pack="W", item="Solar Pulse")  # (2 of 4) and may buy; a new break is refused
    entry, _ = cp.end(c, data)
    assert c.unit["packs"][0]["wargear"] == ["Chronometion"] and c.state["pool"] == pool - 20


def test_a_missed_game_is_served(tmp_path: Path, data: SkirmishData) -> None:
    c = injure(tmp_path, data, [3, 5, 1])  # Deep Wound: 1 game
    cp.points(c, data, Dice.scripted([]), "hand")
    cp.end(c, data)
    with pytest.raises(CampaignError, match="missing this game"):
        fight(c, out_of_action=["Gorzag"])
    fight(c)
    assert c.state["miss_games"]["Gorzag"] == 0


def test_the_campaign_file_is_the_history(tmp_path: Path, data: SkirmishData) -> None:
    c = injure(tmp_path, data, [2, 2])
    again = load_campaign(c.path)
    assert again.history == c.history and again.unit == c.unit
    assert [e["event"] for e in again.history] == ["start", "battle", "injuries"]
    assert again.history[-1]["rolls"] == ["D6=2 Gorzag injury", "D6=2 Gorzag injury"]


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def test_campaign_commands(tmp_path: Path) -> None:
    camp = str(tmp_path / "orks.skirmish-campaign.yaml")
    d = ["--data", str(EXAMPLE)]
    assert run("skirmish", "campaign", "start", str(ORKS), camp, "--seed", "5", *d).exit_code == 0
    result = run("skirmish", "campaign", "battle", camp, "--scenario", "hunt", "--result", "won",
                 "--ooa", "Gorzag", "--ooa", "Da Boyz:2", "--enemy-ooa", "1")
    assert result.exit_code == 0, result.output
    result = run("skirmish", "campaign", "points", camp, *d)
    assert result.exit_code == 2 and "campaign injuries" in result.output
    result = run("skirmish", "campaign", "injuries", camp, "--rolls", "4,1,2", *d)
    assert result.exit_code == 2 and "ran out" in result.output  # one casualty roll short
    result = run("skirmish", "campaign", "injuries", camp, "--rolls", "4,1,2,3,6", *d)
    assert result.exit_code == 2 and "not used" in result.output
    result = run("skirmish", "campaign", "injuries", camp, "--rolls", "4,1,2,3", *d)
    assert result.exit_code == 0, result.output
    assert run("skirmish", "campaign", "points", camp, *d).exit_code == 0
    result = run("skirmish", "campaign", "buy", camp, "--model", "Gorzag", "--item", "Bosspole", *d)
    assert result.exit_code == 0 and "cost: 3" in result.output
    assert run("skirmish", "campaign", "advance", camp, "Gorzag", "--result", "I+1", *d).exit_code == 0
    result = run("skirmish", "campaign", "end", camp, *d)
    assert result.exit_code == 0, result.output
    result = run("skirmish", "campaign", "history", camp, "-f", "json")
    events = json.loads(result.output)
    assert [e["event"] for e in events] == ["start", "battle", "injuries", "points", "buy", "advance", "end"]
    result = run("skirmish", "campaign", "show", camp, *d)
    assert result.exit_code == 0 and "Bosspole" in result.output and "between battles" in result.output
    before = Path(camp).read_text()
    assert run("skirmish", "campaign", "buy", camp, "--model", "Nobody", "--item", "Bosspole", *d).exit_code == 2
    assert Path(camp).read_text() == before  # a refused command writes nothing


def test_a_damaged_campaign_file_is_an_input_error(tmp_path: Path, data: SkirmishData) -> None:
    from bagm.io.yamlsafe import InputError

    c = injure(tmp_path, data, [2, 2])
    text = c.path.read_text().replace("step: points", "step: dancing")
    c.path.write_text(text)
    with pytest.raises(InputError, match="damaged"):
        load_campaign(c.path)
    c.path.write_text("skirmish: roster\n")
    with pytest.raises(InputError, match="not a Skirmish campaign"):
        load_campaign(c.path)
    result = run("skirmish", "campaign", "show", str(c.path))
    assert result.exit_code == 2 and "not a Skirmish campaign" in result.output


def test_an_unreplaced_amputated_leg_removes_the_model_at_the_end(tmp_path: Path, data: SkirmishData) -> None:
    up = SM + "upgraded:\n  - {name: Kael, from_pack: Tac}\nstate: {battles: 2}\n"
    c = injure(tmp_path / "a", data, [2, 5, 1], up)  # 25 Major Leg Injury, then a 1
    cp.points(c, data, Dice.scripted([]), "hand")
    entry, _ = cp.end(c, data, Dice.scripted([]), "hand")
    assert c.unit["leader"]["name"] == "Kael" and "Sarg removed" in entry["notes"][0]
    c = injure(tmp_path / "b", data, [2, 5, 1], up)
    cp.points(c, data, Dice.scripted([]), "hand")
    c.state["pool"] = 10
    cp.buy(c, data, model="Sarg", item="Bionic Replacement")
    cp.end(c, data, Dice.scripted([]), "hand")
    assert c.unit["leader"]["name"] == "Sarg"  # replaced: stays


TYRANIDS = REPO / "rosters" / "skirmish" / "tyranids.skirmish.yaml"


def tyranid_spend(tmp_path: Path, data: SkirmishData, injury: list[int] | None = None) -> cp.Campaign:
    tmp_path.mkdir(parents=True, exist_ok=True)
    c, _ = cp.start(TYRANIDS, tmp_path / "t.skirmish-campaign.yaml", data, seed=1)
    fight(c, out_of_action=["Kryx"] if injury else [])
    cp.injuries(c, data, Dice.scripted(injury or []), "hand")
    cp.points(c, data, Dice.scripted([]), "hand")
    c.state["pool"] = 100
    return c


@pytest.mark.parametrize("rolls, result", [
    ([3, 3], "breaking_the_mould"),  # Tyranid Unit: a 6 breaks the mould
    ([1, 4], "BS+1"),  # boundary: a 5 reads the table (EXAMPLE: 5-6 BS+1)
    ([3, 4], "none"),  # a 7 reads the table
])
def test_a_tyranid_pack_breaks_the_mould_on_a_six(tmp_path: Path, data: SkirmishData, rolls: list[int],
                                                   result: str) -> None:
    c = tyranid_spend(tmp_path, data)
    entry = cp.advance(c, data, Dice.scripted(rolls), "hand", "Termagants", name="Vex")
    assert entry["result"] == result
    assert (c.unit.get("upgraded") or []) == ([{"name": "Vex", "from_pack": "Termagants"}]
                                              if result == "breaking_the_mould" else [])
    # any other faction's Pack reads the table at 6 (EXAMPLE: BS+1)
    o = spend(tmp_path / "orks", data)
    assert cp.advance(o, data, Dice.scripted([3, 3]), "hand", "Da Boyz")["result"] == "BS+1"


def test_a_tyranid_pack_rolling_six_takes_command_when_the_leader_dies(tmp_path: Path,
                                                                       data: SkirmishData) -> None:
    c, _ = cp.start(TYRANIDS, tmp_path / "t.skirmish-campaign.yaml", data, seed=1)
    fight(c, killed=["Kryx"])
    entry = cp.injuries(c, data, Dice.scripted([3, 4, 2, 4]), "hand")  # Termagants 7, Hormagaunts 6
    assert entry["results"][-1] == {"leader_died": True, "new_leader": "Hormagaunts Leader",
                                    "from_pack": "Hormagaunts"}
    c2, _ = cp.start(TYRANIDS, tmp_path / "u.skirmish-campaign.yaml", data, seed=1)
    fight(c2, killed=["Kryx"])
    entry = cp.injuries(c2, data, Dice.scripted([2, 5, 3, 4]), "hand")  # a 7 and a 7: disbanded
    assert entry["results"][-1] == {"leader_died": True, "disbanded": True}


def test_a_tyranid_replacement_eye_gives_back_its_bs(tmp_path: Path, data: SkirmishData) -> None:
    c = tyranid_spend(tmp_path, data, injury=[3, 1])  # 31 Eye Injury: BS -1
    assert c.state["injuries"]["Kryx"] == ["BS-1"]
    entry = cp.buy(c, data, model="Kryx", item="Limb Replacement")
    assert entry["cost"] == 10 and "BS +1 regained" in entry["what"]
    assert c.state["injuries"]["Kryx"] == ["eye_replaced"] and c.state["pool"] == 90
    with pytest.raises(CampaignError, match="no lost limb or eye"):
        cp.buy(c, data, model="Kryx", item="Limb Replacement")
    with pytest.raises(CampaignError, match="factions.tyranids.extra_armoury"):  # lost weapons
        cp.buy(c, data, model="Kryx", item="Fleshborer")
    assert c.state["pool"] == 90 and c.unit["leader"]["wargear"] == ["Limb Replacement"]
    entry, report = cp.end(c, data)
    assert entry["valid"], entry


def test_other_races_replace_an_eye_only_when_blind_and_regain_no_bs(tmp_path: Path,
                                                                     data: SkirmishData) -> None:
    c = spend(tmp_path, data, SM)
    c.state["injuries"] = {"Sarg": ["BS-1"]}
    with pytest.raises(CampaignError, match="no lost limb or eye"):
        cp.buy(c, data, model="Sarg", item="Bionic Replacement")
    c.state["injuries"] = {"Sarg": ["BS-1", "BS-1", "eye_lost"]}
    entry = cp.buy(c, data, model="Sarg", item="Bionic Replacement")
    assert "replaces the eye" in entry["what"]
    assert c.state["injuries"]["Sarg"] == ["BS-1", "BS-1", "eye_lost", "eye_replaced"]  # BS not regained
    entry, _ = cp.end(c, data)
    assert c.unit["leader"]["name"] == "Sarg" and not entry["notes"]


def test_each_lost_limb_is_replaced_and_paid_for(tmp_path: Path, data: SkirmishData) -> None:
    c = spend(tmp_path, data, SM)
    c.state["injuries"] = {"Sarg": ["arm_amputated", "leg_amputated"]}
    with pytest.raises(CampaignError, match="arm and leg to replace: say which with --replaces"):
        cp.buy(c, data, model="Sarg", item="Bionic Replacement")
    with pytest.raises(CampaignError, match="no eye to replace"):
        cp.buy(c, data, model="Sarg", item="Bionic Replacement", replaces="eye")
    cp.buy(c, data, model="Sarg", item="Bionic Replacement", replaces="leg")
    entry = cp.buy(c, data, model="Sarg", item="Bionic Replacement")  # the arm is what is left
    assert "replaces the arm" in entry["what"] and c.state["pool"] == 80
    assert c.unit["leader"]["wargear"] == ["Bionic Replacement"]  # listed once, paid twice
    with pytest.raises(CampaignError, match="not in the Space Marines armoury$"):
        cp.buy(c, data, model="Sarg", item="Fleshborer")
    with pytest.raises(CampaignError, match="--replaces is for"):
        cp.buy(c, data, model="Sarg", item="Frag Grenades", replaces="arm")


def test_a_long_campaign_pool_has_no_upper_limit(tmp_path: Path, data: SkirmishData) -> None:
    c = spend(tmp_path, data, pool=1001)  # the text sets no limit on the Points Pool
    cp.buy(c, data, model="Gorzag", item="Bosspole")
    entry, report = cp.end(c, data)
    assert entry["valid"] and c.state["pool"] == 998 and report.valid
