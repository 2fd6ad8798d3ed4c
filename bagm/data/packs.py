"""Loading data packs: the bundled ones, then ``BAGM_DATA``, then ``--data`` overlays.

Packs load lazily, one faction at a time: a roster of one faction reads one file. Which file
holds which faction is found from its top-level ``faction:`` and ``aliases:`` lines only, so
finding a faction costs a directory listing and a few short reads, not a full parse.

An overlay file with the ``faction`` of a bundled pack is merged into it: units, Detachments and
ability table entries with the same name replace the given keys of the bundled entry (so a user can fix one points
value), new names are added.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from bagm.data.cache import cached
from bagm.data.names import Index, did_you_mean, norm
from bagm.errors import BagmError
from bagm.io.yamlsafe import InputError, load_trusted

_HEADER = re.compile(r"^(faction|aliases):[ \t]*(.*?)[ \t]*(?:#.*)?$", re.MULTILINE)


def bundled_dir() -> Path:
    """The packs shipped with bagm (installed as ``bagm.datasheets``; ``datasheets/`` in a
    source checkout run without installing)."""
    installed = Path(__file__).resolve().parents[1] / "datasheets"
    return installed if installed.is_dir() else Path(__file__).resolve().parents[2] / "datasheets"


def data_dirs(extra: list[Path] | None = None) -> list[Path]:
    """Pack folders in precedence order: bundled, then BAGM_DATA, then ``--data``."""
    dirs = [bundled_dir()]
    env = os.environ.get("BAGM_DATA", "")
    dirs += [Path(p) for p in env.split(os.pathsep) if p]
    dirs += list(extra or [])
    return dirs


def _header(path: Path) -> tuple[str, list[str]] | None:
    """The ``faction`` and ``aliases`` of a pack file, read from its top-level lines (a pack
    that is not UTF-8 is reported in full when its faction is loaded)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096).decode("utf-8", errors="replace")
    except OSError as exc:
        raise InputError(str(path), f"cannot be read: {exc.strerror or exc}") from None
    found = dict((k, v) for k, v in _HEADER.findall(head))
    faction = found.get("faction", "").strip("'\"")
    if not faction:
        return None
    aliases_text = found.get("aliases", "").strip()
    aliases = [a.strip().strip("'\"") for a in aliases_text.strip("[]").split(",") if a.strip()]
    return faction, aliases


class UnitLookupError(BagmError, LookupError):
    """A datasheet name that does not lead to exactly one datasheet; the message says why."""


@dataclass
class Faction:
    """A loaded, validated faction pack with its name indexes."""

    pack: Any  # FactionPack (imported lazily: pydantic is only needed once a pack is loaded)
    files: list[Path]

    @cached_property
    def units(self) -> Index[Any]:
        index: Index[Any] = Index()
        for ds in self.pack.units:
            index.add(ds, ds.name, ds.aliases)
        return index

    @cached_property
    def detachments(self) -> Index[Any]:
        index: Index[Any] = Index()
        for det in self.pack.detachments:
            index.add(det, det.name, det.aliases)
        return index

    @cached_property
    def _allowances(self) -> dict[str, dict[str, Any]]:
        return {d.name: {norm(a.unit): a for a in d.units} for d in self.pack.detachments}

    def allowance(self, detachment: Any, unit: str) -> Any:
        """The Detachment's line for a datasheet, or None when it does not allow it."""
        return self._allowances[detachment.name].get(norm(unit))

    @property
    def name(self) -> str:
        return self.pack.faction


