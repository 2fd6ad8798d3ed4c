"""Leader data: a Leader's Bodyguard units and its Leader abilities as structured effects."""

from __future__ import annotations

import re
from typing import Any

from bagm.io.bsdata.names import dedupe, name_key
from bagm.io.bsdata.values import parse_weapon_keywords

# Rules Adaptations "Leaders" / "Leader Abilities": a Leader never attaches in Boarding Actions;
# the Battlefield Command Stratagem gives one of its Leader abilities to a Bodyguard unit it could
# normally be attached to. So a pack records those units (by name) and each Leader ability as
# structured effects. Only facts are taken: unit names, ability names, numbers.

_MARKUP = re.compile(r"\*\*|\^\^|\*")  # BattleScribe bold/keyword markup and footnote stars
_BULLET = re.compile(r"^\s*[■▪•●\-–]\s*")
_LIST_HEAD = re.compile(r"attached to the following units?\s*:?", re.I)
_MAX_NAME_WORDS = 8  # a longer list item is prose, not a unit name


def _plain(text: str | None) -> str:
    """Text without markup, non-breaking spaces or curly apostrophes (lines kept)."""
    text = _MARKUP.sub("", text or "").replace("\u00a0", " ").replace("’", "'")
    return "\n".join(" ".join(line.split()) for line in text.splitlines())


def _unit_name(item: str) -> str | None:
    """A list item as a unit name, or None when it is prose."""
    name = re.sub(r"\s+units?$", "", item.strip(" .,;:"), flags=re.I).strip(" .,;:")
    if not name or len(name.split()) > _MAX_NAME_WORDS or re.search(r"[.:()]", name):
        return None
    return name


def parse_leader_units(text: str | None) -> list[str]:
    """The unit names a "Leader" ability lists (its bullets, or the comma list after "...
    attached to the following units:"); sentences around the list are ignored."""
    lines = _plain(text).splitlines()
    names: list[str] = []
    in_list = False  # the lines right after the heading, before any sentence
    for line in lines:
        if not line:
            continue
        head = _LIST_HEAD.search(line)
        if head:
            line, in_list = line[head.end():], True
            if not line.strip():
                continue
        if _BULLET.match(line):
            names.append(line)
            continue
        if in_list:
            items = re.split(r"[,;]", line)
            if all(_unit_name(i) or not i.strip(" .") for i in items):
                names.extend(items)
                continue
        in_list = False
    return dedupe(n for n in (_unit_name(_BULLET.sub("", n)) for n in names) if n)


_LEADING = re.compile(r"^(?:while|when) this (?:model|unit) is leading\b", re.I)
_LEADING_ANY = re.compile(r"^(?:while|when) this (?:model|unit) is leading a unit\s*[,:]\s*",
                          re.I)
