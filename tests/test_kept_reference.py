"""Answers the game keeps on the units' stamps against their plain references
(tests/reference/positions.py), asked again and again along random and greedy games of the
bundled rosters, so that answers kept from earlier states are read back."""

from __future__ import annotations

import random
from functools import cache

from conftest import REPO
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from reference import effects as ref_effects
from reference import moments as ref_moments
from reference import positions as ref
from reference import uses as ref_uses
from reference import visibility as ref_sight

from bagm.data.timings import TIMINGS
from bagm.engine.attack.rules import Conditions
from bagm.engine.bots import make_bot
from bagm.engine.bots.uses import PRICED, call_now, use_gain
from bagm.engine.game import control, moments, movement, positions, shooting, sight
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.rules import leaders
from bagm.engine.rules.effects import effect_conditions, effect_defence, effect_weapon, holds_in
from bagm.engine.state.army import fields_set

ROSTERS = sorted(p.stem for p in (REPO / "rosters").glob("*.yaml"))
MISSIONS = [11, 12, 21, 31, 1, 5]
KINDS = ("normal", "advance", "fallback", "charge")


@cache
def _army(player: str, name: str):
    return build_army(player, REPO / "rosters" / f"{name}.yaml")


def games():
    """A game between two bundled rosters, its seed and how its players choose."""
    return st.tuples(st.sampled_from(ROSTERS), st.sampled_from(ROSTERS), st.sampled_from(MISSIONS),
                     st.integers(min_value=0, max_value=10_000), st.booleans())


def play(spec, check, every: int = 7, limit: int = 400) -> None:
    """Play the game ``spec`` (to its end or ``limit`` decisions), calling ``check(game)``
    every ``every`` decisions."""
    a, b, mission, seed, greedy = spec
    assume(_army("A", a).edition == _army("B", b).edition)  # a game is played under one edition
    g = Game(mission, _army("A", a).clone(), _army("B", b).clone(), seed=seed)
    rng = random.Random(seed)
    bot = make_bot("greedy", seed) if greedy else None
    for n in range(limit):
        if g.decision.step == "over":
            break
        if n % every == 0:
            check(g)
        g.apply(bot(g) if bot is not None else rng.choice(g.legal_actions()))


@settings(max_examples=12, deadline=None)
@given(games())
def test_move_discs_are_their_plain_reference(spec):
    def check(g: Game) -> None:
        for u in g.units.values():
            if u.where != "board" or not u.models:
                continue
            for kind in KINDS:
                targets = tuple(v.uid for v in g.units.values() if v.player != u.player)[:1] if kind == "charge" else ()
                assert positions.move_discs(g, u, kind, targets) == ref.move_discs(g, u, kind, targets), (u.uid, kind)
    play(spec, check)


def _anchors(g: Game, u, offsets) -> list[tuple[float, float]]:
    """Points around the unit, and beside other units (where their discs are in the way)."""
    near = [v.models[0] for v in g.units.values() if v is not u and v.where == "board" and v.models][:3]
    return [(round(m.x + dx, 2), round(m.y + dy, 2)) for m in [u.models[0]] + near
            for dx, dy in [(0.0, 0.0)] + offsets]


@settings(max_examples=10, deadline=None)
@given(games(), st.lists(st.tuples(st.floats(-4, 4), st.floats(-4, 4)), min_size=1, max_size=3))
def test_formations_are_their_plain_reference(spec, offsets):
    def check(g: Game) -> None:
        for u in g.units.values():
            if u.where != "board" or not u.models:
                continue
            n = len(u.models)
            others = positions.others_bases(g, u)
            for anchor in _anchors(g, u, offsets)[:8]:  # its own and one other unit's
                for kind in ("normal", "charge"):
                    discs = positions.move_discs(g, u, kind)
                    assert positions.formation(g, u, anchor, n, discs=discs) == ref.formation(g, u, anchor, n, discs=discs)
                assert positions.formation(g, u, anchor, n, avoid=others, enemy_gap=None) == \
                    ref.formation(g, u, anchor, n, avoid=others, enemy_gap=None)
                assert positions.formation(g, u, anchor, n, ds_gap=9.0) == ref.formation(g, u, anchor, n, ds_gap=9.0)
    play(spec, check, every=19)  # the plain reference is slow: a sample of the decisions


