"""Reading BattleScribe XML safely: size limits, zip archives, defusedxml, namespaces.

Shared by the catalogue reader and the roster reader (:mod:`bagm.io.ros`). defusedxml (imported
lazily) refuses entity declarations ("billion laughs") and external entities / DTDs; oversized
files and zip bombs are refused before anything is unpacked.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bagm.errors import BagmError

if TYPE_CHECKING:  # pragma: no cover
    from xml.etree.ElementTree import Element

MAX_BYTES = 64_000_000  # the largest real catalogue is ~4 MB


class CatalogueError(BagmError):
    """A catalogue (or pack) that cannot be read: refused, malformed or missing."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        self.path = str(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")



def read_catalogue_bytes(path: Path) -> bytes:
    """The XML bytes of a catalogue; ``.catz`` / ``.gstz`` archives are unpacked (size-limited)."""
    zipped = path.suffix.lower() in (".catz", ".gstz")
    return read_xml_bytes(path, limit=MAX_BYTES, zipped=zipped, members=(".cat", ".gst"))


def parse_catalogue(path: Path, data: bytes | None = None) -> "Element":
    """Parse a catalogue safely and strip the XML namespace from every tag."""
    if data is None:
        data = read_catalogue_bytes(path)
    return parse_xml(path, data, ("catalogue", "gameSystem"))


def catalogue_header(path: Path) -> dict[str, str] | None:
    """The root element's attributes (id, name, library...), or None if unreadable."""
    import defusedxml.ElementTree as DET  # type: ignore[import-untyped]

    try:
        if path.suffix.lower() in (".catz", ".gstz"):
            source: Any = _io_bytes(read_catalogue_bytes(path))
        else:
            if path.stat().st_size > MAX_BYTES:
                return None
            source = path.open("rb")
        with source:
            for _event, el in DET.iterparse(source, events=("start",), forbid_dtd=False,
                                             forbid_entities=True, forbid_external=True):
                return dict(el.attrib)
    except Exception:  # noqa: BLE001 - a bad file in the folder is only an error when it is used
        return None
    return None


def _io_bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)



def read_xml_bytes(path: str | os.PathLike[str], *, limit: int,
                   zipped: bool = False, members: tuple[str, ...] = (".ros",)) -> bytes:
    """The XML bytes of a BattleScribe file, at most ``limit`` bytes.

    ``zipped``: the file is a zip archive (``.rosz``, ``.catz``) holding exactly one file with a
    suffix in ``members``; its declared size is checked before anything is unpacked and the
    unpacking stops after ``limit`` bytes, so a zip bomb costs nothing.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > limit:
            raise CatalogueError(path, f"file is too large ({size:,} bytes; limit {limit:,})")
        if not zipped:
            return path.read_bytes()
        with zipfile.ZipFile(path) as zf:
            found = [i for i in zf.infolist()
                     if not i.is_dir() and i.filename.lower().endswith(members)]
            if len(found) != 1:
                raise CatalogueError(path, f"archive must hold exactly one {'/'.join(members)} "
                                     f"file (found {len(found)})")
            info = found[0]
            if info.file_size > limit:
                raise CatalogueError(
                    path, f"refused: archive member '{info.filename}' unpacks to "
                    f"{info.file_size:,} bytes (limit {limit:,}); is this a zip bomb?")
            with zf.open(info) as fh:
                data = fh.read(limit + 1)
            if len(data) > limit:
                raise CatalogueError(path, f"refused: archive member '{info.filename}' unpacks "
                                     f"to more than {limit:,} bytes")
            return data
    except CatalogueError:
        raise
    except FileNotFoundError:
        raise CatalogueError(path, "no such file") from None
    except IsADirectoryError:
        raise CatalogueError(path, "is a directory, not a file") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise CatalogueError(path, f"is not a valid zip archive ({exc})") from None
    except NotImplementedError as exc:  # an unsupported compression method
        raise CatalogueError(path, f"cannot be unpacked: {exc}") from None
    except OSError as exc:
        raise CatalogueError(path, f"cannot be read: {exc.strerror or exc}") from None


def parse_xml(path: str | os.PathLike[str], data: bytes, roots: tuple[str, ...]) -> "Element":
    """Parse BattleScribe XML safely (defusedxml: no DTD entities, no external references),
    strip the namespace from every tag and check the root element is one of ``roots``."""
    import defusedxml
    import defusedxml.ElementTree as DET

    path = Path(path)
    try:
        root: Element = DET.fromstring(data, forbid_dtd=False, forbid_entities=True,
                                       forbid_external=True)
    except defusedxml.EntitiesForbidden as exc:
        if exc.sysid or exc.pubid:
            raise CatalogueError(
                path, f"refused: the file declares an external entity '{exc.name}' "
                f"({exc.sysid or exc.pubid}); external entities could read local files or the "
                "network (XXE), and BattleScribe files never need them") from None
        raise CatalogueError(
            path, f"refused: the file declares the XML entity '{exc.name}'; entity expansion "
            "can blow up memory (a 'billion laughs' bomb), and BattleScribe files never need "
            "it") from None
    except defusedxml.ExternalReferenceForbidden as exc:
        raise CatalogueError(
            path, f"refused: the file references external content ({exc.sysid or exc.pubid}); "
            "external references (XXE) are not allowed") from None
    except defusedxml.DefusedXmlException as exc:
        raise CatalogueError(path, f"refused: {exc}") from None
    except DET.ParseError as exc:
        raise CatalogueError(path, f"not well-formed XML: {exc}") from None
    for el in root.iter():
        tag = el.tag
        if isinstance(tag, str) and tag[:1] == "{":
            el.tag = tag.rpartition("}")[2]
    if root.tag not in roots:
        want = " or ".join(f"<{r}>" for r in roots)
        raise CatalogueError(path, f"not the expected BattleScribe file: the root element is "
                             f"<{root.tag}>, not {want}")
    return root