_KIND = r"(?:(?P<kind>ranged|melee) )?"
_INCHES = r"(?:\"|''|\u201d|\u2033)?"  # 2" (the inch mark, in any of its spellings)
_THAT_UNIT = r"(?:models in )?that unit"
_WEAPONS = rf"{_KIND}weapons equipped by {_THAT_UNIT}"
_CLAUSES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"{_WEAPONS} have the (?P<abilities>\[[^\]]+\](?:(?:,| and) \[[^\]]+\])*) "
                r"abil(?:ity|ities|ties)$"), "weapon_abilities"),  # "abilties": a typo in the data
    (re.compile(rf"add 1 to the (?P<chars>Attacks|Strength|Damage)(?: and (?P<chars2>Strength|"
                rf"Damage))? characteristics? of {_WEAPONS}$"), "characteristics"),
    (re.compile(rf"improve the Armour Penetration characteristic of {_WEAPONS} by 1$"), "ap"),
    (re.compile(r"models in that unit have the Feel No Pain (?P<fnp>[2-6])\+ ability$"), "fnp"),
    (re.compile(r"models in that unit have an? (?P<inv>[2-6])\+ invulnerable save$"), "invuln"),
    (re.compile(r"each time an? (?:(?P<against>ranged|melee) )?attack targets that unit, subtract 1 "
                r"from the (?P<roll>Hit|Wound) roll$"), "against"),
    (re.compile(r"models in that unit have the Stealth ability$"), "stealth"),
    (re.compile(r"models in that unit have the Benefit of Cover$"), "cover"),
    (re.compile(rf"that unit can only be selected as the target of a ranged attack if the attacking "
                rf"model is within (?P<n>\d+){_INCHES}$"), "ranged_within"),
    (re.compile(rf"(?:models in )?(?:this|that) unit cannot be targeted by ranged attacks unless the "
                rf"attacking model is within (?P<n>\d+){_INCHES}$"), "ranged_within"),
    (re.compile(rf"that unit cannot be targeted by ranged attacks unless the attacking unit is "
                rf"within (?P<n>\d+){_INCHES}$"), "ranged_unit_within"),
    (re.compile(rf"each time (?:a model in that unit makes a Pile-In or Consolidation move, it|that "
                rf"unit Piles In or Consolidates, each model in that unit) can move up to "
                rf"(?P<n>[4-9]){_INCHES} instead of (?:up to )?3{_INCHES}$"), "pile_in"),
    (re.compile(r"that unit is eligible to shoot in a turn in which it Fell Back$"),
     "shoot_after_fall_back"),
    (re.compile(r"(?:you can )?re-roll Leadership tests taken for that unit$"), "leadership"),
    (re.compile(rf"each time that unit advances, do not make an Advance roll; instead, until the "
                rf"end of the phase, add (?P<n>\d+){_INCHES} to the Move characteristic of models "
                r"in (?:this|that) unit$", re.I), "advance_fixed"),
    (re.compile(rf"each time a model in that unit makes an? {_KIND}attack(?: that targets (?:an "
                r"enemy unit that does not have the (?P<lacks>[A-Z][A-Z' -]*?(?: or [A-Z][A-Z' -]*?)*) "
                r"keywords?|a unit that is (?P<tstate>below its Starting Strength|Below "
                rf"Half-strength)|an enemy unit within (?P<within>\d+){_INCHES}))?, (?P<rest>.+)$"), "attack"),
    (re.compile(r"models in that unit have the Feel No Pain (?P<fnp>[2-6])\+ ability against "
                r"(?P<against>Psychic Attacks|mortal wounds)(?: and (?P<against2>Psychic Attacks|"
                r"mortal wounds))?$", re.I), "fnp_against"),
    (re.compile(r"add (?P<n>[1-3]) to the Objective Control characteristic of models in that "
                r"unit$"), "oc"),
    (re.compile(r"(?:models in that unit have|that unit has) the Fights First ability$"),
     "fights_first"),
    (re.compile(rf"add (?P<n>[1-6]){_INCHES} to the Move characteristic of models in (?:that|this) "
                r"unit$"), "move"),
    (re.compile(r"add (?P<n>[1-3]) to (?P<rolls>Advance|Charge)(?: and (?P<rolls2>Charge))? rolls "
                r"made for that unit$"), "roll_mod"),
    (re.compile(r"(?:you can )?re-roll (?P<rolls>Advance|Charge)(?: and (?P<rolls2>Charge))? rolls "
                r"made for that unit$"), "roll_reroll"),
    (re.compile(r"that unit is eligible to declare a charge in a turn in which it Advanced$"),
     "charge_after_advance"),
    (re.compile(r"that unit is eligible to shoot and declare a charge in a turn in which it "
                r"(?P<moves>Advanced or Fell Back|Advanced|Fell Back)$"), "shoot_charge_after"),
    (re.compile(r"each time a model in that unit is destroyed by a melee attack, if (?:it|that model) has "
                r"not fought this phase, roll one D6[,:;] on a (?P<n>[2-6])\+,? do not remove (?:it|the "
                r"destroyed model) from play[,;] (?:that|the) destroyed model can fight after the attacking "
                r"(?:model's )?unit has finished making its attacks,? and (?:is then|then is) removed from "
                r"play$", re.I), "fight_on_death"),
    (re.compile(r"each time an attack is allocated to a model in that unit, subtract 1 from the Damage "
                r"characteristic of that attack$"), "damage_against"),
    (re.compile(r"each time an? (?:(?P<against>ranged|melee) )?attack targets that unit, worsen th(?:at|e) "
                r"Armour Penetration characteristic of that attack by 1$"), "ap_against"),
]
_ATTACK_CLAUSES: list[tuple[re.Pattern[str], dict[str, Any]]] = [
    (re.compile(r"(?:you can )?add 1 to the Hit roll"), {"hit_mod": 1}),
    (re.compile(r"(?:you can )?add 1 to the Wound roll"), {"wound_mod": 1}),
    (re.compile(r"(?:you can )?re-roll the Hit roll"), {"reroll_hits": "failed"}),
    (re.compile(r"(?:you can )?re-roll the Wound roll"), {"reroll_wounds": "failed"}),
    (re.compile(r"(?:you can )?re-roll a Hit roll of 1"), {"reroll_hits": "ones"}),
    (re.compile(r"(?:you can )?re-roll a Wound roll of 1"), {"reroll_wounds": "ones"}),
    # "modifed": a typo in the data; the value ("5+") goes into crit_hit
    (re.compile(r"an? (?:successful )?unmodifi?ed Hit roll of (?P<crit>[2-5])\+ scores a "
                r"Critical Hit"), {}),
    (re.compile(r"a Critical Hit is scored on an unmodified Hit roll of (?P<crit>[2-5])\+"
                r"(?:, instead of only on a 6)?"), {}),
]


