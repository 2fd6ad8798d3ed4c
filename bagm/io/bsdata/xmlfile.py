"""Reading BattleScribe XML safely: size limits, zip archives, defusedxml, namespaces.

One reader, :func:`read_battlescribe`, for the catalogues and the rosters (:mod:`bagm.io.ros`),
each kind with its own :class:`XmlLimits`: oversized files, odd, encrypted or zip-bomb archive
members, encodings expat does not read itself, and more elements, deeper nesting or longer tags
than a real file has are refused before the tree is built; defusedxml (imported lazily) refuses
entity declarations ("billion laughs") and external entities / DTDs.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from dataclasses import dataclass
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



def parse_catalogue(path: Path) -> "Element":
    """Parse a catalogue (``.cat``/``.gst``, or a ``.catz``/``.gstz`` archive) with the checks
    every BattleScribe file gets (:func:`read_battlescribe`), namespaces stripped."""
    return read_battlescribe(path, CATALOGUE)


def catalogue_header(path: Path) -> dict[str, str] | None:
    """The root element's attributes (id, name, library...), or None if unreadable."""
    import defusedxml.ElementTree as DET  # type: ignore[import-untyped]

    from bagm.io.yamlsafe import check_regular

    try:
        _plain(check_regular, path, "a catalogue")  # a FIFO or device in the folder: skipped
        if path.suffix.lower() in (".catz", ".gstz") or is_zip(path):
            check_zip(path, CATALOGUE)
            source: Any = _io_bytes(read_xml_bytes(path, limit=MAX_BYTES, zipped=True,
                                                   members=CATALOGUE.members))
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
        if not zipped:  # a regular file, at most limit + 1 bytes read whatever it claims
            from bagm.io.yamlsafe import read_bytes

            return _plain(read_bytes, path, limit, "a BattleScribe file")
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


def _plain(read: Any, path: Path, *args: Any) -> Any:
    """``read(path, *args)`` from :mod:`bagm.io.yamlsafe` (regular files only, bounded reads),
    its refusals as :class:`CatalogueError`."""
    from bagm.io.yamlsafe import InputError

    try:
        return read(path, *args)
    except InputError as exc:
        raise CatalogueError(path, f"{exc.message} ({exc.hint})" if exc.hint else exc.message) from None


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


# --- one reader for every BattleScribe file: rosters and catalogues -------------------------

# what expat reads itself; BattleScribe and New Recruit write UTF-8
ENCODINGS = frozenset({"utf-8", "utf8", "utf-16", "utf16", "us-ascii", "ascii", "iso-8859-1",
                       "latin-1", "latin1"})


@dataclass(frozen=True)
class XmlLimits:
    """What one kind of BattleScribe file may hold: beyond these, a file small on disk could
    cost seconds and hundreds of MB to read, and no real one comes near them."""

    kind: str  # "roster", "catalogue": named in the messages
    members: tuple[str, ...]  # suffixes of the one file an archive holds
    roots: tuple[str, ...]  # the root elements accepted
    max_bytes: int  # on disk, and unpacked from an archive
    max_elements: int
    max_depth: int = 200  # element nesting (real files: under 25)
    max_tag: int = 65_536  # bytes in one start tag (real: under 1 KB; expat slows on 100,000s of attributes)
    max_ratio: int = 200  # unpacked / packed size of an archive member (real XML: 5 to 30)
    real: str = "a few thousand"  # how many elements a real one has, for the message
    again: str = ""  # how to get a good file, appended to each refusal


# the largest real catalogue (Space Marines, 3.8 MB) has some 36,000 elements nested 21 deep
CATALOGUE = XmlLimits("catalogue", (".cat", ".gst"), ("catalogue", "gameSystem"), MAX_BYTES,
                      max_elements=400_000, real="at most some 40,000",
                      again="; download the catalogue again")