@dataclass
class Catalog:
    """Every pack bagm can see, loaded on demand."""

    dirs: list[Path] = field(default_factory=data_dirs)
    _files: dict[str, list[Path]] | None = None
    _names: dict[str, str] = field(default_factory=dict)
    _loaded: dict[str, Faction] = field(default_factory=dict)
    _core: Any = None
    _elsewhere: dict[str, list[str]] | None = None
    _abilities: dict[str, Any] = field(default_factory=dict)

    def _scan(self) -> dict[str, list[Path]]:
        if self._files is None:
            files: dict[str, list[Path]] = {}
            for d in self.dirs:
                if not d.is_dir():
                    raise InputError(str(d), "data folder does not exist",
                                     hint="check --data and BAGM_DATA")
                for path in sorted(d.glob("*.yaml")):
                    if not path.is_file():  # a folder, pipe or device named *.yaml: no pack
                        continue
                    head = _header(path)
                    if head is None:
                        continue
                    faction, aliases = head
                    key = norm(faction)
                    files.setdefault(key, []).append(path)
                    self._names.setdefault(key, faction)
                    for alias in aliases:
                        self._names.setdefault("alias:" + norm(alias), faction)
            self._files = files
        return self._files

    def faction_names(self) -> list[str]:
        return [self._names[k] for k in sorted(self._scan())]

    def resolve_faction(self, name: str) -> str | None:
        files = self._scan()
        key = norm(name)
        if key in files:
            return self._names[key]
        return self._names.get("alias:" + key)

    def faction_hint(self, name: str) -> str:
        return did_you_mean(name, self.faction_names())

    def faction(self, name: str) -> Faction | None:
        canonical = self.resolve_faction(name)
        if canonical is None:
            return None
        key = norm(canonical)
        if key not in self._loaded:
            self._loaded[key] = self._load(self._scan()[key])
        return self._loaded[key]

    def all(self) -> list[Faction]:
        return [f for n in self.faction_names() if (f := self.faction(n)) is not None]

    def find_unit(self, name: str, faction: str | None = None) -> tuple[Faction, Any]:
        """The datasheet called ``name`` (or an alias), in ``faction`` or in whichever single
        faction has it; :class:`UnitLookupError` says why not (unknown faction, no such unit
        with a suggestion, or several factions have one of that name)."""
        if faction:
            f = self.faction(faction)
            if f is None:
                hint = self.faction_hint(faction) or "known: " + ", ".join(self.faction_names())
                raise UnitLookupError(f"unknown faction '{faction}'; {hint}")
            ds = f.units.get(name)
            if ds is None:
                hint = f.units.hint(name) or f"see 'bagm units \"{f.name}\"'"
                others = [g.name for g in self.all() if g is not f and g.units.get(name)]
                if others:
                    hint = f"it is a unit of {' and '.join(others)}"
                raise UnitLookupError(f"no unit '{name}' in {f.name}; {hint}")
            return f, ds
        found = [(f, ds) for f in self.all() if (ds := f.units.get(name)) is not None]
        if len(found) == 1:
            return found[0]
        if found:
            names = ", ".join(f.name for f, _ in found)
            raise UnitLookupError(f"'{name}' is a unit of several factions ({names}); "
                                  "give the faction")
        armies = self.elsewhere(name)
        if armies:
            raise UnitLookupError(f"'{name}' is a Warhammer 40,000 datasheet ({' / '.join(armies)}) "
                                  "that no Boarding Actions Detachment includes; bagm has no data "
                                  "for it")
        hint = did_you_mean(name, [n for f in self.all() for n in f.units.names()])
        raise UnitLookupError(f"no unit '{name}' in any faction's Boarding Actions data"
                              + (f"; {hint}" if hint else ""))

    def elsewhere(self, name: str) -> list[str]:
        """The Army Factions whose Warhammer 40,000 datasheet ``name`` is, when no Boarding
        Actions Detachment includes it (``bagm/data/elsewhere.yaml``); [] for a name bagm has
        never heard of. Read only when a roster names a unit no pack has."""
        if self._elsewhere is None:
            path = Path(__file__).with_name("elsewhere.yaml")
            raw = load_trusted(path) if path.is_file() else {}
            table: dict[str, list[str]] = {}
            for faction, names in (raw.get("factions") or {}).items():
                for n in names or []:
                    table.setdefault(norm(str(n)), []).append(str(faction))
            self._elsewhere = table
        return list(self._elsewhere.get(norm(name), []))

    def core(self) -> Any:
        """The universal Boarding Actions Enhancements (``bagm/data/core.yaml``)."""
        if self._core is None:
            path = Path(__file__).with_name("core.yaml")

            def build() -> Any:
                from bagm.data.schema import core_pack

                raw = load_trusted(path)
                try:
                    return core_pack(raw)
                except ValueError as exc:
                    line = _locate([path], raw, getattr(exc, "loc", ()))[1]
                    raise InputError(str(path), f"invalid core data: {exc}", line=line) from None

            self._core = cached([path], build)
        return self._core

    def abilities(self, faction: str | None = None) -> Any:
        """The ability table (:class:`bagm.data.abilities.AbilityTable`) of a faction's units:
        its pack's ``abilities:`` first, then the core abilities."""
        from bagm.data.abilities import AbilityTable

        f = self.faction(faction) if faction else None
        key = norm(f.name) if f is not None else ""
        table = self._abilities.get(key)
        if table is None:
            own = list(f.pack.abilities) if f is not None else []
            table = self._abilities[key] = AbilityTable(own + list(self.core().abilities))
        return table

    @staticmethod
    def _load(paths: list[Path]) -> Faction:
        return Faction(cached(paths, lambda: _validate_pack(paths)), list(paths))