_IF_KEYWORD = re.compile(r"if that unit has the (?P<kw>[A-Za-z][\w' -]*?) keyword, (?P<rest>.+?)"
                         r"(?P<instead> instead)?$", re.I)
_BEST_OF = {"fnp", "invuln", "fnp_mortal", "fnp_psychic"}  # the better of two values applies
_CONDITIONS = {"only_while", "only_keyword", "against", "target_while", "target_lacks", "target_within"}


def is_leader_ability(text: str | None) -> bool:
    """Whether an ability is a Leader ability: its text begins "While this model (or unit) is
    leading ..." (Rules Adaptations "Leader Abilities")."""
    return bool(_LEADING.match(_plain(text).strip()))


_UNIT_STATE = re.compile(r"(?: as well)? if that unit is (?P<state>below its Starting Strength|"
                         r"Below Half-strength)$", re.I)  # a condition the engine checks
_STATES = {"below its starting strength": "below_starting", "below half-strength": "below_half"}


def _attack_effect(kind: str | None, rest: str) -> list[dict[str, Any]] | None:
    """The effects of "each time a model in that unit makes a [kind] attack, <rest>": one per
    condition on the led unit ("... if that unit is below its Starting Strength")."""
    effects: dict[str | None, dict[str, Any]] = {}
    for part in re.split(r",? and (?=(?:you can )?(?:add|re-roll))", rest):
        state = _UNIT_STATE.search(part)
        if state:
            part = part[:state.start()]
        when = _STATES[state["state"].lower()] if state else None
        effect = effects.setdefault(when, {"attacks": kind or "all", **(
            {"only_while": when} if when else {})})
        for pattern, change in _ATTACK_CLAUSES:
            m = pattern.fullmatch(part)
            if m:
                if m.groupdict().get("crit"):
                    change = {"crit_hit": int(m["crit"])}
                if set(change) & set(effect):
                    return None
                effect.update(change)
                break
        else:
            return None
    # the condition last, as the other fields read first
    return [{k: v for k, v in e.items() if k != "only_while"} | (
        {"only_while": e["only_while"]} if "only_while" in e else {}) for e in effects.values()]


