"""Muster Boarding Patrol (mission sequence steps 1 and 5): each validated roster becomes an
:class:`~bagm.engine.state.army.Army` of Boarding Squads, its weapons and abilities read from the
data packs, and every rule the engine does not model is listed for the game's notes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bagm.data.abilities import army_rules, played
from bagm.data.weapons import AttackError, WeaponProfile
from bagm.engine.board.bases import base_mm
from bagm.engine.board.geometry import MM_PER_INCH
from bagm.engine.game.moments import OFFERED
from bagm.engine.rules.effects import aura_copy
from bagm.engine.rules.enhancements import ENHANCEMENTS, enhancement
from bagm.engine.rules.uses import Use, use_of
from bagm.engine.state.army import MOVE_CAP, Army, ArmyError, Own, Unit, _profile, fits
from bagm.engine.state.core import Player

if TYPE_CHECKING:  # pragma: no cover
    from bagm.roster.foreign import Imported
    from bagm.roster.model import Roster


def _weapon(w: Any, unit: str, notes: list[str]) -> WeaponProfile | None:
    try:
        return WeaponProfile.from_data(w)
    except AttackError as exc:
        notes.append(f"{unit}: weapon '{w.name}' not used ({exc})")
        return None


def _differs(p: Any, prof: Any) -> bool:
    """Another profile with characteristics the engine would play differently."""
    return any(getattr(p, k) != getattr(prof, k) for k in
               ("M", "T", "Sv", "W", "Ld", "OC", "invuln", "invuln_melee", "base"))


def own_profile(p: Any, prof: Any, move: int, adapted: bool, main_mm: float | None = None) -> Own | None:
    """Model profile ``p``'s characteristics against the unit's profile ``prof`` (``move``: the
    unit's Move as mustered; ``adapted``: a Boarding Actions adaptation set every model's Move;
    ``main_mm``: the base the unit's main profile stands on), or None where the engine would
    play them alike. Rules Adaptations "Flying": a Move over 9" is reduced to 9" at the start
    of the battle, model by model."""
    if p is prof:
        return None
    m = 0 if adapted or p.M is None else min(p.M, MOVE_CAP) - min(move, MOVE_CAP)
    r = p.base / MM_PER_INCH / 2 if p.base and main_mm and p.base != main_mm else None
    own = Own(T=p.T - prof.T, M=m, Sv=p.Sv, invuln=p.invuln, invuln_melee=p.invuln_melee, OC=p.OC, r=r)
    same = Own(0, 0, prof.Sv, prof.invuln, prof.invuln_melee, prof.OC)
    return None if own == same else own


Kit = list[tuple[int | None, frozenset[str] | None]]


def unit_kit(src: Any, prof: Any, sizes: list[int], part: int, move: int = 0, adapted: bool = True,
             main_mm: float | None = None
             ) -> tuple[Kit, list[int] | None, list[Own | None], list[str], list[str]]:
    """Each model's (own Wounds where its profile's differ from ``prof``'s, the weapons it
    carries) for Boarding Squad ``part`` of a unit split into ``sizes``: the unit's loadouts
    (:mod:`bagm.roster.wargear`) dealt out one model at a time in turn, so each squad gets its
    share of every loadout. The weapons are given only when the roster names wargear (else
    each model carries every default weapon, as before); empty: every model alike. Second:
    each model's Leadership less ``prof``'s (a Superior's 7+ in a squad of 8+: -1; empty: all
    alike; None: the loadouts, so who has which profile, are not known). Third: each model's
    other characteristics where its profile's differ (:func:`own_profile`; empty: all alike).
    Last: each model's profile name (empty: the loadouts are not known)."""
    from bagm.roster.wargear import default_loadouts, item_weapons

    ds = src.datasheet
    loadouts = src.loadouts or default_loadouts(ds, src.models or 1)
    if not loadouts:
        return [], None, [], [], []
    by_name = {p.name: p for p in ds.models}
    per_model: Kit = []
    diffs: list[int] = []
    owns: list[Own | None] = []
    profiles: list[str] = []  # each model's profile name
    notes: list[str] = []
    for lo in loadouts:
        p = by_name.get(lo.profile or "", prof)
        profiles += [p.name] * lo.count
        full = p.W if p.W is not None else prof.W
        diffs += [p.Ld - prof.Ld if p.Ld is not None and prof.Ld is not None else 0] * lo.count
        owns += [own_profile(p, prof, move, adapted, main_mm)] * lo.count
        gear: frozenset[str] | None = None
        if src.wargear:
            names = [w.name.lower() for item in lo.items for w in item_weapons(ds, item)]
            gear = frozenset(names)
            if not names:
                notes.append(f"{ds.name}: {lo.count} model(s) carry no weapon the data names "
                             f"({', '.join(lo.items) or 'nothing'})")
        per_model += [(full if full != prof.W else None, gear)] * lo.count
    squads: list[Kit] = [[] for _ in sizes]
    squad_diffs: list[list[int]] = [[] for _ in sizes]
    squad_owns: list[list[Own | None]] = [[] for _ in sizes]
    squad_names: list[list[str]] = [[] for _ in sizes]
    k = 0
    for model, diff, own, name in zip(per_model, diffs, owns, profiles):  # one at a time to each squad that has room, in turn
        for _ in range(len(sizes)):
            if len(squads[k % len(sizes)]) < sizes[k % len(sizes)]:
                break
            k += 1
        squads[k % len(sizes)].append(model)
        squad_diffs[k % len(sizes)].append(diff)
        squad_owns[k % len(sizes)].append(own)
        squad_names[k % len(sizes)].append(name)
        k += 1
    kit = squads[part] if part < len(squads) else []
    lds = squad_diffs[part] if part < len(squads) and any(squad_diffs[part]) else []
    kit_own = squad_owns[part] if part < len(squads) and any(o is not None for o in squad_owns[part]) else []
    mine = squad_names[part] if part < len(squads) else []
    if all(full is None and gear is None for full, gear in kit):
        return [], lds, kit_own, notes, mine
    return kit, lds, kit_own, notes, mine


