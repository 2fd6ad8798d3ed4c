"""Catalogues loaded together: ``catalogueLink`` targets found in the same folder, and every
element by id, so an ``entryLink`` / ``infoLink`` resolves across files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from bagm.io.bsdata.names import name_key
from bagm.io.bsdata.xmlfile import catalogue_header, parse_catalogue

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

_CAT_SUFFIXES = (".cat", ".gst", ".catz", ".gstz")


@dataclass
class Catalogue:
    path: Path
    root: "Element"
    id: str
    name: str
    library: bool
    game_system: bool
    links: list[tuple[str, str, bool]]  # (targetId, name, importRootEntries)


def child_elements(el: "Element", container: str, tag: str) -> list["Element"]:
    out: list[Element] = []
    for c in el.findall(container):
        out.extend(c.findall(tag))
    return out


class Library:
    """Loaded catalogues and their elements by id, for resolving links across files."""

    INDEXED = ("selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup")

    def __init__(self) -> None:
        self.cats: dict[Path, Catalogue] = {}
        self.order: list[Catalogue] = []
        self.by_id: dict[str, Element] = {}
        self.profile_types: dict[str, str] = {}
        self.forces: dict[str, str] = {}  # force entry id -> name ("Boarding Actions")
        self._dir_index: dict[Path, dict[str, Path]] = {}
        self.warnings: list[str] = []

    # loading ---------------------------------------------------------------------------------

    def load(self, path: Path) -> Catalogue:
        path = path.resolve()
        if path in self.cats:
            return self.cats[path]
        root = parse_catalogue(path)
        links = [(cl.get("targetId", ""), cl.get("name", ""),
                  cl.get("importRootEntries", "false").lower() == "true")
                 for cl in child_elements(root, "catalogueLinks", "catalogueLink")]
        cat = Catalogue(path, root, root.get("id", ""), root.get("name", path.stem),
                   root.get("library", "false").lower() == "true",
                   root.tag == "gameSystem", links)
        self.cats[path] = cat
        self.order.append(cat)
        for el in root.iter():
            if el.tag in self.INDEXED:
                ident = el.get("id")
                if ident:
                    self.by_id.setdefault(ident, el)
            elif el.tag == "profileType" and el.get("id"):
                self.profile_types.setdefault(el.get("id", ""), el.get("name", ""))
            elif el.tag == "forceEntry" and el.get("id"):
                self.forces.setdefault(el.get("id", ""), el.get("name", ""))
        return cat

    def load_with_links(self, paths: Iterable[Path]) -> list[Catalogue]:
        """Load ``paths`` (in priority order), then every catalogue they link, then the system."""
        primaries = [self.load(Path(p)) for p in paths]
        queue = list(primaries)
        while queue:
            cat = queue.pop(0)
            for target, name, _imp in cat.links:
                found = self.locate(cat.path.parent, target, name)
                if found is None:
                    self.warnings.append(
                        f"{cat.path.name}: linked catalogue '{name}' ({target}) not found")
                    continue
                if found.resolve() not in self.cats:
                    queue.append(self.load(found))
        for cat in primaries:
            if cat.game_system:
                continue
            system_id = cat.root.get("gameSystemId", "")
            if not any(c.game_system and (c.id == system_id or not system_id) for c in self.order):
                found = self.locate(cat.path.parent, system_id, "", system=True)
                if found is not None:
                    self.load(found)
                else:
                    self.warnings.append(f"{cat.path.name}: game system ({system_id}) not found")
        return primaries

    def locate(self, directory: Path, target: str, name: str, system: bool = False) -> Path | None:
        """A catalogue file in ``directory`` by its id (composite ids tolerated), else its name."""
        index = self._index(directory)
        for key in id_variants(target):
            if key and ("id:" + key) in index:
                return index["id:" + key]
        if name and ("name:" + name_key(name)) in index:
            return index["name:" + name_key(name)]
        if system:
            systems = [p for p in sorted(directory.iterdir())
                       if p.suffix.lower() in (".gst", ".gstz")]
            if len(systems) == 1:
                return systems[0]
        return None

    def _index(self, directory: Path) -> dict[str, Path]:
        directory = directory.resolve()
        if directory not in self._dir_index:
            index: dict[str, Path] = {}
            try:
                files = sorted(p for p in directory.iterdir() if p.suffix.lower() in _CAT_SUFFIXES)
            except OSError:
                files = []
            for p in files:
                head = catalogue_header(p)
                index.setdefault("name:" + name_key(p.stem), p)
                if head is None:
                    continue
                if head.get("id"):
                    index.setdefault("id:" + head["id"], p)
                if head.get("name"):
                    index.setdefault("name:" + name_key(head["name"]), p)
            self._dir_index[directory] = index
        return self._dir_index[directory]

    # resolution ------------------------------------------------------------------------------

    def get(self, target: str | None) -> "Element | None":
        for key in id_variants(target or ""):
            el = self.by_id.get(key)
            if el is not None:
                return el
        return None

    def type_name(self, profile: "Element") -> str:
        return profile.get("typeName") or self.profile_types.get(profile.get("typeId", ""), "")


def id_variants(ident: str) -> list[str]:
    """An id and, for composite ``catalogue::entry`` ids, its parts from the last one."""
    if "::" not in ident:
        return [ident]
    parts = [p for p in ident.split("::") if p]
    return [ident] + parts[::-1]

