"""Safe YAML loading for user files: size limits, no aliases, no duplicate keys, line numbers.

Every YAML file bagm reads (rosters, data packs and overlays, maps, game scripts) is composed
into YAML nodes and converted by hand, so every value keeps the line it came from and hostile
input (alias bombs, deep nesting, huge numbers, huge, binary or special files) is refused quickly
with a clear message instead of a traceback.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bagm.errors import BagmError

try:  # libyaml is ~10x faster; fall back to the pure-Python parser when it is missing
    from yaml import CSafeLoader as _Base
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Base  # type: ignore[assignment]

_PLAIN_TAGS: dict[str, str] = {}  # the tag of each short plain scalar met so far


class _Loader(_Base):
    """The safe loader, remembering the tag it resolved for each plain scalar: a folder of
    rosters repeats the same keys and values thousands of times, and a plain scalar's tag
    depends on its text alone (bagm registers no path resolvers)."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0]:
            tag = _PLAIN_TAGS.get(value)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(value) <= 64 and len(_PLAIN_TAGS) < 50_000:
                    _PLAIN_TAGS[value] = tag
            return tag
        return super().resolve(kind, value, implicit)

MAX_BYTES = 1_000_000  # a 500-point roster is a few hundred bytes; 1 MB is generous
MAX_NODES = 100_000
# Nesting deeper than this is refused before the parser builds it: the C composer recurses once
# per level (a traceback from ~1,000 levels, a crash of the interpreter from ~25,000). A roster
# is 3 levels deep, a data pack about 8.
MAX_DEPTH = 64
# a collection node starts with one of these characters, so a text with fewer of them cannot
# nest MAX_DEPTH deep and needs no counting pass
_OPENERS = ("[", "{", "-", ":", "?")

Loc = tuple[str | int, ...]


@dataclass
class InputError(BagmError):
    """Input that cannot be read or parsed: reported with file and line, exit code 2."""

    path: str
    message: str
    line: int | None = None
    hint: str | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        text = f"{where}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text


@dataclass
class Located:
    """A loaded document and the line of every value in it, keyed by its path of keys."""

    data: Any
    lines: dict[Loc, int] = field(default_factory=dict)

    def line(self, loc: Loc) -> int | None:
        """The line of ``loc`` or of its nearest enclosing value."""
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get(())


