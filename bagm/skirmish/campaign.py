"""The campaign tracker: a unit's battles and the after-battle sequence, one event at a time.

A campaign file (``NAME.skirmish-campaign.yaml``) holds the unit (a roster mapping), the
after-battle sequence in progress (``pending``) and the history: every change is an event with
the dice it used (seeded or entered by hand), and the file is rewritten atomically after each
event, so a crash never leaves half an event; the comments a user wrote in it are kept
(:mod:`.commented`). The steps follow AFTER THE BATTLE: record the
battle, injuries (Pack casualties, the Injury Table), points into the Points Pool, purchases and
sales, advances and skills, then ``end``, which validates the unit.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bagm.chance.dice import Dice
from bagm.errors import BagmError
from bagm.io.atomic import write_atomic
from bagm.io.roundtrip import LayoutError
from bagm.io.yamlsafe import InputError, Located, load, read_text
from bagm.skirmish.commented import has_comments, rewrite
from bagm.skirmish.data import LostValue, SkirmishData, parse_advance
from bagm.skirmish.roster import Roster, parse
from bagm.skirmish.validate import Report, validate

ARMOUR = ("Armour",)  # Looted: the model keeps its armour (items named ... Armour)


class CampaignError(BagmError, ValueError):
    """A campaign command that cannot apply: the message says why and what to do."""

    def __init__(self, message: str, path: str | None = None):
        self.path = path
        super().__init__(message)


HEADER = ("# Skirmish Battles campaign, written by bagm (bagm skirmish campaign ...): edit with "
          "the commands\n")


@dataclass
class Campaign:
    path: Path
    data: dict[str, Any]
    text: str | None = None  # the file as last read or written: its comments are kept

    @property
    def unit(self) -> dict[str, Any]:
        return self.data["unit"]  # type: ignore[no-any-return]

    @property
    def history(self) -> list[dict[str, Any]]:
        return self.data["history"]  # type: ignore[no-any-return]

    @property
    def pending(self) -> dict[str, Any] | None:
        return self.data.get("pending")

    @property
    def state(self) -> dict[str, Any]:
        return self.unit.setdefault("state", {})  # type: ignore[no-any-return]

    def roster(self, unit: dict[str, Any] | None = None) -> Roster:
        """The unit (or ``unit``, another state of it) as a roster the validator reads."""
        text = yaml.safe_dump(self.unit if unit is None else unit, sort_keys=False, allow_unicode=True)
        doc = load(f"{self.path} (unit)", text)
        return parse(f"{self.path} (unit)", doc)

    def dice(self, rolls: list[int] | None, seed: int | None) -> tuple[Dice, str]:
        """Hand-entered rolls, a given seed, or the campaign's seed and the event's number."""
        if rolls is not None:
            return Dice.scripted(rolls), "hand"
        base = self.data.get("seed", 0) if seed is None else seed
        return Dice(int(base) * 100_003 + len(self.history) + 1), "seeded"

    def record(self, event: str, dice: Dice | None = None, how: str | None = None,
               **details: Any) -> dict[str, Any]:
        """Append an event (with the dice it rolled) and write the file atomically."""
        if dice is not None and how == "hand" and dice.pending:
            raise CampaignError(f"{len(dice.pending)} hand-entered roll(s) not used: "
                                f"{list(dice.pending)}; give exactly the rolls this step needs")
        entry: dict[str, Any] = {"n": len(self.history) + 1, "event": event, **details}
        if dice is not None and dice.rolls:
            entry["dice"] = how
            entry["rolls"] = [f"D{r.sides}={r.value} {r.reason}".strip() for r in dice.rolls]
        self.history.append(entry)
        self.save()
        return entry

    def save(self) -> None:
        """Write the file atomically; the comments a user wrote in it are kept."""
        if self.text is not None and has_comments(self.text, HEADER):
            try:
                text = rewrite(str(self.path), self.text, self.data)
            except (LayoutError, InputError) as exc:
                raise CampaignError(f"{self.path}: the change was not written, as the file's "
                                    f"comments could not be kept ({exc}); move the comments "
                                    "and run the command again") from None
        else:
            text = HEADER + yaml.safe_dump(self.data, sort_keys=False, allow_unicode=True)
        if load(self.path, text, what="a campaign file").data != self.data:  # pragma: no cover
            raise CampaignError(f"{self.path}: the file would not read back the same; not written")
        write_atomic(self.path, text)
        self.text = text


PENDING_KEYS = {"step", "scenario", "result", "routed", "out_of_action", "enemy_out_of_action",
                "enemy_killed", "bonus", "pool_bonus", "leader_died", "dark_eldar_opponent",
                "advanced"}


def load_campaign(path: Path) -> Campaign:
    """Read a campaign file (safe YAML) and check the parts bagm wrote."""
    text = read_text(Path(path), what="a campaign file")
    doc: Located = load(path, text, what="a campaign file")
    d = doc.data
    if not isinstance(d, dict) or d.get("skirmish") != "campaign" or not isinstance(d.get("unit"), dict) \
            or not isinstance(d.get("history"), list):
        raise InputError(str(path), "not a Skirmish campaign file", line=1,
                         hint="start one with 'bagm skirmish campaign start ROSTER CAMPAIGN'")
    pending = d.get("pending")
    if pending is not None and (not isinstance(pending, dict) or not PENDING_KEYS <= set(pending)
                                or pending["step"] not in ("injuries", "points", "spend")):
        raise InputError(str(path), "the after-battle sequence ('pending') is damaged",
                         line=doc.line(("pending",)), hint="restore the file from your backup or "
                         "version control; bagm writes it, edit it only with the commands")
    if not isinstance(d.get("seed", 0), int):
        raise InputError(str(path), "seed is a whole number", line=doc.line(("seed",)))
    return Campaign(Path(path), d, text)


def start(roster_path: Path, campaign_path: Path, data: SkirmishData, seed: int = 0) -> tuple[Campaign, Report]:
    """A new campaign from a valid roster; refuses to overwrite a campaign file."""
    doc = load(roster_path)
    roster = parse(str(roster_path), doc)
    report = validate(roster, data)
    if not report.valid:
        raise CampaignError(f"{roster_path} is not a valid unit; fix it first "
                            f"(bagm skirmish validate {roster_path})")
    unit = {k: v for k, v in doc.data.items() if k != "skirmish"}
    unit = {"skirmish": "roster", **unit}
    for p in unit.get("packs") or []:
        p.setdefault("founded", p.get("models"))  # a Pack is never added to
    unit.setdefault("state", {})
    unit["state"].setdefault("battles", 0)
    unit["state"].setdefault("pool", max(0, data.get("budget") - (report.points or 0)))
    c = Campaign(campaign_path, {"skirmish": "campaign", "name": roster.name, "seed": seed,
                                 "unit": unit, "pending": None, "history": []})
    if campaign_path.exists():
        raise CampaignError(f"{campaign_path} exists; a campaign is never overwritten")
    c.record("start", roster=str(roster_path), points=report.points,
             pool=unit["state"]["pool"], note="the unit as founded; unspent points start the "
             "Points Pool (reading)")
    return c, report


def _fkey(data: SkirmishData, unit: dict[str, Any]) -> str:
    key = data.faction_key(str(unit.get("faction", "")))
    if key is None:
        raise CampaignError(f"unknown faction '{unit.get('faction')}'")
    return key


# --- finding models ---------------------------------------------------------------------------
def _characters(unit: dict[str, Any]) -> list[dict[str, Any]]:
    return ([unit["leader"]] if unit.get("leader") else []) + list(unit.get("upgraded") or [])


def _pack(unit: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((p for p in unit.get("packs") or [] if p["name"] == name), None)


def _character(unit: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((m for m in _characters(unit) if m["name"] == name), None)


def _who(unit: dict[str, Any], spec: str) -> tuple[str, str, int]:
    """``NAME`` (a Leader or upgraded model, or one model of a Pack) or ``PACK:N``."""
    name, _, n = spec.rpartition(":") if ":" in spec else (spec, "", "")
    count = int(n) if n.isdigit() else 1
    if _character(unit, name) is not None and not n:
        return "model", name, 1
    if _pack(unit, name) is not None:
        return "pack", name, count
    known = [m["name"] for m in _characters(unit)] + [p["name"] for p in unit.get("packs") or []]
    raise CampaignError(f"no model or Pack '{spec}' in the unit; known: {', '.join(known)} "
                        "(a Pack's models as PACK:N)")


def _need_step(c: Campaign, step: str) -> dict[str, Any]:
    p = c.pending
    if p is None:
        raise CampaignError("no battle to follow up: record one with 'campaign battle'")
    if p["step"] != step:
        nxt = {"injuries": "campaign injuries", "points": "campaign points",
               "spend": "campaign buy/sell/advance/skill, then campaign end"}[p["step"]]
        raise CampaignError(f"the after-battle sequence is at '{p['step']}': run {nxt} first")
    return p


# --- the battle -----------------------------------------------------------------------------
def battle(c: Campaign, *, scenario: str, result: str, routed: bool, out_of_action: list[str],
           killed: list[str], fled: list[str], enemy_out_of_action: int, enemy_killed: int,
           bonus: int, dark_eldar_opponent: bool) -> dict[str, Any]:
    """Record a battle: who went Out of Action, who was Killed (removed now)."""
    if c.pending is not None:
        raise CampaignError("the last battle's after-battle sequence is not finished "
                            f"(step '{c.pending['step']}'); finish it with 'campaign end'")
    if c.state.get("disbanded"):
        raise CampaignError("the unit was disbanded")
    if result not in ("won", "lost", "draw"):
        raise CampaignError("result is won, lost or draw")
    unit = c.unit
    missing = [n for n, g in (c.state.get("miss_games") or {}).items() if g]
    ooa: list[list[Any]] = []
    for spec in out_of_action + fled:
        kind, name, n = _who(unit, spec)
        if name in missing:
            raise CampaignError(f"{name} was missing this game (recovering)")
        ooa.append([kind, name, n, spec in fled])
    removed = []
    leader_died = False
    # Tomb Gifts: the wargear each Pack took into this battle, and for how many models it paid
    gifts = [[pk["name"], w, pk["models"]] for pk in unit.get("packs") or [] for w in pk.get("wargear") or []]
    for spec in killed:  # Killed: struck from the roster at once
        kind, name, n = _who(unit, spec)
        if kind == "pack":
            p = _pack(unit, name)
            assert p is not None
            p["models"] = max(0, p["models"] - n)
        else:
            leader_died |= _remove_character(unit, name)
        removed.append(spec)
    for name in missing:  # the game missed is served
        c.state["miss_games"][name] -= 1
    c.data["pending"] = {"step": "injuries", "scenario": scenario, "result": result,
                         "routed": routed, "out_of_action": ooa, "enemy_out_of_action": enemy_out_of_action,
                         "enemy_killed": enemy_killed, "bonus": bonus, "pool_bonus": 0,
                         "leader_died": leader_died, "dark_eldar_opponent": dark_eldar_opponent,
                         "advanced": [], "tomb_gifts": gifts}
    return c.record("battle", scenario=scenario, result=result, routed=routed,
                    out_of_action=out_of_action, fled=fled, killed=removed,
                    enemy_out_of_action=enemy_out_of_action, enemy_killed=enemy_killed, bonus=bonus)


def _remove_character(unit: dict[str, Any], name: str) -> bool:
    """Remove a Leader or upgraded model; True when it was the Leader."""
    if unit.get("leader") and unit["leader"]["name"] == name:
        unit["leader"] = None
        return True
    unit["upgraded"] = [m for m in unit.get("upgraded") or [] if m["name"] != name]
    return False


# --- injuries -----------------------------------------------------------------------------------
def injuries(c: Campaign, data: SkirmishData, dice: Dice, how: str, *, ransom: str | None = None,
             successor: str | None = None) -> dict[str, Any]:
    """Pack casualties, then the Injury Table for each Leader or upgraded model Out of Action."""
    p = _need_step(c, "injuries")
    if ransom not in (None, "pay", "refuse"):
        raise CampaignError("--ransom is pay or refuse")
    unit = c.unit
    fkey = _fkey(data, unit)
    faction = data.raw["factions"][fkey]
    results: list[dict[str, Any]] = []
    for kind, name, n, fled in p["out_of_action"]:
        if kind == "pack":
            pack = _pack(unit, name)
            if pack is None:
                continue
            ptype = faction["packs"].get(pack["type"], {})
            if fled and ptype.get("counts_as"):  # Grot Packs that ran: no injury roll
                results.append({"pack": name, "fled": n, "dead": 0})
                continue
            # Injuries: a Pack model dies on 1-2; Hard To Kill 1; Easy To Kill (Grots) 1-3
            dies_on = ptype.get("injury_dies_on", faction.get("pack_injury_dies_on",
                                                              data.get("pack_injury_dies_on")))
            rolls = [dice.d6(f"{name} casualty") for _ in range(n)]
            dead = sum(1 for r in rolls if r <= dies_on)
            pack["models"] = max(0, pack["models"] - dead)
            results.append({"pack": name, "rolls": rolls, "dies_on": dies_on, "dead": dead})
        else:
            m = _character(unit, name)
            if m is None:
                continue
            results.append(_injure(c, data, dice, m, p, ransom))
    if p.get("leader_died") or any(r.get("leader_died") for r in results):
        results.append(_death_of_a_leader(c, data, dice, successor))
    if faction.get("pack_wargear"):
        results.extend(_tomb_gifts(c, data, fkey, p))
    p["step"] = "points"
    return c.record("injuries", dice, how, results=results)


def _tomb_gifts(c: Campaign, data: SkirmishData, fkey: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    """Tomb Gifts (Necron Unit): after the injuries, the wargear the Packs took into the battle
    comes off the roster and the points spent on it go back into the Pool; a Pack Killed or
    removed loses it. Wargear bought after the battle stays for the next one."""
    gifts = p.get("tomb_gifts")
    if gifts is None:  # a battle recorded before bagm kept this: the Packs' wargear now
        gifts = [[pk["name"], w, pk["models"]] for pk in c.unit.get("packs") or [] for w in pk.get("wargear") or []]
    out = []
    for name, item, models in gifts:
        pk = _pack(c.unit, name)
        if pk is None or item not in (pk.get("wargear") or []):
            continue
        pk["wargear"].remove(item)
        if pk["models"] > 0:
            back = _cost(data, "factions", fkey, "armoury", item, "cost") * models
            c.state["pool"] = c.state.get("pool", 0) + back
            out.append({"tomb_gifts": f"{item} returned from {name}: +{back}"})
        else:
            out.append({"tomb_gifts": f"{item} lost with {name}: no points back"})
    return out


def _d66(dice: Dice, reason: str) -> int:
    return dice.d6(reason) * 10 + dice.d6(reason)


def _injury(data: SkirmishData, roll: int) -> str:
    for row in data.get("injury_table", "rows"):
        if row["from"] <= roll <= row["to"]:
            return str(row["result"])
    raise CampaignError(f"no Injury Table result for {roll}")  # pragma: no cover - the table is whole


def _injure(c: Campaign, data: SkirmishData, dice: Dice, m: dict[str, Any], p: dict[str, Any],
            ransom: str | None) -> dict[str, Any]:
    """Roll the Injury Table (D66) for one model and apply the result (Multiple Injuries:
    D6 more rolls, re-rolling Dead, Captured and Multiple Injuries)."""
    name = m["name"]
    out: dict[str, Any] = {"model": name, "results": []}
    roll = _d66(dice, f"{name} injury")
    results = [(roll, _injury(data, roll))]
    if results[0][1] == "multiple_injuries":
        count = dice.d6(f"{name} multiple injuries")
        results = [results[0]]
        while len(results) < count + 1:
            r = _d66(dice, f"{name} injury {len(results)}")
            res = _injury(data, r)
            if res not in ("dead", "captured", "multiple_injuries"):
                results.append((r, res))
    for r, res in results:
        if res == "dead" and p.get("dark_eldar_opponent"):
            res = "captured"  # Capturing Prisoners: the Dark Eldar player takes Captured
        text = _apply_injury(c, data, dice, m, res, ransom, out)
        out["results"].append(f"{r}: {res.replace('_', ' ')}" + (f" ({text})" if text else ""))
        if out.get("removed"):
            break
    return out


def _add_injury(c: Campaign, name: str, what: str) -> None:
    c.state.setdefault("injuries", {}).setdefault(name, []).append(what)


def _apply_injury(c: Campaign, data: SkirmishData, dice: Dice, m: dict[str, Any], res: str,
                  ransom: str | None, out: dict[str, Any]) -> str:
    name = m["name"]
    miss = c.state.setdefault("miss_games", {})
    if res == "dead":
        out["removed"] = True
        out["leader_died"] = _remove_character(c.unit, name)
        return "removed from the roster with all its equipment"
    if res == "multiple_injuries":
        return ""
    if res == "minor_leg_injury":
        _add_injury(c, name, "move-1")
        return "moves 1\" less"
    if res in ("arm_injury", "major_leg_injury"):
        d = dice.d6(f"{name} {res.replace('_', ' ')}")
        if d == 1:
            limb = "arm_amputated" if res == "arm_injury" else "leg_amputated"
            _add_injury(c, name, limb)
            return f"D6 {d}: amputated; a Bionic Replacement restores it"
        miss[name] = max(miss.get(name, 0), 1)
        return f"D6 {d}: misses the next game"
    if res in ("minor_head_injury",):
        n = dice.d3(f"{name} Leadership lost")
        _add_injury(c, name, f"Ld-{n}")
        return f"Ld -{n}"
    stat = {"chest_wound": "T", "eye_injury": "BS", "nervous_system_damage": "I",
            "hand_injury": "WS"}.get(res)
    if stat is not None:
        _add_injury(c, name, f"{stat}-1")
        if res == "eye_injury":
            eyes = sum(1 for i in c.state["injuries"][name] if i == "BS-1")
            if eyes >= 2:
                _add_injury(c, name, "eye_lost")
                return "BS -1; blind in both eyes: removed unless replaced"
        return f"{stat} -1"
    if res == "old_wound":
        try:
            return str(data.get("old_wound"))
        except LostValue as exc:
            return f"{exc}; {exc.fix}"
    if res == "deep_wound":
        n = dice.d3(f"{name} games missed")
        miss[name] = max(miss.get(name, 0), n)
        return f"misses the next {n} game(s)"
    if res == "looted":  # the model keeps its armour
        m["weapons"] = []
        m["grenades"] = []
        m["wargear"] = [w for w in m.get("wargear") or [] if w.endswith(ARMOUR)]
        m.pop("master_crafted", None)
        return "equipment lost, armour kept"
    if res in ("bitter_enmity", "hardened"):
        _add_injury(c, name, res)
        return ""
    if res == "horrible_scars":
        skills = m.setdefault("skills", [])
        if "Fearsome" in skills:  # already Fearsome: re-roll this result
            return "already Fearsome: " + _reroll(c, data, dice, m, ransom, out)
        skills.append("Fearsome")
        _add_injury(c, name, "horrible_scars")
        return "gains Fearsome"
    if res == "survives_against_the_odds":
        pend = c.pending
        assert pend is not None
        pend["pool_bonus"] += data.get("survives_against_the_odds_points")
        return f"+{data.get('survives_against_the_odds_points')} points to the Pool"
    if res == "captured":
        r = data.get("ransom")
        amount = sum(dice.d6(f"{name} ransom") for _ in range(3)) + r["plus"]
        pool = c.state.get("pool", 0)
        if ransom == "pay" and pool >= amount:
            c.state["pool"] = pool - amount
            return f"ransomed for {amount} points from the Pool"
        out["removed"] = True
        out["leader_died"] = _remove_character(c.unit, name)
        why = "not paid" if ransom != "pay" else f"the Pool ({pool}) cannot pay"
        # Captured: a Killed model "will affect the unit's Points Pool if it forces the unit
        # under half strength"; how was lost, so the rule is shown, never applied by a guess
        try:
            half = f"; under half strength: {data.get('under_half_strength')} (apply it by hand)"
        except LostValue as exc:
            half = (f"; if this puts the unit under half strength it affects the Points Pool, "
                    f"but {exc} - apply it by hand, or {exc.fix}")
        return f"ransom {amount} {why}: killed, its equipment kept by the captors{half}"
    return ""  # full recovery


def _reroll(c: Campaign, data: SkirmishData, dice: Dice, m: dict[str, Any], ransom: str | None,
            out: dict[str, Any]) -> str:
    r = _d66(dice, f"{m['name']} injury re-roll")
    res = _injury(data, r)
    return f"{r}: {res.replace('_', ' ')} " + _apply_injury(c, data, dice, m, res, ransom, out)


def _death_of_a_leader(c: Campaign, data: SkirmishData, dice: Dice, successor: str | None) -> dict[str, Any]:
    """Death Of A Leader: an upgraded model takes command (the highest Ld; the player
    chooses between equals); with none, each Pack rolls on the Pack Advancement table and a
    Breaking The Mould result gives a new Leader; else the unit is disbanded."""
    unit = c.unit
    ups = list(unit.get("upgraded") or [])
    if ups:
        if len(ups) > 1 and successor is None:
            raise CampaignError("the Leader died: command passes to the upgraded model with the "
                                "highest Ld; name it with --successor (" +
                                ", ".join(m["name"] for m in ups) + ")")
        pick = next((m for m in ups if m["name"] == (successor or ups[0]["name"])), None)
        if pick is None:
            raise CampaignError(f"--successor {successor} is not an upgraded model")
        unit["upgraded"] = [m for m in ups if m is not pick]
        pick = dict(pick)
        pick["type"] = "upgraded"
        pick.pop("from_pack", None)
        unit["leader"] = pick
        return {"leader_died": True, "new_leader": pick["name"]}
    try:
        table = data.get("pack_advancement")
    except LostValue as exc:
        raise CampaignError(f"the Leader died with no upgraded model: each Pack rolls on the "
                            f"Pack Advancement table, which {exc}; {exc.fix}") from None
    for p in unit.get("packs") or []:
        if p["models"] < 1:
            continue
        roll = _roll_table(dice, table, f"{p['name']} Pack Advancement (Death Of A Leader)")
        if _advance_result(data, _fkey(data, unit), "pack_advancement", table, roll) == "breaking_the_mould":
            p["models"] -= 1
            unit["leader"] = {"name": f"{p['name']} Leader", "type": "upgraded", "from_pack": p["name"]}
            return {"leader_died": True, "new_leader": unit["leader"]["name"], "from_pack": p["name"]}
    c.state["disbanded"] = True
    return {"leader_died": True, "disbanded": True}


def _advance_result(data: SkirmishData, fkey: str, table_key: str, table: dict[str, Any],
                    roll: int) -> str:
    """The result of a roll on an Advancement table; a faction may fix some rolls (Tyranid
    Unit: Breaking The Mould on a 6 of the Pack Advancement table)."""
    if table_key == "pack_advancement":
        fixed = data.raw["factions"][fkey].get("pack_advancement_rolls") or {}
        if roll in fixed:
            return str(fixed[roll])
    return str(table["results"].get(roll, "none"))


def _roll_table(dice: Dice, table: dict[str, Any], reason: str) -> int:
    kind = table["dice"]
    if kind == "D6":
        return dice.d6(reason)
    if kind == "D66":
        return _d66(dice, reason)
    return dice.d6(reason) + dice.d6(reason)


# --- points -------------------------------------------------------------------------------------
def points(c: Campaign, data: SkirmishData, dice: Dice, how: str) -> dict[str, Any]:
    """Earning Points into the Points Pool (never below zero)."""
    p = _need_step(c, "points")
    table = data.raw["points"]
    parts: dict[str, int] = {}
    try:
        parts["fought in"] = data.get("points", "fought_in")
    except LostValue as exc:
        raise CampaignError(f"{exc}; {exc.fix}") from None
    if p["result"] == "won":
        parts["winning side"] = table["winning_side"]
    if p["routed"]:
        parts["unit routed"] = table["unit_routed"]
    if p["bonus"]:
        parts["scenario bonus"] = p["bonus"]
    if p["enemy_out_of_action"]:
        parts["enemy Out of Action"] = table["enemy_out_of_action"] * p["enemy_out_of_action"]
    if p["enemy_killed"]:
        parts["enemy Killed"] = table["enemy_killed"] * p["enemy_killed"]
    for m in _characters(c.unit):  # Keen Eye: 2D6 points for the unit
        if "Keen Eye" in (m.get("skills") or []):
            parts[f"Keen Eye ({m['name']})"] = dice.roll_expr(data.get("keen_eye"), f"{m['name']} Keen Eye")
    if p["pool_bonus"]:
        parts["Survives Against The Odds"] = p["pool_bonus"]
    earned = sum(parts.values())
    before = c.state.get("pool", 0)
    c.state["pool"] = max(0, before + earned)
    p["step"] = "spend"
    return c.record("points", dice, how, parts=parts, earned=earned, pool=c.state["pool"])


# --- spending -----------------------------------------------------------------------------------
def _checked(c: Campaign, data: SkirmishData, before: dict[str, Any]) -> None:
    """Refuse a change that breaks a construction rule (the unit is put back). Only what the
    change broke counts: a unit already below its minimum after its losses may still buy."""
    def broken(unit: dict[str, Any] | None) -> list[Any]:
        report = validate(c.roster(unit), data)
        return [f for f in report.findings if f.severity == "error" and f.code != "SK101"]

    already = {(f.code, f.where) for f in broken(before)}
    errors = [f for f in broken(None) if (f.code, f.where) not in already]
    if errors:
        c.data["unit"] = before  # the Pool is in the unit's state: it is put back too
        raise CampaignError("refused: " + "; ".join(f"{f.code} {f.message}" for f in errors))


def _cost(data: SkirmishData, *path: Any) -> int:
    try:
        return int(data.get(*path))
    except LostValue as exc:
        raise CampaignError(f"{exc}; {exc.fix}") from None


def _pay(c: Campaign, amount: int) -> None:
    pool = c.state.get("pool", 0)
    if amount > pool:  # the Pool never goes below zero
        raise CampaignError(f"costs {amount} points; the Points Pool has {pool}")
    c.state["pool"] = pool - amount


def buy(c: Campaign, data: SkirmishData, *, model: str | None = None, item: str | None = None,
        pack: str | None = None, new_pack: str | None = None, pack_type: str | None = None,
        models: int | None = None, upgrade_to: str | None = None,
        crafted: str | None = None, replaces: str | None = None) -> dict[str, Any]:
    """Spend the Pool: an armoury item for a model (or wargear or a Heavy/Assault weapon for a
    Pack), a new Pack, a Pack upgrade, or models to bring a Pack back to its minimum size."""
    _need_spend(c)
    unit = c.unit
    fkey = _fkey(data, unit)
    f = data.raw["factions"][fkey]
    before = copy.deepcopy(unit)
    if model is not None and item is not None:
        m = _character(unit, model)
        if m is None:
            raise CampaignError(f"no Leader or upgraded model '{model}'")
        extra = f.get("extra_armoury") if isinstance(f.get("extra_armoury"), dict) else {}
        entry = f.get("armoury", {}).get(item) or extra.get(item)
        if entry is None:
            lost = "" if "extra_armoury" not in f or extra else (
                f"; {f['name']} items the text lost are not known until supplied: "
                f"factions.{fkey}.extra_armoury (items) in a --data overlay")
            raise CampaignError(f"'{item}' is not in the {f['name']} armoury{lost}")
        path = ("factions", fkey, "armoury" if item in f.get("armoury", {}) else "extra_armoury", item, "cost")
        upgraded = m is not unit.get("leader")
        cost = _cost(data, *path) + (f.get("broken_mould_surcharge", 0) if upgraded else 0)
        what = f"{item} for {model}"
        if entry.get("requires") == "amputation":  # a Bionic Replacement: one a limb or eye
            what += _replace(c, f, m, replaces)
            if item in (m.get("wargear") or []):
                item = ""  # paid again for another limb; the model lists the item once
        elif replaces is not None:
            raise CampaignError("--replaces is for a Bionic (or Limb) Replacement")
        if item:
            m.setdefault({"weapon": "weapons", "wargear": "wargear", "grenade": "grenades"}[entry["kind"]],
                         []).append(item)
        if crafted:
            m["master_crafted"] = crafted
    elif pack is not None and item is not None:
        p = _pack(unit, pack)
        if p is None:
            raise CampaignError(f"no Pack '{pack}'")
        if f.get("pack_wargear") and item in f["armoury"]:  # Necron wargear: cost x models
            cost = _cost(data, "factions", fkey, "armoury", item, "cost") * p["models"]
            p.setdefault("wargear", []).append(item)
        else:
            lists = _cost_lists(data, fkey)
            group = "heavy" if item in lists["heavy"] else "assault" if item in lists["assault"] else None
            if group is None:
                raise CampaignError(f"'{item}' is not a Heavy or Assault weapon of the {f['name']}")
            cost = lists[group][item]["cost"]
            p.setdefault(group, []).append(item)
        what = f"{item} for {pack}"
    elif new_pack is not None and pack_type is not None and models:
        t = f["packs"].get(pack_type)
        if t is None:
            raise CampaignError(f"'{pack_type}' is not a {f['name']} Pack type: {', '.join(f['packs'])}")
        base = _cost(data, "factions", fkey, "packs", t.get("upgrade_of", pack_type), "cost")
        extra = _cost(data, "factions", fkey, "packs", pack_type, "upgrade_cost") if "upgrade_of" in t else 0
        cost = models * (base + extra)
        unit.setdefault("packs", []).append({"name": new_pack, "type": pack_type, "models": models,
                                             "founded": models})
        what = f"new Pack {new_pack}: {models} {t['name']}"
    elif pack is not None and upgrade_to is not None:
        p = _pack(unit, pack)
        t = f["packs"].get(upgrade_to)
        if p is None or t is None or t.get("upgrade_of") != p["type"]:
            raise CampaignError(f"'{pack}' cannot be upgraded to '{upgrade_to}'")
        cost = p["models"] * _cost(data, "factions", fkey, "packs", upgrade_to, "upgrade_cost")
        p["type"] = upgrade_to
        what = f"{pack} upgraded to {t['name']}"
    elif pack is not None and models:
        p = _pack(unit, pack)
        if p is None:
            raise CampaignError(f"no Pack '{pack}'")
        lo = f["packs"].get(p["type"], {}).get("min_size")
        if lo is None:
            raise CampaignError("only a Pack below its minimum size may be added to, and the "
                                f"text gives no minimum size for {p['type']}")
        if p["models"] + models > lo:
            raise CampaignError(f"a Pack is only brought back to its minimum size ({lo})")
        cost = models * _cost(data, "factions", fkey, "packs", p["type"], "cost")
        p["models"] += models
        what = f"{models} model(s) for {pack}"
    else:
        raise CampaignError("say what to buy: --model NAME --item ITEM, --pack NAME --item ITEM, "
                            "--new-pack NAME --type TYPE --models N, --pack NAME --upgrade-to TYPE, "
                            "or --pack NAME --models N")
    try:
        _pay(c, cost)
    except CampaignError:
        c.data["unit"] = before
        raise
    _checked(c, data, before)
    return c.record("buy", what=what, cost=cost, pool=c.state["pool"])


def _replaceable(f: dict[str, Any], injuries: list[str]) -> list[str]:
    """The limbs and eyes a model lost and has not had replaced (Bionic Replacements)."""
    out = [part for part in ("arm", "leg")
           if injuries.count(f"{part}_amputated") > injuries.count(f"{part}_replaced")]
    # Limb Replacement (Tyranid Unit): a Tyranid replaces an eye lost to Injury 31 (BS-1);
    # other races replace an eye only when blinded in both (Bionic Replacements)
    if ("BS-1" in injuries if f.get("replacement_eye_restores_bs") else
            "eye_lost" in injuries and "eye_replaced" not in injuries):
        out.append("eye")
    return out


def _replace(c: Campaign, f: dict[str, Any], m: dict[str, Any], replaces: str | None) -> str:
    """Record which limb or eye a Bionic (or Limb) Replacement replaces; a Tyranid's new eye
    gives back the BS point the Eye Injury took (Tyranid Unit: Limb Replacement)."""
    injuries = c.state.setdefault("injuries", {}).setdefault(m["name"], [])
    parts = _replaceable(f, injuries)
    if replaces is None:
        if len(parts) != 1:
            raise CampaignError(f"{m['name']} has " + (f"{' and '.join(parts)} to replace: say which "
                                "with --replaces" if parts else "no lost limb or eye to replace"))
        replaces = parts[0]
    if replaces not in parts:
        raise CampaignError(f"{m['name']} has no {replaces} to replace" + (
            f" (it may replace: {', '.join(parts)})" if parts else ""))
    injuries.append(f"{replaces}_replaced")
    if replaces == "eye" and f.get("replacement_eye_restores_bs"):
        injuries.remove("BS-1")  # the Starting Amount of its BS is back
        if "eye_lost" in injuries:
            injuries.remove("eye_lost")
        return " (replaces an eye: BS +1 regained)"
    return f" (replaces the {replaces})"


def _cost_lists(data: SkirmishData, fkey: str) -> dict[str, Any]:
    try:
        return data.get("factions", fkey, "heavy_assault")  # type: ignore[no-any-return]
    except LostValue as exc:
        raise CampaignError(f"{exc}; {exc.fix}") from None


def sell(c: Campaign, data: SkirmishData, *, model: str, item: str) -> dict[str, Any]:
    """Sell a weapon back for half its points value (reading: rounded down). Purchase New
    Weaponry says "excess weapons can be sold back"; reading: weapons and grenades (a thrown
    grenade is a shot like any other), never wargear (armour, a Bionic Replacement...)."""
    _need_spend(c)
    m = _character(c.unit, model)
    if m is None:
        raise CampaignError(f"no Leader or upgraded model '{model}'")
    fkey = _fkey(data, c.unit)
    f = data.raw["factions"][fkey]
    if item in (m.get("wargear") or []):
        raise CampaignError(f"'{item}' is wargear: the text lets a unit sell back weapons only "
                            "(Purchase New Weaponry: excess weapons are sold for half)")
    before = copy.deepcopy(c.unit)
    for group in ("weapons", "grenades"):
        if item in (m.get(group) or []):
            m[group].remove(item)
            break
    else:
        raise CampaignError(f"{model} has no '{item}'")
    if m.get("master_crafted") == item:
        m.pop("master_crafted")
    num, den = data.get("sell_fraction")
    if item in f.get("armoury", {}):
        back = _cost(data, "factions", fkey, "armoury", item, "cost") * num // den
    elif isinstance(f.get("extra_armoury"), dict) and item in f["extra_armoury"]:
        back = _cost(data, "factions", fkey, "extra_armoury", item, "cost") * num // den
    else:
        c.data["unit"] = before
        _cost(data, "factions", fkey, "extra_armoury")  # lost: says which value to supply
        raise CampaignError(f"'{item}' is not in the {f['name']} armoury")
    c.state["pool"] = c.state.get("pool", 0) + back
    _checked(c, data, before)
    return c.record("sell", what=f"{item} from {model}", points=back, pool=c.state["pool"])


def _need_spend(c: Campaign) -> None:
    if c.pending is not None:
        _need_step(c, "spend")


# --- advances and skills ------------------------------------------------------------------------
def advance(c: Campaign, data: SkirmishData, dice: Dice, how: str, who: str, *,
            result: str | None = None, skill: str | None = None, name: str | None = None) -> dict[str, Any]:
    """One roll on the Leader or Pack Advancement table (or a result entered by hand)."""
    p = _need_step(c, "spend")
    unit = c.unit
    kind, target, _ = _who(unit, who)
    if target in p["advanced"]:
        raise CampaignError(f"{target} already rolled for an advance after this battle "
                            "(reading: one roll each per battle; the text lost when to roll)")
    table_key = "pack_advancement" if kind == "pack" else "leader_advancement"
    fkey = _fkey(data, unit)
    obj = _pack(unit, target) if kind == "pack" else _character(unit, target)
    assert obj is not None
    rolled: list[int] = []
    if result is None:
        try:
            table = data.get(table_key)
        except LostValue as exc:
            raise CampaignError(f"{exc}; {exc.fix}, or enter the result by hand with --result") from None
        for _ in range(50):  # re-roll results the model cannot use (Advances)
            r = _roll_table(dice, table, f"{target} {table_key.replace('_', ' ')}")
            rolled.append(r)
            res = _advance_result(data, fkey, table_key, table, r)
            if _usable(c, data, fkey, kind, obj, res):
                result = res
                break
        else:  # pragma: no cover - fifty unusable results
            raise CampaignError("no usable advance in fifty rolls")
    else:
        if parse_advance(result) is None:
            raise CampaignError("--result is STAT+1, STAT+2, skill, breaking_the_mould or none")
        if not _usable(c, data, fkey, kind, obj, result):
            raise CampaignError(f"{target} cannot take '{result}' (a limit of Advances, or "
                                "Breaking The Mould not for it): roll again")
    assert result is not None
    applied = _apply_advance(c, data, dice, kind, obj, result, skill, name)
    p["advanced"].append(target)
    return c.record("advance", dice, how, who=target,
                    table=table_key, result=result, applied=applied)


def _usable(c: Campaign, data: SkirmishData, fkey: str, kind: str, obj: dict[str, Any],
            res: str) -> bool:
    parsed = parse_advance(res)
    if parsed == "breaking_the_mould":
        if kind != "pack" or fkey == "necrons":  # No Leader: Necrons re-roll it
            return False
        return len(c.unit.get("upgraded") or []) < data.get("max_upgraded_models") and obj["models"] > 1
    if isinstance(parsed, tuple):
        stat, n = parsed
        current = (obj.get("advances") or {}).get(stat, 0)
        if current + n > data.get("advance_max"):
            return False
        profile = _profile(data, fkey, kind, obj)
        if profile is not None:
            base = profile[stat]
            if base == 0 or base + current + n > data.get("characteristic_max"):
                return False
    return True


def _profile(data: SkirmishData, fkey: str, kind: str, obj: dict[str, Any]) -> dict[str, Any] | None:
    try:
        if kind == "pack":
            return data.get("factions", fkey, "packs", obj["type"], "profile")  # type: ignore[no-any-return]
        if obj.get("type") not in (None, "upgraded"):
            return data.get("factions", fkey, "leader", obj["type"], "profile")  # type: ignore[no-any-return]
    except (LostValue, KeyError):
        return None
    return None


def _apply_advance(c: Campaign, data: SkirmishData, dice: Dice, kind: str, obj: dict[str, Any],
                   result: str, skill: str | None, name: str | None) -> str:
    parsed = parse_advance(result)
    if isinstance(parsed, tuple):
        stat, n = parsed
        adv = obj.setdefault("advances", {})
        adv[stat] = adv.get(stat, 0) + n
        return f"{stat} +{n}"
    if parsed == "skill":
        if skill is None:
            pend = c.pending
            assert pend is not None
            pend["skills_due"] = pend.get("skills_due", []) + [obj["name"]]
            return "a new skill: choose it with 'campaign skill'"
        return _add_skill(c, data, dice, obj, skill)
    if parsed == "breaking_the_mould":
        new = name or f"{obj['name']} veteran {len(c.unit.get('upgraded') or []) + 1}"
        obj["models"] -= 1
        c.unit.setdefault("upgraded", []).append({"name": new, "from_pack": obj["name"]})
        return f"{new} breaks the mould and becomes an upgraded model"
    return "no advance"


def _add_skill(c: Campaign, data: SkirmishData, dice: Dice, obj: dict[str, Any], skill: str) -> str:
    before = copy.deepcopy(c.unit)
    obj.setdefault("skills", []).append(skill)
    text = f"new skill {skill}"
    if skill == "Psychic Training":  # roll a power; roll again for one it has
        table = {int(k): v for k, v in data.get("psychic_powers", "table").items()}
        have = set(obj.get("psychic_powers") or [])
        if len(have) >= len(table):
            raise CampaignError("every psychic power is known")
        while True:
            power = table[dice.d6("psychic power")]
            if power not in have:
                break
        obj.setdefault("psychic_powers", []).append(power)
        text += f" (power: {power})"
    _checked(c, data, before)
    return text


def skill(c: Campaign, data: SkirmishData, dice: Dice, how: str, who: str, name: str) -> dict[str, Any]:
    """Choose the skill an advance gave."""
    p = _need_step(c, "spend")
    due = p.get("skills_due", [])
    kind, target, _ = _who(c.unit, who)
    if target not in due:
        raise CampaignError(f"{target} has no new skill to choose (an advance gives one)")
    obj = _pack(c.unit, target) if kind == "pack" else _character(c.unit, target)
    assert obj is not None
    applied = _add_skill(c, data, dice, obj, name)
    due.remove(target)
    return c.record("skill", dice, how, who=target, skill=name, applied=applied)


# --- the end of the sequence ----------------------------------------------------------------------
def end(c: Campaign, data: SkirmishData, dice: Dice | None = None, how: str = "seeded",
        successor: str | None = None) -> tuple[dict[str, Any], Report]:
    """Close the after-battle sequence: Packs below their minimum removed, unreplaced amputated legs and lost eyes removed; the unit validated."""
    p = _need_step(c, "spend")
    if p.get("skills_due"):
        raise CampaignError("choose the new skill(s) first: " + ", ".join(p["skills_due"]))
    unit = c.unit
    fkey = _fkey(data, unit)
    f = data.raw["factions"][fkey]
    notes: list[str] = []
    kept = []
    for pk in unit.get("packs") or []:
        lo = f["packs"].get(pk["type"], {}).get("min_size")
        if pk["models"] < 1 or (lo is not None and pk["models"] < lo):
            notes.append(f"{pk['name']} removed ({pk['models']} left)")
            continue
        kept.append(pk)
    unit["packs"] = kept
    for m in list(_characters(unit)):
        inj = set(c.state.get("injuries", {}).get(m["name"], ()))
        bionic = {"Bionic Replacement", "Bionik Replacement", "Limb Replacement"} & set(m.get("wargear") or [])
        if ("leg_amputated" in inj or "eye_lost" in inj) and not bionic:
            notes.append(f"{m['name']} removed (an amputated leg or lost eye not replaced)")
            if _remove_character(unit, m["name"]):  # Death Of A Leader
                dice = dice or c.dice(None, None)[0]
                notes.append(str(_death_of_a_leader(c, data, dice, successor)))
    c.state["battles"] = c.state.get("battles", 0) + 1
    c.data["pending"] = None
    report = validate(c.roster(), data)
    findings = [f"{x.code} {x.message}" for x in report.findings if x.code != "SK101"]
    entry = c.record("end", dice, how, notes=notes, valid=not any(
        x.severity == "error" and x.code != "SK101" for x in report.findings), findings=findings,
        pool=c.state.get("pool", 0))
    return entry, report
