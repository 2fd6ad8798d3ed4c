"""Reading BattleScribe catalogues (``.cat`` / ``.gst``) and filling data packs from them.

BattleScribe data (the community BSData ``wh40k-10e`` set, also read by New Recruit) is XML: a
game system file (``.gst``) and one catalogue per faction (``.cat``), which imports library
catalogues through ``catalogueLink``. A datasheet is a ``selectionEntry`` of type ``unit`` or
``model``; its characteristics are ``profile`` elements (``typeName`` "Unit", "Ranged Weapons",
"Melee Weapons", "Abilities"), often reached through ``entryLink`` / ``infoLink`` references to
shared entries defined in another file.

This module takes *facts* only: names, numbers and keywords. Ability and rule descriptions are
never copied; an invulnerable save is read as a number and nothing else.

Security: the files are parsed with ``defusedxml`` (imported lazily), so entity declarations
(entity-expansion "billion laughs" bombs) and external entities / DTDs are refused with a
:class:`CatalogueError`; oversized files and zip archives are refused too.

The package, one module a concern: :mod:`~bagm.io.bsdata.xmlfile` (safe XML loading),
:mod:`~bagm.io.bsdata.links` (catalogue links), :mod:`~bagm.io.bsdata.values` (value parsing),
:mod:`~bagm.io.bsdata.conditions` and :mod:`~bagm.io.bsdata.extract` (datasheet extraction),
:mod:`~bagm.io.bsdata.leader` (Leader rules), :mod:`~bagm.io.bsdata.factions` (the faction
table), :mod:`~bagm.io.bsdata.pack` (pack merging), :mod:`~bagm.io.bsdata.yamlout` (writing).

Public API:

- :func:`read_catalogues` -- ``{unit name: unit dict}`` from catalogue files;
- :func:`catalogues_for_faction` -- which catalogue files hold a faction;
- :func:`update_pack` -- fill ``models``, ``weapons``, ``abilities`` and ``leader`` of a faction
  YAML pack;
- :func:`parse_weapon_keywords` -- "Rapid Fire 2, Anti-Infantry 4+" as structured data;
- :func:`leader_data`, :func:`parse_leader_units`, :func:`parse_leader_effects`,
  :func:`is_leader_ability` -- a Leader's Bodyguard units and Leader abilities as effects;
- :class:`CatalogueError`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names for the type checker; at run time each is imported when used
    from bagm.io.bsdata.factions import catalogues_for_faction, factions_for_catalogue
    from bagm.io.bsdata.leader import (
        is_leader_ability,
        leader_data,
        parse_leader_effects,
        parse_leader_units,
    )
    from bagm.io.bsdata.pack import ImportReport, update_pack
    from bagm.io.bsdata.read import read_catalogues
    from bagm.io.bsdata.values import (
        parse_ap,
        parse_dice,
        parse_int,
        parse_range,
        parse_skill,
        parse_weapon_keywords,
    )
    from bagm.io.bsdata.xmlfile import CatalogueError, parse_xml, read_xml_bytes
    from bagm.io.bsdata.yamlout import dump_pack, pack_text, write_pack

# which submodule defines each public name: importing the package costs nothing, and reading a
# roster (bagm.io.ros, through xmlfile) never loads the catalogue importer's modules
_HOMES = {
    "catalogues_for_faction": "factions", "factions_for_catalogue": "factions",
    "is_leader_ability": "leader", "leader_data": "leader", "parse_leader_effects": "leader",
    "parse_leader_units": "leader", "ImportReport": "pack", "update_pack": "pack",
    "read_catalogues": "read", "parse_ap": "values", "parse_dice": "values", "parse_int": "values",
    "parse_range": "values", "parse_skill": "values", "parse_weapon_keywords": "values",
    "CatalogueError": "xmlfile", "parse_xml": "xmlfile", "read_xml_bytes": "xmlfile",
    "dump_pack": "yamlout", "pack_text": "yamlout", "write_pack": "yamlout",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # once: later uses are plain lookups
    return value


__all__ = [
    "CatalogueError",
    "ImportReport",
    "catalogues_for_faction",
    "dump_pack",
    "pack_text",
    "factions_for_catalogue",
    "is_leader_ability",
    "leader_data",
    "parse_ap",
    "parse_dice",
    "parse_int",
    "parse_leader_effects",
    "parse_leader_units",
    "parse_range",
    "parse_skill",
    "parse_weapon_keywords",
    "parse_xml",
    "read_catalogues",
    "read_xml_bytes",
    "update_pack",
    "write_pack",
]