@settings(max_examples=10, deadline=None)
@given(games(), st.lists(st.tuples(st.floats(-9, 9), st.floats(-9, 9)), min_size=1, max_size=3),
       st.sampled_from([3.0, 6.0, 12.0, float("inf")]))
def test_kept_move_paths_are_the_battlefields(spec, offsets, within):
    def check(g: Game) -> None:
        for u in g.units.values():
            if u.where != "board" or not u.models:
                continue
            discs = positions.move_discs(g, u, "normal")
            for to in _anchors(g, u, offsets):
                if g.bf.layout.board_at(to) is None:
                    continue  # (off the battlefield)
                for m in u.models[:2]:
                    for d in (discs, ()):
                        for w in (1.5, within):
                            assert positions.move_path(g, m.base, to, d, w) == g.bf.move_path(m.base, to, d, w)
    play(spec, check, every=13)


@settings(max_examples=6, deadline=None)
@given(games(), st.lists(st.tuples(st.floats(-9, 9), st.floats(-9, 9)), min_size=1, max_size=2),
       st.sampled_from([3.0, 6.0, 10.0]))
def test_move_plans_are_their_plain_reference(spec, offsets, limit):
    """A move's plan (kept across moves and games on where every model stands, which are
    enemies, and the Hatchways) is the one worked out afresh, for each kind of move."""
    def check(g: Game) -> None:
        for u in g.units.values():
            if u.where != "board" or not u.models:
                continue
            for to in _anchors(g, u, offsets)[:4]:
                if g.bf.layout.board_at(to) is None:
                    continue  # (off the battlefield)
                for kind in ("normal", "advance", "fallback"):
                    reach, pts = movement.plan_move(g, u, to, limit, kind)
                    assert (reach, pts) == ref.plan_move(g, u, to, limit, kind), (u.uid, to, kind)
    play(spec, check, every=13)


@settings(max_examples=8, deadline=None)
@given(games())
def test_hatch_options_are_their_plain_reference(spec):
    """The Hatchways a player's units may operate (the far ones passed over by the box of each
    unit's bases) are those every model is measured for, along games."""
    from bagm.engine.game import hatchways

    def check(g: Game) -> None:
        for p in ("A", "B"):
            for breachers in (False, True):
                assert hatchways.hatch_options(g, p, breachers) == ref.hatch_options(g, p, breachers)
    play(spec, check, every=3)


@settings(max_examples=6, deadline=None)
@given(games())
def test_placements_number_positions(spec):
    """The number a plan's key gives each unit's placement (kept on its stamp, the same in
    every game of the process): equal numbers for equal positions, never for others, as units
    move, fall and arrive along games."""
    from bagm.engine.game import kept

    numbers: dict[tuple[float, ...], int] = {}
    places: dict[int, tuple[float, ...]] = {}

    def check(g: Game) -> None:
        for u in g.units.values():
            where, n = kept.positions(u), kept.placement(g, u)
            assert numbers.setdefault(where, n) == n, u.uid
            assert places.setdefault(n, where) == where, u.uid
    play(spec, check, every=5)


@settings(max_examples=5, deadline=None)
@given(games())
def test_control_levels_are_their_plain_reference(spec):
    """The Levels of Control Objective Control reads (kept until anything moves or the OC of a
    unit within range of a marker changes) are those worked out afresh, along games, and again
    after each unit's Battle-shock is turned over on a copy (it changes OC and moves nothing)."""
    def check(g: Game) -> None:
        assert control.control_levels(g) == ref.levels_of_control(g)
        c = g.clone()
        for u in c.units.values():
            if u.alive:
                u.battleshocked = not u.battleshocked
                assert control.control_levels(c) == ref.levels_of_control(c), u.uid
    play(spec, check, every=7)