def read_battlescribe(path: str | os.PathLike[str], limits: XmlLimits) -> "Element":
    """Read, check and parse one BattleScribe file (plain XML or a zip archive holding one),
    refusing before the tree is built whatever no real file holds: an archive member with no
    name, an encrypted member or one that unpacks to far more than it packs; an encoding expat
    does not read itself; more elements, deeper nesting or a longer tag than ``limits`` allow.
    Entity declarations and external references are refused by :func:`parse_xml`."""
    from bagm.io.yamlsafe import check_regular

    path = Path(path)
    _plain(check_regular, path, f"a BattleScribe {limits.kind}")  # a FIFO or device: never opened
    zipped = path.suffix.lower() in {m + "z" for m in limits.members} or is_zip(path)
    if zipped:
        check_zip(path, limits)
    try:
        data = read_xml_bytes(path, limit=limits.max_bytes, zipped=zipped, members=limits.members)
    except (RuntimeError, ValueError, EOFError, zlib.error) as exc:  # what zipfile lets through
        raise CatalogueError(path, f"is not a valid zip archive ({exc})") from None
    check_xml(path, data, limits)
    return parse_xml(path, data, limits.roots)


def is_zip(path: Path) -> bool:
    """The file starts as a zip archive does (whatever its name)."""
    try:
        with path.open("rb") as fh:
            return fh.read(4) == b"PK\x03\x04"
    except OSError:
        return False  # read_xml_bytes reports it


def check_zip(path: Path, limits: XmlLimits) -> None:
    """Refuse, before unpacking anything, what no BattleScribe or New Recruit archive holds: a
    member without a name, an encrypted member, a member that unpacks to far more than it packs
    (a small archive that would cost seconds and hundreds of MB to read)."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, RuntimeError) as exc:
        raise CatalogueError(path, f"is not a valid zip archive ({exc})") from None
    except OSError as exc:
        raise CatalogueError(path, f"cannot be read: {exc.strerror or exc}") from None
    for info in infos:
        if not info.filename.strip("/"):
            raise CatalogueError(path, "the archive holds a member with no name" + limits.again)
        if info.flag_bits & 0x1:
            raise CatalogueError(path, f"archive member '{info.filename}' is encrypted"
                                 + limits.again)
        if info.filename.lower().endswith(limits.members) and info.file_size > 1_000_000 \
                and info.file_size > limits.max_ratio * max(1, info.compress_size):
            raise CatalogueError(path, f"refused: archive member '{info.filename}' unpacks to "
                                 f"{info.file_size:,} bytes from {info.compress_size:,} (a real "
                                 f"{limits.kind} packs at most {limits.max_ratio} to 1); is this "
                                 "a zip bomb?")


def check_xml(path: Path, data: bytes, limits: XmlLimits) -> None:
    """One streaming pass before the tree is built: the encoding is one expat reads, and the
    document holds at most ``limits.max_elements`` elements nested at most ``limits.max_depth``
    deep. Entity declarations are left to :func:`parse_xml`, which refuses them."""
    import re
    from xml.parsers import expat

    head = data[:200]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = data[:400].decode("utf-16", "replace").encode("ascii", "replace")
    m = re.match(rb"^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\bencoding\s*=\s*[\"']([^\"']*)[\"']", head)
    if m:
        encoding = m.group(1).decode("ascii", "replace").strip().lower()
        if encoding not in ENCODINGS:
            raise CatalogueError(path, f"the XML declares the encoding '{encoding[:40]}', which a "
                                 f"{limits.kind} never uses; save it as UTF-8" + limits.again)

    if re.search(rb"<[^<>]{%d}" % limits.max_tag, data):  # "<" never stands inside a tag: linear
        raise CatalogueError(path, f"an XML tag longer than {limits.max_tag:,} bytes"
                             + limits.again)

    class Stop(Exception):
        pass

    depth = count = 0

    def start(_name: str, _attrs: Any) -> None:
        nonlocal depth, count
        depth += 1
        count += 1
        if depth > limits.max_depth:
            raise CatalogueError(path, f"XML elements nested more than {limits.max_depth} deep"
                                 + limits.again)
        if count > limits.max_elements:
            raise CatalogueError(path, f"more than {limits.max_elements:,} XML elements (a real "
                                 f"{limits.kind} has {limits.real})" + limits.again)

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    def entity(*_args: Any) -> None:
        raise Stop  # parse_xml refuses it with its own message

    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.EntityDeclHandler = entity
    parser.ExternalEntityRefHandler = entity  # type: ignore[assignment]
    try:
        for i in range(0, len(data), 1 << 16):
            parser.Parse(data[i:i + (1 << 16)], False)
        parser.Parse(b"", True)
    except Stop:
        return
    except expat.ExpatError:
        return  # parse_xml reports it, with its line and column
    except (LookupError, ValueError) as exc:  # an encoding expat cannot use
        raise CatalogueError(path, f"the XML cannot be decoded ({exc})" + limits.again) from None