def _clause_effect(clause: str) -> list[dict[str, Any]] | None:
    """One clause ("melee weapons ... have the [LETHAL HITS] ability") as effects, or None."""
    for pattern, what in _CLAUSES:
        m = pattern.match(clause)
        if not m:
            continue
        groups = m.groupdict()
        kind = groups.get("kind")
        effect: dict[str, Any] = {"attacks": kind or "all"}
        if what == "weapon_abilities":
            items = re.findall(r"\[([^\]]+)\]", groups["abilities"])
            abilities = [a for item in items for a in parse_weapon_keywords(item)]
            if len(abilities) != len(items) or not all(_engine_knows(a) for a in abilities):
                return None
            effect["weapon_abilities"] = abilities
        elif what == "characteristics":
            for char in (groups["chars"], groups.get("chars2")):
                if char:
                    effect[f"{char[0]}_mod"] = 1  # Attacks -> A_mod, Strength -> S_mod...
        elif what == "ap":
            effect["AP_mod"] = -1  # improving AP by 1 makes it one more negative
        elif what == "fnp":
            effect = {"fnp": int(groups["fnp"])}
        elif what == "invuln":
            effect = {"invuln": int(groups["inv"])}
        elif what == "against":
            effect = {f"{groups['roll'].lower()}_against_mod": -1}
            if groups.get("against"):
                effect["against"] = groups["against"]
        elif what == "stealth":  # Stealth: -1 to the Hit roll of ranged attacks that target it
            effect = {"hit_against_mod": -1, "against": "ranged"}
        elif what == "cover":
            effect = {"cover": True}
        elif what in ("ranged_within", "ranged_unit_within"):
            effect = {what: int(groups["n"])}
        elif what == "pile_in":
            effect = {"pile_in": int(groups["n"])}
        elif what == "shoot_after_fall_back":
            effect = {"shoot_after_fall_back": True}
        elif what == "leadership":
            effect = {"reroll_leadership": True}
        elif what == "advance_fixed":
            effect = {"advance_fixed": int(groups["n"])}
        elif what == "attack":
            found = _attack_effect(kind, groups["rest"])
            target: dict[str, Any] = {}
            if groups.get("tstate"):
                target["target_while"] = _STATES[groups["tstate"].lower()]
            if groups.get("lacks"):
                target["target_lacks"] = [k.strip() for k in groups["lacks"].split(" or ")]
            if groups.get("within"):  # "... that targets an enemy unit within 6\""
                target["target_within"] = int(groups["within"])
            if found is None or target and any("only_while" in e for e in found):
                return None  # a condition on the target and one on "that unit": ambiguous
            return [e | target for e in found]
        elif what == "fnp_against":
            against = {groups["against"].lower(), (groups.get("against2") or "").lower()} - {""}
            if len(against) != len([g for g in (groups["against"], groups.get("against2")) if g]):
                return None  # the same thing twice
            fnp = int(groups["fnp"])
            effect = {("fnp_psychic" if a == "psychic attacks" else "fnp_mortal"): fnp
                      for a in sorted(against)}
        elif what == "oc":
            effect = {"OC_mod": int(groups["n"])}
        elif what == "fights_first":
            effect = {"fights_first": True}
        elif what == "move":
            effect = {"M_mod": int(groups["n"])}
        elif what in ("roll_mod", "roll_reroll"):
            rolls = [r.lower() for r in (groups["rolls"], groups.get("rolls2")) if r]
            if what == "roll_mod":
                effect = {f"{r}_mod": int(groups["n"]) for r in rolls}
            else:
                effect = {f"reroll_{r}": True for r in rolls}
        elif what == "charge_after_advance":
            effect = {"charge_after_advance": True}
        elif what == "shoot_charge_after":  # "eligible to shoot and declare a charge in a turn in which it ..."
            moves = groups["moves"]
            effect = {f: True for f, move in (("shoot_after_advance", "Advanced"), ("charge_after_advance", "Advanced"),
                                              ("shoot_after_fall_back", "Fell Back"),
                                              ("charge_after_fall_back", "Fell Back")) if move in moves}
        elif what == "fight_on_death":  # "... roll one D6: on a 4+, do not remove it from play ..."
            effect = {"fight_on_death": int(groups["n"])}
        elif what == "damage_against":
            effect = {"damage_against_mod": -1}
        elif what == "ap_against":  # worsening the AP by 1 makes it one less negative
            effect = {"AP_against_mod": 1}
            if groups.get("against"):
                effect["against"] = groups["against"]
        return [effect]
    return None


def _engine_knows(ability: dict[str, Any]) -> bool:
    """Whether the attack engine applies this weapon ability (an unknown one is only listed)."""
    from bagm.data.models import WeaponAbility
    from bagm.data.schema import validate
    from bagm.data.weapons import Abilities

    try:
        known = Abilities.from_data([validate(WeaponAbility, ability)])
    except Exception:  # noqa: BLE001 - a malformed value is simply not modelled
        return False
    return not known.unknown