@settings(max_examples=8, deadline=None)
@given(games())
def test_engagements_are_their_plain_reference(spec):
    """The enemy units within Engagement Range of each unit (kept until anything on the
    battlefield changes, each pair's answer on both units' stamps and the Hatchways) are those
    measured afresh, along games."""
    def check(g: Game) -> None:
        for u in g.units.values():
            assert positions.engaged_with(g, u) == ref.engaged_with(g, u), u.uid
    play(spec, check, every=3)


@settings(max_examples=6, deadline=None)
@given(games())
def test_battlefield_command_uses_are_their_plain_reference(spec):
    """The Battlefield Command uses open to each player (kept on the units' flags and stamps, the
    CP and Peerless Leader) are those worked out afresh, along games, and again after each
    unit's Battle-shock and Battlefield Command mark are turned over on a copy."""
    def check(g: Game) -> None:
        for p in ("A", "B"):
            assert leaders.legal_command(g, p) == ref_moments.legal_command(g, p)
        c = g.clone()
        for u in c.units.values():
            u.battleshocked = not u.battleshocked
            for p in ("A", "B"):
                assert leaders.legal_command(c, p) == ref_moments.legal_command(c, p), u.uid
            u.commanded = not u.commanded
            for p in ("A", "B"):
                assert leaders.legal_command(c, p) == ref_moments.legal_command(c, p), u.uid
    play(spec, check, every=5)


@settings(max_examples=10, deadline=None)
@given(games())
def test_effect_answers_are_their_plain_references(spec):
    """Along a game: the objective markers each unit is within range of (kept on its stamp, read by
    the effect conditions 'near_objective' and 'near_controlled', the markers Secure Site may
    select and the marker a rule would Secure at once), the rules offered at each moment (kept by timing), the attack sequence's lookups
    under the game's conditions (reading every effect: reference/effects.plain) and whether an
    army's units may have a field set (Army.may_set, kept while their effects stay the same)."""
    fields = sorted({f for u in _army("A", spec[0]).units + _army("B", spec[1]).units
                     for _, e in u.standing for f in fields_set(e)} | {"mark_again", "miracle_dice", "raid_pain"})

    def check(g: Game) -> None:
        holds = holds_in(g)
        on = [u for u in g.units.values() if u.where == "board" and u.models]
        for u in g.units.values():
            assert control.near_markers(g, u) == ref.near_markers(g, u), u.uid
            if u.alive:
                assert shooting.secure_markers(g, u) == ref.secure_markers(g, u), u.uid
                for how in ("controlled", "uncontested"):
                    assert control.marker_to_secure(g, u, how) == ref.marker_to_secure(g, u, how), (u.uid, how)
        for u in on:
            for t in on[:4]:
                if t.player == u.player:
                    continue
                for w in u.ranged[:1] + u.melee[:1]:
                    w2 = effect_weapon(u, w, t, holds)
                    kept = (w2, effect_conditions(u, t, w2, Conditions(), holds), effect_defence(t, w2, holds))
                    with ref_effects.plainly(u, t):
                        w3 = effect_weapon(u, w, t, holds)
                        assert kept == (w3, effect_conditions(u, t, w3, Conditions(), holds),
                                        effect_defence(t, w3, holds))
        for p in ("A", "B"):
            for timing in TIMINGS:
                assert list(moments.offered(g, p, timing)) == ref_moments.offered(g, p, timing), (p, timing)
        for army in g.armies.values():
            for f in fields:
                assert army.may_set(f) == ref_effects.may_set(army, f), f
    play(spec, check, every=9)


@settings(max_examples=8, deadline=None)
@given(games())
def test_visible_models_are_their_plain_reference(spec):
    """The models of each enemy unit a unit sees (kept across moves and games on both units'
    positions, the Hatchways and the models near them; a pair the Walls alone hide kept on the
    two units' positions) are those worked out pair of bases by pair of bases, along games, asked
    twice (the second time from what was kept)."""
    def check(g: Game) -> None:
        on = [u for u in g.units.values() if u.where == "board" and u.models]
        for u in on:
            for t in on:
                if t.player != u.player:
                    want = ref_sight.visible_models(g, u, t)
                    assert sight.visible_idx(g, u, t) == want, (u.uid, t.uid)
                    assert sight.visible_idx(g, u, t) == want, (u.uid, t.uid)
    play(spec, check, every=9)