def carries_item(src: Any, item: str) -> bool:
    """One of the unit's models carries the wargear ``item`` (by name, any case): the roster's wargear,
    else the datasheet's default (a Cadian Command Squad's Master vox)."""
    from bagm.roster.wargear import default_loadouts

    loadouts = src.loadouts or default_loadouts(src.datasheet, src.models or 1)
    return any(i.casefold() == item.casefold() for lo in loadouts for i in lo.items)


def bearer_index(ds: Any, names: list[str]) -> int | None:
    """Which model of a Boarding Squad (``names``: each model's profile, in order) bears its
    unit's Enhancement. Enhancements are borne by a CHARACTER model ("the bearer"); where a
    CHARACTER unit's models have different profiles (a Tempestor Prime among Tempestus Scions,
    a Dark Apostle with his Dark Disciples, a Traitor Enforcer with his Ogryn), only that
    model is the bearer. The data does not mark which profile is the CHARACTER's; our reading:
    the profile named as the datasheet is, else of the profiles of one model the one with the
    most Wounds (true of every such datasheet we ship; tests/test_game_rules.py lists
    them). The first model where every model is alike; None: this squad has no model of the
    bearer's profile (its unit was split and the bearer is in the other squad)."""
    from bagm.data.names import norm

    if len(ds.models) < 2 or not names:
        return 0
    single = [p for p in ds.models if (p.count or "1") == "1"]
    named = [p for p in ds.models if norm(p.name) == norm(ds.name)]
    pick = named or sorted(single, key=lambda p: -p.W)[:1]
    if not pick:
        return 0
    return names.index(pick[0].name) if pick[0].name in names else None