def parse_leader_effects(text: str | None) -> list[dict[str, Any]] | None:
    """A Leader ability's text as :class:`bagm.data.models.Effect` dicts, or None.

    Every sentence and clause must be understood. A condition the engine checks is kept as a
    field (the led unit below its Starting Strength or Half-strength, or with a keyword; the
    target's state or keywords; Feel No Pain against mortal wounds or Psychic Attacks); any other
    condition ("while ... contains a ... model", "within 6\""), a rider sentence, or an effect
    outside the vocabulary gives None (not modelled), never a partial or unconditional
    approximation. Fields left at their default are omitted.
    """
    plain = " ".join(_plain(text).split())
    m = _LEADING_ANY.match(plain)
    if not m:
        return None  # leading a particular unit, or "... and contains a X model": conditional
    body = plain[m.end():].strip().rstrip(".")
    if not body:
        return None
    # "... do not make an Advance roll. Instead, ...": one rule in two sentences
    body = re.sub(r"do not make an Advance roll\. Instead,", "do not make an Advance roll; instead,",
                  body)
    # "... roll one D6. On a 4+, do not remove it from play ... from play. The destroyed model can
    # fight ...": one rule in two or three sentences
    body = re.sub(r"roll one D6\. On a", "roll one D6: on a", body)
    body = re.sub(r"from play\. The destroyed model", "from play; the destroyed model", body)
    # a bulleted form ("leading a unit: - Models ... - Each time ...") or sentences
    parts = [p for p in re.split(r"\s+-\s+|\.\s+", body) if p.strip()]
    clauses: list[tuple[str, dict[str, Any]]] = []  # (clause, a condition on the led unit)
    for i, part in enumerate(parts):
        part = part.strip().lstrip("- ").rstrip(".")
        if i and part.lower().startswith("in addition, "):  # a second sentence that only adds
            part = part[len("in addition, "):]
        when: dict[str, Any] = {}
        keyword = _IF_KEYWORD.match(part) if i else None
        if keyword:  # "If that unit has the X keyword, <a better value> instead"
            if not keyword["instead"]:
                return None
            part, when = keyword["rest"], {"only_keyword": keyword["kw"].upper()}
        # "X have the [A] ability and melee weapons ... have the [B] ability": two clauses
        clauses += [(c, when) for c in re.split(
            r",? and,? (?=(?:ranged |melee )?weapons equipped|models in that unit have|each time|"
            r"(?:you can )?re-roll (?:Advance|Charge)|add \d+ to (?:Advance|Charge)|that unit "
            r"(?:cannot|can only|is eligible|has))", part[:1].lower() + part[1:])]
    effects: dict[tuple[Any, ...], dict[str, Any]] = {}
    for clause, when in clauses:
        found = _clause_effect(clause.strip())
        if found is None:
            return None
        for effect in found:
            if when and not set(effect) <= _BEST_OF:
                return None  # "instead" replaces a value: only for fields where the best applies
            effect.update(when)
            kind = effect.pop("attacks", "all")
            # one effect per kind of attack made, per kind of attack that targets the unit, and
            # per condition on the led unit
            group = (kind, effect.get("against"), effect.get("only_while"),
                     effect.get("only_keyword"), effect.get("target_while"),
                     tuple(effect.get("target_lacks", ())), effect.get("target_within"))
            into = effects.setdefault(group, {"attacks": kind} if kind != "all" else {})
            for key, value in effect.items():
                if key in _CONDITIONS or key not in into:
                    into[key] = value  # a condition: the same in the whole group
                elif key == "weapon_abilities":
                    into[key] = into[key] + value
                else:
                    return None  # the same field twice: not a plain sum, leave it to a human
    return list(effects.values()) or None


def leader_data(texts: dict[str, str]) -> dict[str, Any] | None:
    """A unit's Leader data from its abilities (name -> text): ``{bodyguards: [catalogue unit
    names], abilities: [{name, effects}]}``, or None without a "Leader" ability."""
    leader_text = next((t for n, t in texts.items() if name_key(n) == "leader"), None)
    if leader_text is None:
        return None
    abilities = [{"name": name, "effects": parse_leader_effects(text)}
                 for name, text in texts.items()
                 if name_key(name) != "leader" and is_leader_ability(text)]
    return {"bodyguards": parse_leader_units(leader_text), "abilities": abilities}
