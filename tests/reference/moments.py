"""Plain references of the rules used at a moment offered now (:meth:`bagm.engine.game.moments.
Moments.offered`): every rule of the army looked at, every time (the game keeps them by timing);
and of the Battlefield Command uses open at a window (:meth:`bagm.engine.rules.leaders.LeaderRules.
legal_command`, kept on the units' flags and stamps): worked out every time."""

from __future__ import annotations

from typing import Any

from bagm.engine.rules import leaders
from bagm.engine.rules.leaders import COMMAND_RANGE, modelled_abilities
from bagm.engine.rules.stratagems import BATTLEFIELD_COMMAND, affects, card, may_use
from bagm.engine.state.actions import Action


def offered(g: Any, p: str, timing: str) -> list[Any]:
    """Player ``p``'s rules used at a moment whose WHEN is ``timing`` now (phase and turn)."""
    out = []
    yours = g.active == p
    for s in g.armies[p].uses:
        when = s.when
        if when == "your_shooting":  # offered at the start of your Shooting phase
            if timing != "phase_start" or g.phase != "shooting" or not yours:
                continue
        elif when != timing and not (when == "phase_start_or_end" and timing in ("phase_start", "phase_end")):
            continue
        if s.phase is not None and s.phase != g.phase:
            continue
        if s.turn == "yours" and not yours or s.turn == "opponents" and yours or s.first_round and g.round != 1:
            continue
        out.append(s)
    return out


def legal_command(g: Any, p: str) -> list[Any]:
    """Player ``p``'s Battlefield Command uses now: each Leader on the battlefield that can be
    targeted (not targeted since its last Command phase where the card says so, not
    Battle-shocked unless the edition allows) with a paid use open or Peerless Leader free this
    round, each unit it could lead within 6" of it (measured around Walls, model to model) that can
    be targeted as a Bodyguard, each of its modelled abilities."""
    c = card(g, BATTLEFIELD_COMMAND)

    def may_target(u: Any, leader: bool) -> bool:
        return not (u.commanded and (c.once_until_command or not leader)) and affects(g, c, u)

    paid = may_use(g, p, BATTLEFIELD_COMMAND)
    out = []
    for leader in [u for u in g.armies[p].units if modelled_abilities(u.datasheet)]:  # (every Leader)
        if not (leader.alive and may_target(leader, True) and (paid or leaders.peerless_free(g, leader))):
            continue
        keys = leader.datasheet.leader.bodyguard_keys
        for b in g.army_units(p):
            if b is leader or b.datasheet.key not in keys or not may_target(b, False):
                continue
            if min(g.bf.distance(m.base, n.base) for m in leader.models for n in b.models) <= COMMAND_RANGE:
                out += [Action("command", leader.uid, target=b.uid, arg=a.name)
                        for a in modelled_abilities(leader.datasheet)]
    return out