def _best_leadership(ds: Any, ld: int, first_half: bool = True) -> int:
    """Battle-shock tests use "the best Leadership characteristic in that unit" (Core Rules,
    Battle-shock step): the lowest of the profiles every such unit has (a count that may be 0
    is optional, so left out). Form Boarding Squads leaves the notes of who goes where to the
    players: here a single model (count 1: the Sergeant, the Superior) goes with the first half
    of a split unit. Used only where the loadouts are not known (no wargear in the data): the
    unit keeps this Leadership after that model is destroyed. With loadouts each model keeps
    its own (:meth:`Unit.leadership`)."""
    def always(count: Any) -> bool:
        if count is None:
            return True
        first = str(count).split("-")[0].strip()
        if not first_half and str(count).strip() == "1":
            return False
        return not first.isdigit() or int(first) >= 1
    lds = [p.Ld for p in ds.models if p.Ld is not None and always(p.count)]
    return min(lds, default=ld)


def build_army(player: Player, roster: str | Path | Roster | Imported, catalog: Any = None,
               text: str | None = None, faction_rules: bool = True) -> Army:
    """Validate one roster and form its Boarding Squads (mission sequence 1 and 5).

    ``roster``: a roster file's path, a loaded :class:`~bagm.roster.model.Roster` (with
    ``text``, the text it was read from), or another tool's list imported in memory
    (:func:`bagm.roster.foreign.load_or_import`, through the importer's ``import_file``). The
    army keeps the roster's text: the game's log stores it, so a replay needs no file.
    ``faction_rules`` False: the army plays without its faction's rules (its Detachment rule,
    Detachment Stratagems and Enhancements, army rules and the faction's own datasheet
    abilities; the core abilities and Leader abilities stay), to see what they are worth."""
    from bagm.data.names import norm as _norm
    from bagm.data.packs import Catalog
    from bagm.engine.rules.editions import edition_named
    from bagm.engine.rules.leaders import not_modelled_notes
    from bagm.roster.foreign import Imported
    from bagm.roster.model import Roster, load_roster
    from bagm.roster.squads import form_boarding_squads
    from bagm.roster.validate import validate

    catalog = catalog or Catalog()
    loaded: Roster
    if isinstance(roster, Imported):
        loaded, text = roster.roster, roster.text
    elif isinstance(roster, Roster):
        loaded = roster
    else:
        from bagm.io.yamlsafe import InputError, read_text

        if text is not None:
            loaded = load_roster(roster, text)
        else:
            try:
                text = read_text(Path(roster))
                loaded = load_roster(roster, text)
            except InputError:
                load_roster(roster)  # the error reading the file gives (another tool's list named)
                raise
    roster = loaded
    path = roster.path
    report = validate(roster, catalog)
    if not report.valid:
        first = next(f for f in report.findings if f.severity.name == "ERROR")
        where = f" (line {first.line})" if first.line else ""
        raise ArmyError(f"{path}: roster is not valid{where}: {first.code} {first.message}")
    squads = form_boarding_squads(str(path), report.units)
    edition = edition_named(report.edition)
    units: list[Unit] = []
    notes: list[str] = []
    det = catalog.faction(report.faction).detachments.get(report.detachment)
    # Boarding Actions "Detachment Rules": the rule applies to the units of the army it names
    army_rule: tuple[tuple[str, Any], ...] = ()
    if not faction_rules:  # the army as the core rules play it: its faction's rules left out
        notes.append("played without its faction rules (Detachment rule, Detachment Stratagems, "
                     "Enhancements, army rules, the faction's datasheet abilities)")
        det = None
    uses = _stratagems(det, notes)
    if det is not None and det.rule:
        rule_uses = _uses(det.rule_moments, det.rule, "Detachment rule")
        if det.rule_effects is None and not rule_uses:
            notes.append(f"Detachment rule '{det.rule}' ({det.name}) is not implemented")
        army_rule = tuple((det.rule, e) for e in det.rule_effects or ())
        uses += rule_uses
        if det.rule_effects is not None or rule_uses:
            notes += [f"Detachment rule '{det.rule}' ({det.name}): {part} is not implemented"
                      for part in det.rule_left]
    pack_enh = {_norm(e.name): e for e in det.enhancements} if det is not None else {}
    table = catalog.abilities(report.faction if faction_rules else None)  # None: the core abilities
    dealt: dict[int, int] = {}  # models of a split unit already dealt to its earlier squads
    army_moments: dict[str, tuple[str, Any, set[str]]] = {}
    pools: dict[str, tuple[Any, set[str]]] = {}  # an ability with tokens (Battle Focus) -> (entry, holders)
    auras: list[tuple[str, str, Any]] = []  # (unit, ability, aura effect)  # army-wide ability moments: name -> (moments, holders)
    for i, sq in enumerate(squads.units):
        src = report.units[sq.source]  # (by index: two roster units may share a display name)
        leads = next(s for s in squads.units if s.source == sq.source) is sq  # its first Boarding Squad
        ds = src.datasheet
        prof = _profile(ds)
        siblings = [s.models or 0 for s in squads.units if s.source == sq.source] \
            if sq.split_from else [sq.models or 1]
        move = prof.M if prof.M is not None else 0
        adapted = bool(ds.adaptation and ds.adaptation.M is not None)
        # the main profile's base (a datasheet's models may stand on different bases)
        main_mm = prof.base if prof.base else base_mm(ds)
        kit, kit_ld, kit_own, kit_notes, profiles = unit_kit(src, prof, siblings, dealt.get(sq.source, 0),
                                                             move, adapted, main_mm)
        main_r = main_mm / MM_PER_INCH / 2
        radius = max([main_r] + [o.r for o in kit_own if o is not None and o.r is not None])
        dealt[sq.source] = dealt.get(sq.source, 0) + 1
        notes += kit_notes
        kw = frozenset(ds.all_keywords) - {"FLY"}  # Rules Adaptations "Flying": no FLY
        fly = "FLY" in ds.all_keywords
        # a split unit's Enhancement (the Proctor-Exactant's) is on one Boarding Squad only: reading, the
        # first ("... A"), the one given the unit's best Leadership (its leader's model)
        enh = (src.enhancement or "").strip() if leads else ""
        entry = enhancement(enh)
        ranged: list[WeaponProfile] = []
        melee: list[WeaponProfile] = []
        carried = {g for _, gear in kit if gear is not None for g in gear}
        for w in ds.weapons:
            if not (w.name.lower() in carried if carried else w.default):
                continue  # default weapons; with the roster's wargear, what its models carry
            wp = _weapon(w, ds.name, notes)
            if wp is None:
                continue
            if entry.ranged_weapon is not None and not wp.melee and src.weapon and \
                    w.name.lower() == src.weapon.lower():
                wp = entry.ranged_weapon(wp)  # the weapon noted on the Army Roster (Trademark Weapon)
            (melee if wp.melee else ranged).append(wp)
        if src.weapon and entry.ranged_weapon is not None and not any(
                w.name.lower() == src.weapon.lower() for w in ranged):
            notes.append(f"{ds.name}: {entry.name} '{src.weapon}' is not default wargear; not applied")
        # each ability: how the engine plays it (the ability tables); and the army rules it has
        plays = played(ds, table) + army_rules(ds, table)
        if not faction_rules:  # the faction's abilities are left out, not unimplemented
            plays = [p for p in plays if p.how != ""]
        abil = [p.name for p in plays if p.how != "lost"]
        deep = any(a.lower() == "deep strike" for a in abil) or entry.deep_strike
        infil = any(a.lower() == "infiltrators" for a in abil)
        notes += not_modelled_notes(ds)  # Leader abilities without effects
        notes += [f"{ds.name}: ability '{p.name}' is not implemented" + (f" ({'; '.join(p.left)})" if p.left else "")
                  for p in plays if p.how == ""]  # e.g. a number no Boarding Actions text gives (Battle Focus)
        notes += [f"{ds.name}: ability '{p.name}': {part} is not implemented" for p in plays if p.how for part in p.left]
        own = tuple((p.name, e) for p in plays for e in p.effects)  # its abilities' standing effects
        # an aura on enemy units (Nurgle's Gift): never the unit's own; the game spreads it (spread_enemy_auras)
        on_enemies = tuple((n, e) for n, e in own if e.aura_enemy)
        own = tuple((n, e) for n, e in own if not e.aura_enemy)
        auras += [(f"{player}{i + 1}", n, e) for n, e in own if e.aura is not None]
        for pl in plays:  # an ability with tokens: its manoeuvres, for the units that have it
            if pl.entry is not None:
                pools.setdefault(_norm(pl.name), (pl.entry, set()))[1].add(f"{player}{i + 1}")
        for pl in plays:  # what it can use its abilities for at a moment (Martial Ka'tah, Zealot)
            for m in pl.moments:
                if m.effects and not any(fits(e, ds.name, kw) for e in m.effects):
                    continue  # none of its effects is for this unit (Transdimensional Reinforcement: not CHARACTERS)
                if m.army:  # one use for the army, on every unit that has the ability
                    army_moments.setdefault(_norm(pl.name), (pl.name, pl.moments, set()))[2].add(f"{player}{i + 1}")
                else:
                    got = _uses([m], pl.name, "Ability", f"{player}{i + 1}")
                    if m.reach_item and not carries_item(src, m.reach_item):  # Master Vox: only its bearer's unit
                        got = tuple(replace(g, reach_straight=None) for g in got)
                    uses += got
        if ds.adaptation and ds.adaptation.note and not ds.adaptation.played:
            notes.append(f"{ds.name}: Boarding Actions adaptation note not modelled: {ds.adaptation.note}")
        # the rule's and its abilities' effects whose fixed conditions (keywords, datasheets) the unit meets
        standing = tuple((n, e) for n, e in army_rule + own if fits(e, ds.name, kw))
        if enh and enh not in ENHANCEMENTS and not faction_rules:
            enh = ""  # a Detachment's Enhancement is a faction rule (the book's own stay)
        if enh and enh not in ENHANCEMENTS:
            data = pack_enh.get(_norm(enh))
            # a Detachment's Enhancement: its effects on the bearer's unit, and what the bearer's
            # unit can use it for at a moment
            enh_uses = _uses(data.moments, data.name, "Enhancement", f"{player}{i + 1}") if data else ()
            if data is None or data.effects is None and not enh_uses:
                notes.append(f"{ds.name}: Enhancement '{enh}' is not implemented")
            else:  # a Detachment's Enhancement: its effects on the bearer's unit
                standing += tuple((data.name, e) for e in data.effects or ())
                uses += enh_uses
                # an Enhancement's aura (The Vratine Aquila: "while a friendly ... unit is within 3\" of the bearer")
                auras += [(f"{player}{i + 1}", data.name, e) for e in data.effects or () if e.aura is not None]
        # Toughness and Wounds modifiers (an Enhancement's "add 1 to the bearer's Toughness"):
        # characteristics for the whole battle, so only a keyword condition can apply
        static = [e for _, e in standing if e.only_while is None and (
            e.only_keyword is None or e.only_keyword in kw)]
        tmod, wmod = sum(e.T_mod for e in static), sum(e.W_mod for e in static)
        if wmod:
            kit = [(None if full is None else full + wmod, gear) for full, gear in kit]
        if ds.adaptation and ds.adaptation.M is not None:
            move = ds.adaptation.M
        units.append(Unit(
            uid=f"{player}{i + 1}", player=player, name=sq.name, datasheet=ds,
            starting=sq.models or 1, points=sq.points or 0, T=prof.T + tmod, Sv=prof.Sv, W=prof.W + wmod,
            # Battle-shock step: the best Leadership of the models left (Unit.leadership)
            Ld=prof.Ld if kit_ld is not None and prof.Ld is not None else
            _best_leadership(ds, prof.Ld, leads),
            OC=prof.OC, M=min(move, MOVE_CAP), invuln=prof.invuln,
            radius=radius, model_r=main_r if any(o is not None and o.r is not None for o in kit_own) else None,
            keywords=kw, ranged=ranged, melee=melee, enemy_auras=on_enemies,
            warlord=src.warlord, enhancement=enh or None, deep_strike=deep, infiltrators=infil,
            invuln_melee=prof.invuln_melee, kit=kit, kit_ld=kit_ld or [], kit_own=kit_own, standing=standing,
            bearer=bearer_index(ds, profiles),  # the model bearing its Enhancement
            # Flying (2023): the Move of such models "cannot be increased for the duration of the
            # battle" (the roster's edition is the game's: both must agree, editions.edition_of)
            move_never_increased=fly and edition.fly_move_never_increased))
        others = [p for p in ds.models if p is not prof and _differs(p, prof)]
        if others and kit_ld is None:  # the loadouts, so who has which profile, are not known
            notes.append(f"{ds.name}: every model plays the '{prof.name}' profile (the data does not say "
                         f"which models have the others: {', '.join(p.name for p in others)})")
    # an Enhancement's effect on the whole army ("each time a KROOT model from your army makes an
    # attack ..., if the bearer is on the battlefield"): every unit has it (its only_keyword picks
    # them) until the bearer is destroyed (the game then takes it away)
    shares = [(b, tuple((n, e) for n, e in b.standing if e.army)) for b in units if b.enhancement]
    for b, shared in shares:
        for v in units if shared else ():
            if v is not b:
                v.standing += shared
    for name in {e.deep_strike_one for u in units for _, e in u.standing if e.deep_strike_one}:
        # "select one Meganobz unit from your army ... the Deep Strike ability": the roster's first
        chosen = next((v for v in units if _norm(v.datasheet.name) == _norm(name)), None)
        if chosen is not None:
            chosen.deep_strike = True
    for v in units:  # an effect: "Imperial Navy Breachers units gain the Infiltrate rule"
        if not v.infiltrators and any(e.infiltrators and fits(e, v.datasheet.name, v.keywords) for _, e in v.standing):
            v.infiltrators = True
    for name, moments, holders in army_moments.values():  # "... is active for your army" (Doctrina Imperatives)
        uses += _uses([m for m in moments if m.army], name, "Ability", holders=frozenset(holders))
    for entry, holders in pools.values():
        uses += _manoeuvres(entry, units, frozenset(holders), notes)
    _spread_auras(units, auras)
    notes = list(dict.fromkeys(notes))
    # the Army Roster's combined points total (step 1), not the squads' halves rounded up (step 5)
    return Army(player, str(path), report.title, report.faction or "", report.detachment or "",
                report.battle_ready, report.points, units, notes, text, uses, str(report.edition),
                faction_rules)


