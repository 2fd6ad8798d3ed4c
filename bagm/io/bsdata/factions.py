"""Which catalogue files hold a faction, and which factions a catalogue name stands for."""

from __future__ import annotations

import os
from pathlib import Path

from bagm.io.bsdata.names import name_key
from bagm.io.bsdata.xmlfile import CatalogueError

_SM_CHAPTERS = [
    "Imperium - Black Templars", "Imperium - Blood Angels", "Imperium - Dark Angels",
    "Imperium - Deathwatch", "Imperium - Imperial Fists", "Imperium - Iron Hands",
    "Imperium - Raven Guard", "Imperium - Salamanders", "Imperium - Space Wolves",
    "Imperium - Ultramarines", "Imperium - White Scars",
]
FACTION_FILES: dict[str, list[str]] = {
    "grey knights": ["Imperium - Grey Knights"],
    "adeptus astartes": ["Imperium - Space Marines", *_SM_CHAPTERS],
    "space marines": ["Imperium - Space Marines", *_SM_CHAPTERS],
    "necrons": ["Necrons"],
    "tyranids": ["Tyranids", "Library - Tyranids"],
    "great devourer": ["Tyranids", "Library - Tyranids", "Genestealer Cults"],
    "astra militarum": ["Imperium - Astra Militarum", "Imperium - Astra Militarum - Library"],
    "orks": ["Orks"],
    "adeptus custodes": ["Imperium - Adeptus Custodes"],
    "adepta sororitas": ["Imperium - Adepta Sororitas"],
    "adeptus mechanicus": ["Imperium - Adeptus Mechanicus"],
    "agents of the imperium": ["Imperium - Agents of the Imperium"],
    "imperial knights": ["Imperium - Imperial Knights", "Imperium - Imperial Knights - Library"],
    "chaos space marines": ["Chaos - Chaos Space Marines"],
    "heretic astartes": ["Chaos - Chaos Space Marines"],
    "chaos daemons": ["Chaos - Chaos Daemons", "Chaos - Chaos Daemons Library"],
    "legiones daemonica": ["Chaos - Chaos Daemons", "Chaos - Chaos Daemons Library"],
    "chaos knights": ["Chaos - Chaos Knights", "Chaos - Chaos Knights Library"],
    "aeldari": ["Aeldari - Craftworlds", "Aeldari - Aeldari Library"],
    "craftworlds": ["Aeldari - Craftworlds", "Aeldari - Aeldari Library"],
    "drukhari": ["Aeldari - Drukhari", "Aeldari - Aeldari Library"],
    "tau empire": ["T'au Empire"],
    "genestealer cults": ["Genestealer Cults"],
    "leagues of votann": ["Leagues of Votann"],
}
for _chapter in _SM_CHAPTERS:
    FACTION_FILES.setdefault(name_key(_chapter.split(" - ", 1)[1]),
                              [_chapter, "Imperium - Space Marines"])


def catalogues_for_faction(faction: str, directory: str | os.PathLike[str]) -> list[Path]:
    """The catalogue files of ``faction`` in ``directory``, the faction's own catalogue first.

    Known factions use a table (Adeptus Astartes: Space Marines plus the chapter catalogues);
    others are found by name ("Death Guard" -> "Chaos - Death Guard.cat"). Files that are
    missing are left out; an unknown faction gives an empty list.
    """
    directory = Path(directory)
    try:
        files = sorted(p for p in directory.iterdir()
                       if p.suffix.lower() in (".cat", ".catz") and p.is_file())
    except OSError as exc:
        raise CatalogueError(
            directory, f"cannot list the catalogue folder: {exc.strerror or exc}") from None
    by_stem = {name_key(p.stem): p for p in files}
    key = name_key(faction)
    wanted = FACTION_FILES.get(key)
    if wanted:
        return [by_stem[name_key(n)] for n in wanted if name_key(n) in by_stem]
    out: list[Path] = []
    for p in files:  # "Imperium - Adepta Sororitas", "Chaos - Death Guard", "T'au Empire"
        stem = name_key(p.stem)
        head, _, rest = stem.partition(" ")
        bare = rest if head in ("imperium", "chaos", "aeldari", "xenos") and rest else stem
        if bare == key or bare == f"{key} library" or stem == key:
            out.append(p)
    return sorted(out, key=lambda p: "library" in name_key(p.stem))


def factions_for_catalogue(name: str) -> list[str]:
    """Faction names a catalogue name may stand for, best first: "Imperium - Blood Angels" ->
    ["adeptus astartes", "space marines", "blood angels", "Blood Angels", ...]."""
    key = name_key(name)
    out = [f for f, files in FACTION_FILES.items() if any(name_key(n) == key for n in files)]
    parts = [p.strip() for p in name.split(" - ") if p.strip()]
    out += [" - ".join(parts[i:]) for i in range(1, len(parts))]  # without "Imperium - "
    out += [name]
    return list(dict.fromkeys(out))
