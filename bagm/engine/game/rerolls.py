"""Re-rolls offered just after a roll: Command Re-roll (Core Stratagem: 1CP, once per phase,
never for a Battle-shocked unit) and the free re-rolls an effect gives ("you can re-roll Charge
rolls made for that unit"); a dice is re-rolled once at most."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from bagm.engine.rules.stratagems import COMMAND_REROLL, may_use, use
from bagm.engine.state.actions import Action
from bagm.engine.state.army import Unit
from bagm.engine.state.core import Decision, Player

if TYPE_CHECKING:
    from bagm.engine.game.interface import GameInterface
else:
    GameInterface = object  # the declared interface, checked by mypy only (see interface.py)


class Rerolls(GameInterface):
    """Mixed into :class:`bagm.engine.game.Game` (its state lives there)."""

    def _command_reroll(self, p: Player, u: Unit, info: dict[str, Any]) -> Generator[Decision, Action, bool]:
        """Command Re-roll (1CP, once per phase, never for a Battle-shocked unit), offered just
        after a roll of ``u``; True when the player re-rolls (the CP is then spent)."""
        if not self._may_reroll(p, u):
            return False
        act = yield Decision("reroll", p, {"unit": u.uid, **info})
        if act.kind != "reroll":
            return False
        use(self, p, COMMAND_REROLL, unit=u)
        return True

    def _may_reroll(self, p: Player, u: Unit) -> bool:
        """Command Re-roll could be used now on a roll of ``u`` (Stratagems: once per phase,
        1CP; Battle-shock: never on a Battle-shocked unit)."""
        return may_use(self, p, COMMAND_REROLL, u)

    def _effect_reroll(self, p: Player, u: Unit, field: str, info: dict[str, Any]) -> Generator[Decision, Action, bool]:
        """A re-roll an effect ``field`` gives (a conferred Leader ability's or a standing
        rule's: "you can re-roll Charge rolls made for that unit"), offered just after the roll in place of Command Re-roll (a dice is re-rolled
        once at most): free, and Battle-shock does not stop it (no Stratagem is used). True when
        the player re-rolls."""
        act = yield Decision("reroll", p, {"unit": u.uid, "free": True, **info})
        if act.kind != "reroll":
            return False
        self.emit("leader_reroll", unit=u.uid, ability=u.source(field), what=info.get("what", "charge"))
        return True