def spread_enemy_auras(units: list[Unit]) -> None:
    """An aura on enemy units ("while an enemy unit is within Contagion Range of one or more DEATH
    GUARD units from your army, it is Afflicted"): each unit of the other army gets ONE copy of the
    effect (never one per unit that has it: it is Afflicted once), whose condition is being within
    its range of any unit of the army that has it (``aura S1,S2 X``, by battle round with
    ``aura_rounds``, ``straight`` ignoring Walls; with ``aura_choice``, while those units carry the
    alternative: ``carries S1,S2 RULE: CHOICE``). Once per game's armies (a copy already there is
    not added again)."""
    for player in dict.fromkeys(u.player for u in units):
        mine = [(u.uid, n, e) for u in units if u.player == player for n, e in u.enemy_auras]
        for name, e, uids in same_auras(mine):
            e2 = aura_copy(e, ",".join(uids), name)
            for v in units:
                if v.player != player and fits(e2, v.datasheet.name, v.keywords) and not any(
                        n == name and x.only_while == e2.only_while for n, x in v.standing):
                    v.standing += ((name, e2),)


def same_auras(auras: list[tuple[str, str, Any]]) -> list[tuple[str, Any, list[str]]]:
    """The auras among ``auras`` ((unit, rule name, aura effect) triples): one entry for each
    aura (the same rule name, the same effect) with every unit that has it, in roster order.
    Core Rules "Aura Abilities": identically named auras are not cumulative (see aura_copy)."""
    groups: dict[tuple[str, str], tuple[str, Any, list[str]]] = {}
    for uid, name, e in auras:  # (an Effect compares by identity: its fields, as repr shows them, by value)
        _, _, uids = groups.setdefault((name, repr(e)), (name, e, []))
        if uid not in uids:
            uids.append(uid)
    return list(groups.values())


