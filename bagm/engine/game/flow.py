"""The mission sequence as data: a program of named steps, and a position in it.

A game is a state plus a program counter. :func:`program` lists the steps of a mission in
book order (Muster Boarding Patrol ... five battle rounds of two turns of five phases ...
Determine Victor); :class:`Game` runs the step at ``pc``, then the next. A step is a function
of the game (a phase's, or a method of Game for the sequence's own steps) that may ask for
decisions (a generator) or not (a plain function returning None).

Why a program and not one generator for the whole game: a step starts again from the state
alone. The steps that loop over a player's choices ("move a unit or end the Move Units step")
ask through :meth:`Game.ask`, at the top of their loop, with nothing done since the step began
but reading the state; so a game waiting at such a decision is fully described by its state and
``pc``, and :meth:`Game.clone` copies the state and starts the step again (cheap). A decision
asked in the middle of resolving something (a Command Re-roll offer in an attack, a Set
Overwatch window after a move) is not such a point; a clone made there replays the game's
actions from its start (see :mod:`bagm.engine.game.snapshot`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bagm.engine.game import (
    armyrules,
    charge,
    command,
    deployment,
    fight,
    hatchways,
    movement,
    reinforcements,
    shooting,
)
from bagm.engine.rules import leaders
from bagm.engine.state.core import Decision

# a step: a function of the game (a phase's) or the name of a method of Game (the sequence's own)
StepFunction = str | Callable[..., Iterator[Decision] | None]


@dataclass(frozen=True)
class Step:
    """One step of the mission sequence: its name (as the book calls it), the function of the
    game that plays it and that function's arguments (after the game)."""

    name: str
    run: Callable[..., Iterator[Decision] | None]
    args: tuple[Any, ...] = ()


def _phase(name: str, *steps: tuple[str, StepFunction]) -> list[tuple[str, StepFunction, tuple[Any, ...]]]:
    """A phase: its start, its own steps, its end; Battlefield Command ("WHEN: Start or end of
    any phase") and supplied Stratagems of those moments have a window at both."""
    out: list[tuple[str, StepFunction, tuple[Any, ...]]] = [(f"{name} phase", "_new_phase", (name,))]
    out.append(("start of the phase", leaders._battlefield_command, ("start",)))
    out += [(label, method, ()) for label, method in steps]
    out.append(("end of the phase", leaders._battlefield_command, ("end",)))
    return out


def _turn() -> list[tuple[str, StepFunction, tuple[Any, ...]]]:
    return (
        _phase("command", ("marks at the start of the Command phase", armyrules._command_marks),
               ("Command step", command._command_step), ("Battle-shock step", command._battleshock_step),
               ("end of the Command phase", "_end_command_phase"))
        + _phase("movement", ("Move Units", movement._move_units), ("Operating Hatchways", hatchways._operate_hatchways),
                 ("Reinforcements", reinforcements._reinforcements))
        + _phase("shooting", ("Tactical Manoeuvres", shooting._manoeuvres), ("shoot", shooting._shoot_units))
        + _phase("charge", ("charge", charge._charging))
        + _phase("fight", ("rules at the start of the Fight phase", armyrules._fight_start_rules), ("fight", fight._fights))
        + [("end of turn", "end_turn", ())]
    )


_PROGRAMS: dict[tuple[type, int], tuple[Step, ...]] = {}


def program(game_class: type, rounds: int) -> tuple[Step, ...]:
    """The steps of a mission of ``rounds`` battle rounds, for ``game_class`` (whose methods play
    the sequence's own steps; the phases' functions play theirs). The same tuple serves every
    game of that length."""
    got = _PROGRAMS.get((game_class, rounds))
    if got is None:
        got = _PROGRAMS[(game_class, rounds)] = _program(game_class, rounds)
    return got


def _program(game_class: type, rounds: int) -> tuple[Step, ...]:
    out: list[tuple[str, StepFunction, tuple[Any, ...]]] = [
        ("Muster Boarding Patrol", "_muster", ()),  # steps 1-5
        ("Determine Attacker and Defender", "_roles", ()),  # step 6
        ("start of Deploy Armies", "_start_deploy", ()),  # Mission Rules there (Guard Duty)
        ("Deploy Armies", deployment._deploy_armies, ()),  # step 7
        ("Determine Reserves", deployment._determine_reserves, ()),  # step 8
        ("Determine First Turn", "_first_turn", ()),  # step 9
    ]
    for rnd in range(1, rounds + 1):
        out.append(("battle round", "_start_round", (rnd,)))
        if rnd == 1:  # effects' Normal moves "at the start of the first battle round"
            out.append(("start of the first battle round", movement._opening_moves, ()))
        for i in (0, 1):
            start = len(out)
            turn = _turn()
            # a turn with nothing to play skips to the step after its end
            out.append(("turn", "_start_turn", (i, start + 1 + len(turn))))
            out += turn
        out.append(("end of the battle round", "_end_round", (rnd,)))
    out.append(("Determine Victor", "_determine_victor", ()))  # step 12
    out.append(("the battle is over", "_over", ()))
    return tuple(Step(name, getattr(game_class, method) if isinstance(method, str) else method, args) for name, method, args in out)
