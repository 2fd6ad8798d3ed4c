"""A fleet file: the user's ships by name, so that a command can say ``-a Plagueclaw``.

The rules text has no ship statistics, so bagm ships none; a player who tracks a battle writes
their ships once (YAML, read safely, errors with file and line)::

    # turn 3
    ships:
      Plagueclaw: {damage: 6, race: chaos, mark: nurgle}
      Hyperion:
        damage: 3
        turrets: 2

and passes ``--fleet FILE``; ``-d Hyperion,damage=2`` takes the Hyperion and changes its damage.
"""

from __future__ import annotations

from pathlib import Path

from bagm.bfg.ships import SHIP_KEYS, BfgError, Fleet, make_ship
from bagm.bfg.tables import read_one_mapping
from bagm.io.yamlsafe import InputError

HINT = "write 'ships:' then one 'NAME: {damage: N, turrets: N, race: chaos, ...}' per ship"


def load_fleet(path: Path | str) -> Fleet:
    """Ship name -> its fields, each ship checked as a spec would be."""
    doc, name, ships = read_one_mapping(path, "ships", "mapping", HINT)
    if not isinstance(ships, dict) or not ships:
        raise InputError(name, "'ships' must map ship names to their values",
                         line=doc.line(("ships",)), hint=HINT)
    out: Fleet = {}
    for ship, values in ships.items():
        line = doc.line(("ships", ship))
        if not isinstance(values, dict):
            raise InputError(name, f"ship '{ship}': give its values as a mapping", line=line,
                             hint="e.g. Hyperion: {damage: 3, turrets: 2}")
        fields: dict[str, str] = {"name": str(ship)}
        for key, value in values.items():
            k = str(key).lower().replace("_", "-")
            at = doc.line(("ships", ship, key))
            if k not in SHIP_KEYS or k == "name":
                raise InputError(name, f"ship '{ship}': unknown key '{key}'", line=at,
                                 hint="keys: " + ", ".join(sorted(SHIP_KEYS - {"name"})))
            if isinstance(value, bool):
                value = "yes" if value else "no"
            if value is None or isinstance(value, (dict, list)):
                raise InputError(name, f"ship '{ship}': '{key}' needs a value", line=at)
            fields[k] = str(value)
        try:
            make_ship(fields, str(ship), "ship")
        except BfgError as exc:
            raise InputError(name, str(exc), line=line) from None
        out[str(ship)] = fields
    return out
