"""Reading catalogue files: every datasheet of the given files (and of those they import), by
name, with the notes the extraction made."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from bagm.io.bsdata.extract import Extractor, Node
from bagm.io.bsdata.links import Catalogue, Library, child_elements


@dataclass
class Units:
    units: dict[str, dict[str, Any]]
    sources: dict[str, str]  # unit name -> catalogue name
    notes: dict[str, list[str]]
    warnings: list[str]
    catalogues: list[str]


def read_units(paths: Iterable[str | os.PathLike[str]]) -> Units:
    lib = Library()
    primaries = lib.load_with_links(Path(p) for p in paths)
    ex = Extractor(lib)
    units: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    notes: dict[str, list[str]] = {}

    def roots(cat: Catalogue, seen: set[Path]) -> Iterator[tuple[Node, Catalogue]]:
        if cat.path in seen:
            return
        seen.add(cat.path)
        for el in list(child_elements(cat.root, "selectionEntries", "selectionEntry")) + \
                list(child_elements(cat.root, "entryLinks", "entryLink")):
            node = ex._resolve(el)
            if node is not None and node.target.tag == "selectionEntry" \
                    and node.target.get("type") in ("unit", "model"):
                yield node, cat

    def imported(cat: Catalogue, seen: set[Path]) -> Iterator[tuple[Node, Catalogue]]:
        for target, name, import_root in cat.links:
            if not import_root:
                continue
            found = lib.locate(cat.path.parent, target, name)
            sub = lib.cats.get(found.resolve()) if found is not None else None
            if sub is not None and sub.path not in seen:
                yield from roots(sub, seen)
                yield from imported(sub, seen)

    seen: set[Path] = set()
    ordered: list[tuple[Node, Catalogue]] = []
    for cat in primaries:  # the given files' own datasheets first, in the order given
        ordered.extend(roots(cat, seen))
    for cat in primaries:  # then those they import with importRootEntries
        ordered.extend(imported(cat, seen))
    done: set[int] = set()
    for node, cat in ordered:
        if id(node.target) in done:
            continue
        done.add(id(node.target))
        name = node.name
        if not name or name in units:
            continue
        unit, found_notes = ex.unit(node)
        units[name] = unit
        sources[name] = cat.name
        if found_notes:
            notes[name] = found_notes
    return Units(units, sources, notes, lib.warnings, [c.path.name for c in lib.order])


def read_catalogues(paths: Iterable[str | os.PathLike[str]]) -> dict[str, dict[str, Any]]:
    """Every datasheet of the given catalogue files, by name.

    Linked catalogues (``catalogueLink``) and the game system are loaded from the same folder
    to resolve shared entries. Datasheets come from the given files' root entries first (the
    first file wins a name clash), then from catalogues they import with ``importRootEntries``.
    Each value has ``name``, ``keywords``, ``faction_keywords``, ``models``, ``weapons`` and
    ``abilities`` in the :class:`bagm.data.models.Datasheet` format (add ``points`` to validate
    one as a whole Datasheet).
    """
    return read_units(paths).units
