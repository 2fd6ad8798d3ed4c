"""Game.clone and pickling mid-battle: a clone is the same game (same decision, same future
for the same actions) and independent of the original; a pickled game loads as the same game.

Clones are made at every kind of decision: at the top of a step's loop (a copy of the state)
and in the middle of resolving something (a replay of the actions)."""

from __future__ import annotations

import dataclasses
import pickle
import random
from functools import cache

import pytest
from conftest import REPO

from bagm.engine.game import snapshot
from bagm.engine.game.muster import build_army
from bagm.engine.game.sequence import Game
from bagm.engine.game.state import KINDS, GameState

PAIRS = [("grey_knights_void_purge_force", "orks_kaptin_killers"),
         ("necrons_harbinger_cabal", "adeptus_astartes_boarding_strike")]


@cache
def _army(player: str, name: str):
    return build_army(player, REPO / "rosters" / f"{name}.yaml")


def new_game(pair: tuple[str, str], seed: int) -> Game:
    a, b = pair
    return Game(11, _army("A", a).clone(), _army("B", b).clone(), seed=seed)


def step(g: Game, rng: random.Random) -> None:
    g.apply(rng.choice(g.legal_actions()))


def fingerprint(g: Game) -> tuple:
    """Everything a player can see of a game: its log, decision, legal actions and units."""
    units = tuple((u.uid, u.where, tuple((m.x, m.y, m.wounds) for m in u.models), u.battleshocked)
                  for u in g.units.values())
    return (len(g.events), g.events[-1], g.decision, tuple(a.text() for a in g.legal_actions()),
            dict(g.cp), dict(g.vp), g.round, g.turn, g.phase, units, g.bf.closed_mask)


def play_on(g: Game, seed: int, n: int) -> list:
    """``n`` more random actions (or to the end): the events they caused."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        if g.decision.step == "over":
            break
        out += g.apply(rng.choice(g.legal_actions()))
    return out


@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("seed", [1, 2])
def test_clone_is_the_same_game_at_every_kind_of_decision(pair, seed):
    g = new_game(pair, seed)
    rng = random.Random(seed)
    seen = {True: 0, False: 0}
    i = 0
    while g.decision.step != "over":
        # a clone every few actions (every action at a mid-resolution decision, rarer there)
        if i % 7 == 0 or not g.resumable:
            c = g.clone()
            assert c is not g
            assert fingerprint(c) == fingerprint(g)
            seen[g.resumable] += 1
            if i % 21 == 0:  # the same future for the same actions
                before = fingerprint(g)
                assert play_on(c, i, 12) == play_on(g.clone(), i, 12)
                assert fingerprint(g) == before  # playing the clones left the original alone
        step(g, rng)
        i += 1
    assert seen[True] > 10 and seen[False] > 0  # both ways of cloning were exercised
    c = g.clone()
    assert c.finished and c.winner == g.winner and c.events == g.events


def test_a_whole_game_played_from_clones_is_the_game():
    """Cloning at every decision and going on with the clone gives, action for action, the
    events of the game played without clones."""
    pair, seed = PAIRS[0], 5
    plain = new_game(pair, seed)
    play_on(plain, 99, 10_000)
    g = new_game(pair, seed)
    rng = random.Random(99)
    while g.decision.step != "over":
        g = g.clone()
        step(g, rng)
    assert g.events == plain.events


def test_clone_holds_no_mutable_object_of_the_original():
    g = new_game(PAIRS[1], 3)
    play_on(g, 3, 150)
    while not g.resumable:
        play_on(g, 4, 1)
    c = g.clone()
    for k, v in vars(c).items():
        if k in snapshot.SHARED or isinstance(v, (int, float, str, tuple, frozenset, type(None))):
            continue
        assert v is not vars(g)[k], f"clone shares {k}"
    for uid, u in c.units.items():
        assert u is not g.units[uid] and u.models is not g.units[uid].models
        assert all(m is not n for m, n in zip(u.models, g.units[uid].models))
    assert c.dice is not g.dice and c.dice.d6() == g.dice.d6()  # the same dice from here on


def test_every_attribute_of_a_game_is_classed_for_cloning():
    """A new attribute of Game must be a field of GameState (state.py), which says how a copy
    treats it (copied, shared, or a cache), or a clone would share it with the original; and
    every field is set when a game starts."""
    g = new_game(PAIRS[0], 1)
    play_on(g, 1, 80)
    declared = {f.name for f in dataclasses.fields(GameState)}
    missing = set(vars(g)) - declared
    assert not missing, f"attributes of Game that are not fields of GameState: {sorted(missing)}"
    assert declared == snapshot.ALL
    fresh = new_game(PAIRS[0], 1)
    assert declared <= set(vars(fresh)), sorted(declared - set(vars(fresh)))
    assert all(f.metadata["copy"] in KINDS for f in dataclasses.fields(GameState))


@pytest.mark.parametrize("resumable", [True, False])
def test_pickle_mid_battle(resumable):
    # the first game (from seed 7 on) that comes to such a decision after 120 actions (a game
    # may end first: the loop stops there and tries the next)
    for seed in range(7, 40):
        g = new_game(PAIRS[0], seed)
        play_on(g, seed, 120)
        k = 8
        while g.resumable != resumable and g.decision.step != "over":
            play_on(g, k, 1)
            k += 1
        if g.resumable == resumable and g.decision.step != "over":
            break
    assert g.resumable == resumable and g.decision.step != "over"
    loaded = pickle.loads(pickle.dumps(g))
    assert fingerprint(loaded) == fingerprint(g)
    assert play_on(loaded, 9, 40) == play_on(g, 9, 40)


def test_clone_of_a_scripted_game_keeps_the_script():
    """A game played with scripted dice: a clone rolls the scripted results still queued."""
    from bagm.chance.dice import Dice

    a, b = PAIRS[0]
    dice = Dice(4)
    g = Game(11, _army("A", a).clone(), _army("B", b).clone(), seed=4, dice=dice)
    play_on(g, 4, 30)
    g.dice.feed([6, 6, 1])
    c = g.clone()
    assert c.dice.pending == (6, 6, 1) and g.dice.pending == (6, 6, 1)
    c.dice.d6()
    assert g.dice.pending == (6, 6, 1)