def read_bytes(path: Path, max_bytes: int = MAX_BYTES, what: str = "a roster file") -> bytes:
    """The bytes of a regular file of at most ``max_bytes``.

    Folders, FIFOs, devices and sockets are refused before anything waits on them, and at most
    ``max_bytes + 1`` bytes are read whatever the file claims its size is.
    """
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except IsADirectoryError:
        raise InputError(name, "is a directory, not a file", hint=f"give {what}") from None
    except FileNotFoundError:
        raise InputError(name, "no such file", hint="check the path") from None
    except OSError as exc:
        raise InputError(name, f"cannot be read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(name, "is a directory, not a file", hint=f"give {what}")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(name, "is not a regular file (a device, pipe or socket)",
                             hint=f"give {what}")
        if st.st_size > max_bytes:
            raise InputError(name, f"file is too large ({st.st_size:,} bytes; the limit is "
                             f"{max_bytes:,})", hint=f"is this really {what}?")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            # one byte more than the file claims: a short read of a regular file is its end
            want = min(st.st_size + 1 - size if size <= st.st_size else 1 << 20,
                       max_bytes + 1 - size)
            chunk = os.read(fd, want)
            chunks.append(chunk)
            size += len(chunk)
            if len(chunk) < want:
                break
    except OSError as exc:
        raise InputError(name, f"cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > max_bytes:  # the file grew after it was measured
        raise InputError(name, f"file is too large (the limit is {max_bytes:,} bytes)",
                         hint=f"is this really {what}?")
    return b"".join(chunks)


def check_regular(path: Path, what: str = "a roster file") -> None:
    """Refuse a folder, FIFO, device or socket before anything opens it (opening a FIFO waits
    for a writer; a device never ends)."""
    name = str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(name, "no such file", hint="check the path") from None
    except OSError as exc:
        raise InputError(name, f"cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise InputError(name, "is a directory, not a file", hint=f"give {what}")
    if not stat.S_ISREG(mode):
        raise InputError(name, "is not a regular file (a device, pipe or socket)",
                         hint=f"give {what}")


def decode(name: str, raw: bytes, what: str = "YAML text") -> str:
    """UTF-8 text (a byte-order mark dropped), refusing binary and undecodable bytes."""
    if b"\x00" in raw:
        raise InputError(name, f"is a binary file, not {what}", hint="give a text file")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(name, "is not valid UTF-8 text", line=line,
                         hint="save the file as UTF-8") from None


def read_text(path: Path, max_bytes: int = MAX_BYTES, what: str = "a roster file") -> str:
    """Read a UTF-8 text file, refusing huge, binary, special and undecodable files."""
    return decode(str(path), read_bytes(path, max_bytes, what))


def load(path: Path | str, text: str | None = None, max_bytes: int = MAX_BYTES,
         max_nodes: int = MAX_NODES, what: str = "a roster file") -> Located:
    """Load one YAML document from ``path`` (or from ``text``), with line numbers."""
    path = Path(path)
    if text is None:
        text = read_text(path, max_bytes, what)
    else:  # text about to be written (an import, an edit): what reading it back would refuse
        if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise InputError(str(path), f"file is too large (limit {max_bytes:,} bytes)")
        if "\x00" in text:
            raise InputError(str(path), "holds a NUL character, which no text file may",
                             line=text[: text.index("\x00")].count("\n") + 1)
    try:
        _check_depth(text, str(path))
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError(str(path), f"invalid YAML: {problem}", line=line,
                         hint="check indentation, colons and quotes") from None
    except yaml.YAMLError as exc:
        raise InputError(str(path), f"invalid YAML: {exc}") from None
    if node is None:
        raise InputError(str(path), "is empty", line=1, hint=f"give {what}")
    out = Located(None)
    out.data = _convert(node, (), out.lines, str(path), set() if "*" in text else None,
                        [max_nodes])
    return out


def _check_depth(text: str, path: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH from the parser's events (which it produces
    without recursing), before the composer recurses into it."""
    if sum(text.count(c) for c in _OPENERS) < MAX_DEPTH:
        return
    loader = _Loader(text)
    depth = 0
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    line = event.start_mark.line + 1 if event.start_mark else None
                    raise InputError(path, f"nested more than {MAX_DEPTH} levels deep",
                                     line=line, hint="is this really the file you meant?")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        # libyaml 0.2.6 (PyYAML 6.0.4) refuses flow nesting past 1,000 levels itself, while
        # scanning ahead of the first event: deeper than MAX_DEPTH all the same
        if exc.problem != "exceeded maximum nesting depth":
            raise
        mark = exc.problem_mark
        raise InputError(path, f"nested more than {MAX_DEPTH} levels deep",
                         line=mark.line + 1 if mark else None,
                         hint="is this really the file you meant?") from None
    finally:
        loader.dispose()


def _convert(node: yaml.Node, loc: Loc, lines: dict[Loc, int], path: str, seen: set[int] | None,
             count: list[int]) -> Any:
    """The plain value of ``node``, each value's line recorded under its path of keys.

    ``seen`` holds the nodes met so far, to refuse aliases (the composer shares an anchor's node
    with each of its aliases); None when the text holds no ``*``, so cannot hold an alias.
    Validating a folder converts thousands of documents, so the common cases come first."""
    if seen is not None:
        if id(node) in seen:
            raise InputError(path, "YAML anchors and aliases are not allowed here",
                             line=node.start_mark.line + 1, hint="write the value out in full")
        seen.add(id(node))
    count[0] -= 1
    if count[0] < 0:
        raise InputError(path, "document has too many values", line=node.start_mark.line + 1)
    lines[loc] = node.start_mark.line + 1
    if node.tag not in _TAGS:
        raise InputError(path, f"unsupported YAML tag '{node.tag}'", line=node.start_mark.line + 1,
                         hint="remove the tag")
    kind = type(node)
    if kind is yaml.ScalarNode:
        return _scalar(node, path)
    if kind is yaml.MappingNode:
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if type(key_node) is not yaml.ScalarNode:
                raise InputError(path, "mapping keys must be plain names",
                                 line=key_node.start_mark.line + 1)
            key_tag = key_node.tag
            if key_tag == _STR:
                key = key_node.value
            else:
                if key_tag == "tag:yaml.org,2002:merge":
                    raise InputError(path, "YAML merge keys ('<<') are not allowed here",
                                     line=key_node.start_mark.line + 1)
                key = _scalar(key_node, path)
                if not isinstance(key, (str, int)):
                    key = str(key)
            if key in result:
                raise InputError(path, f"duplicate key '{key}'", line=key_node.start_mark.line + 1,
                                 hint="remove one of the two")
            here = loc + (key,)
            result[key] = _convert(value_node, here, lines, path, seen, count)
            lines[here] = key_node.start_mark.line + 1  # a key's line, not its value's
        return result
    return [_convert(item, loc + (i,), lines, path, seen, count)
            for i, item in enumerate(node.value)]


_constructor = yaml.SafeLoader("")
_TAGS = {f"tag:yaml.org,2002:{t}" for t in
         ("str", "int", "float", "bool", "null", "map", "seq", "merge", "timestamp")}
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"


_MAX_DIGITS = 100  # no value bagm reads needs more; Python refuses over 4,300

_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


def _scalar(node: yaml.Node, path: str) -> Any:
    # the common tags directly (a hot path when validating thousands of rosters), the rest
    # through PyYAML's safe constructor
    tag, value = node.tag, node.value
    if tag == _STR:
        return value
    if tag == "tag:yaml.org,2002:bool":
        return _BOOLS[value.lower()]
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == _INT:
        if len(value) > _MAX_DIGITS:
            raise InputError(path, f"a number with {len(value):,} digits",
                             line=node.start_mark.line + 1,
                             hint="write a number of at most 100 digits")
        if value.isascii() and value.isdigit() and (value[0] != "0" or value == "0"):
            return int(value)  # plain decimal (YAML 1.1 reads 010 as octal: left to PyYAML)
    try:
        return _constructor.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:  # ValueError: e.g. a bad date
        raise InputError(path, f"invalid value '{value[:40]}': {exc}",
                         line=node.start_mark.line + 1) from None


def load_trusted(path: Path) -> Any:
    """A data pack (bundled or an overlay) or a bundled table: the same safe loader as a
    roster (no aliases, bounded nesting and size), larger limits, the plain data."""
    return load(path, max_bytes=PACK_BYTES, max_nodes=PACK_NODES, what="a data pack").data


PACK_BYTES = 20_000_000
PACK_NODES = 2_000_000