def test_a_unit_across_a_closed_hatchway_sees_with_the_models_on_the_targets_side():
    """The quick proof that a unit sees none of another (one Wall line across every line
    between the discs holding each unit) holds only for a line reaching into neither disc: a
    unit with models on both sides of a closed Hatchway (the 2023 rules let it be closed so)
    sees an enemy unit with the model on its side, as the plain reference finds pair by pair."""
    from conftest import place

    from bagm.chance.dice import Dice
    from bagm.engine.state.actions import parse

    g = Game(11, _army("A", "grey_knights_void_purge_force").clone(), _army("B", "orks_kaptin_killers").clone(),
             dice=Dice.scripted([]), rolloffs={"attacker": "A", "first_turn": "A"})
    for t in ["role attacker", "deploy B3 2", "deploy A3 2", "deploy B1 2", "deploy A1 2", "deploy B4 3",
              "deploy A4 3", "deploy B2 1", "deploy A5 1"]:
        g.apply(parse(t))
    h = g.map.layout.hatchways[1]  # a closed Hatchway in a Wall running north-south
    assert not g.bf.is_open(h.index) and not h.horizontal
    x, y = h.centre
    place(g, "A3", [(x - 0.9, y), (x + 0.9, y)])  # one model on each side of the Hatch
    place(g, "B3", [(x + 6.0, y)])  # east of it, in the open
    a3, b3 = g.units["A3"], g.units["B3"]
    assert ref_sight.visible_models(g, a3, b3) == [0]  # the eastern model sees it
    assert sight.visible_idx(g, a3, b3) == [0]
    assert ref_sight.visible_models(g, b3, a3) == [1] == sight.visible_idx(g, b3, a3)


def test_the_fields_the_bot_prices_are_told_apart():
    """Every field the greedy bot's pricing reads (``PRICED``) has a "nothing" default, so
    ``fields_set`` lists it on every effect that sets it: a rule it skips sets none of them."""
    from dataclasses import MISSING, fields

    from bagm.data.models import Effect

    defaults = {f.name: f.default if f.default is not MISSING else f.default_factory()  # type: ignore[misc]
                for f in fields(Effect)}
    assert PRICED <= set(defaults)
    assert all(not defaults[n] for n in PRICED)


@settings(max_examples=8, deadline=None)
@given(games())
def test_the_bots_pricing_of_rules_is_its_plain_reference(spec):
    """Along games: what using each rule of an army adds for each of its units (the greedy bot's
    ``use_gain``, which skips rules setting no field it reads and keeps each unit's figure
    without across the alternatives of a decision) is the figure worked out afresh."""
    bot = make_bot("greedy", 0)

    def check(g: Game) -> None:
        for p in ("A", "B"):
            for fight in (False, True):
                base: dict = {}
                for s in g.armies[p].uses:
                    for u in g.army_units(p)[:3]:
                        want = ref_uses.use_gain(bot, g, s, u, fight)
                        assert use_gain(bot, g, s, u, fight) == want, (s.name, u.uid, fight)
                        assert use_gain(bot, g, s, u, fight, base) == want, (s.name, u.uid, fight)
    play(spec, check, every=9)


@settings(max_examples=8, deadline=None)
@given(games())
@example(("grey_knights_void_purge_force", "orks_kaptin_killers", 11, 1001, True))  # Waaagh!
def test_the_bots_calls_for_the_army_are_their_plain_reference(spec):
    """Along games: whether the greedy bot would make each once-per-battle call of an army now
    (Waaagh!: once a unit it covers is within 12" of an enemy unit; bounding boxes more than 12"
    apart refuse a pair at once) is the answer with every pair measured."""
    def check(g: Game) -> None:
        for p in ("A", "B"):
            for s in g.armies[p].uses:
                assert call_now(g, s, p) == ref_uses.call_now(g, s, p), s.name
    play(spec, check, every=3)