def _uses(moments: list[Any], name: str, kind: str, bearer: str | None = None,
          holders: frozenset[str] = frozenset()) -> tuple[Use, ...]:
    """The uses at a moment of a rule's ``moments`` that the engine plays (with effects, at a
    timing it offers)."""
    out = (use_of(m, name, kind, bearer, holders) for m in moments)
    return tuple(u for u in out if u is not None and u.when in OFFERED)


def _manoeuvres(entry: Any, units: list[Unit], holders: frozenset[str], notes: list[str]) -> tuple[Use, ...]:
    """The uses of an ability's tokens (Battle Focus: its ``tokens`` each battle round, supplied by
    a user, and its Agile Manoeuvres, one token each) for the units ``holders`` that have it; none
    when the army's Army Faction is not the one the rule names ("if your Army Faction is ASURYANI":
    read as every unit of the army having that keyword). The manoeuvres the engine cannot play are
    listed."""
    if entry.army_faction and not all(entry.army_faction.upper() in v.keywords for v in units):
        notes.append(f"ability '{entry.name}': no tokens (the army's Army Faction is not {entry.army_faction.upper()}: "
                     "a unit without that keyword)")
        return ()
    out = []
    for m in entry.manoeuvres:
        use = use_of(m, m.name, entry.name, holders=holders)
        if use is None:
            notes.append(f"ability '{entry.name}': manoeuvre '{m.name}' is not implemented")
        elif use.when not in OFFERED:
            notes.append(f"ability '{entry.name}': manoeuvre '{m.name}': the engine does not offer it at '{use.when}'")
        else:
            out.append(replace(use, spends=entry.name, gain=entry.tokens))
    return tuple(out)