def _validate_pack(paths: list[Path]) -> Any:
    """Merge a pack and its overlays and validate the result (cold path: imports pydantic)."""
    from bagm.data.schema import faction_pack

    merged: dict[str, Any] = {}
    for path in paths:
        raw = load_trusted(path)
        if not isinstance(raw, dict):
            raise InputError(str(path), "a data pack must be a mapping with 'faction' and 'units'")
        merged = merge(merged, raw)
    try:
        return faction_pack(merged)
    except ValueError as exc:
        where, line = _locate(paths, merged, getattr(exc, "loc", ()))
        raise InputError(where, f"invalid data pack: {exc}", line=line,
                         hint="fix the pack or the overlay that changed it") from None


def _locate(paths: list[Path], merged: dict[str, Any], loc: tuple[Any, ...]) -> tuple[str, int | None]:
    """The file (of a pack and its overlays) that holds the value at ``loc`` of the merged pack,
    and its line: the file whose entries reach deepest along ``loc`` (the last such one; list
    items are matched by name, as the merge matches them). All the files, no line, when none
    holds any of it."""
    from bagm.io.yamlsafe import PACK_BYTES, PACK_NODES, load

    best: tuple[int, str, int | None] = (0, ", ".join(map(str, paths)), None)
    for path in paths:
        doc = load(path, max_bytes=PACK_BYTES, max_nodes=PACK_NODES, what="a data pack")
        node_m: Any = merged
        node_f: Any = doc.data
        found: list[Any] = []
        for part in loc:
            if isinstance(part, str) and isinstance(node_f, dict) and isinstance(node_m, dict) \
                    and part in node_f:
                node_m, node_f = node_m.get(part), node_f[part]
                found.append(part)
            elif isinstance(part, int) and isinstance(node_f, list) and isinstance(node_m, list) \
                    and part < len(node_m):
                item = node_m[part]
                name = item.get("name", item.get("unit")) if isinstance(item, dict) else None
                if name is None:  # by place, only where this file's item is the merged one (a list an
                    # overlay replaced is wholly the overlay's: the pack's item there says nothing)
                    j = part if part < len(node_f) and node_f[part] == item else None
                else:
                    j = next((k for k, x in enumerate(node_f) if isinstance(x, dict)
                              and norm(str(x.get("name", x.get("unit", "")))) == norm(str(name))), None)
                if j is None:
                    break
                node_m, node_f = item, node_f[j]
                found.append(j)
            else:
                break
        if found and len(found) >= best[0]:
            best = (len(found), str(path), doc.line(tuple(found)))
    return best[1], best[2]


def _merge_named(base: list[Any], over: list[Any], key: str) -> list[Any]:
    out = [dict(x) if isinstance(x, dict) else x for x in base]
    where = {norm(str(x.get(key, ""))): i for i, x in enumerate(out) if isinstance(x, dict)}
    for item in over:
        if isinstance(item, dict) and norm(str(item.get(key, ""))) in where:
            out[where[norm(str(item[key]))]].update(item)
        else:
            out.append(item)
    return out


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Overlay ``over`` onto ``base``: named units, Detachments and ability table entries merge
    key by key."""
    out = dict(base)
    for key, value in over.items():
        if key in ("units", "detachments", "abilities") and isinstance(value, list) and key in out:
            out[key] = _merge_named(out[key], value, "name")
        elif key in ("notes", "aliases") and isinstance(value, list) and key in out:
            out[key] = list(out[key]) + [v for v in value if v not in out[key]]
        else:
            out[key] = value
    return out