def _stratagems(det: Any, notes: list[str]) -> tuple[Use, ...]:
    """The Detachment's Stratagems supplied as data that the game can offer; the others, and
    the lack of any, are listed (Boarding Actions Detachments have Stratagems no source lists)."""
    if det is None:
        return ()
    if not det.stratagems:
        notes.append(f"Detachment Stratagems of {det.name}: none supplied (no source the project has "
                     "lists them; a data pack can add them, see the README)")
        return ()
    out = []
    for data in det.stratagems:
        entry = use_of(data, data.name, "Stratagem")
        if entry is None:
            notes.append(f"Detachment Stratagem '{data.name}' ({det.name}) has no modelled effect")
        elif entry.when not in OFFERED:
            notes.append(f"Detachment Stratagem '{data.name}' ({det.name}): the engine does not offer "
                         f"supplied Stratagems at '{entry.when}'")
        else:
            out.append(entry)
    return tuple(out)


def modelled_rule(det: Any) -> bool:
    """Whether the engine plays a Detachment's rule: standing effects, or a use at a moment the
    game offers (``bagm data coverage`` counts these; games list the others)."""
    return det.rule_effects is not None or bool(_uses(det.rule_moments, det.rule or "", "Detachment rule"))


def modelled_enhancement(e: Any) -> bool:
    """Whether the engine plays a Detachment Enhancement: effects on the bearer's unit, or a use
    at a moment the game offers; or a bar on Enhancements (``bars``), which roster validation
    enforces."""
    return e.effects is not None or bool(e.bars) or bool(_uses(e.moments, e.name, "Enhancement"))


def _spread_auras(units: list[Unit], auras: list[tuple[str, str, Any]]) -> None:
    """An aura ("while a friendly unit is within 6\" of this unit, ..."): each other unit of the
    army whose fixed conditions fit gets ONE copy of the effect, however many units have that aura,
    whose condition is being within range of any of them (``aura S1,S2 X``, answered by the game:
    rules.effects); a unit that has the aura has the effect as its own (where its conditions fit
    it) and no copy: it is within range of its own aura, and the same aura affects it only once."""
    # Core Rules "Aura Abilities" (not in our texts; 9th edition's words): identically named auras are not cumulative
    for name, e, uids in same_auras(auras):
        e2 = aura_copy(e, ",".join(uids), name)  # the copy is about being near a unit that has the aura
        for v in units:
            if v.uid not in uids and fits(e2, v.datasheet.name, v.keywords):
                v.standing += ((name, e2),)
