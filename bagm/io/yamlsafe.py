"""Safe YAML loading for user files: size limits, no aliases, no duplicate keys, line numbers.

User files (rosters, overlays) are composed into YAML nodes and converted by hand, so every value
keeps the line it came from and hostile input (alias bombs, huge or binary files) is refused
quickly with a clear message instead of a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bagm.errors import BagmError

try:  # libyaml is ~10x faster; fall back to the pure-Python parser when it is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_BYTES = 1_000_000  # a 500-point roster is a few hundred bytes; 1 MB is generous
MAX_NODES = 100_000

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


def read_text(path: Path, max_bytes: int = MAX_BYTES) -> str:
    """Read a UTF-8 text file, refusing huge, binary and undecodable files."""
    name = str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(name, f"file is too large ({size:,} bytes; the limit is {max_bytes:,})",
                             hint="is this really a roster file?")
        raw = path.read_bytes()
    except InputError:
        raise
    except IsADirectoryError:
        raise InputError(name, "is a directory, not a file") from None
    except FileNotFoundError:
        raise InputError(name, "no such file", hint="check the path") from None
    except OSError as exc:
        raise InputError(name, f"cannot be read: {exc.strerror or exc}") from None
    if b"\x00" in raw:
        raise InputError(name, "is a binary file, not YAML text", hint="give a .yaml roster")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(name, "is not valid UTF-8 text", line=line,
                         hint="save the file as UTF-8") from None


def load(path: Path | str, text: str | None = None, max_bytes: int = MAX_BYTES) -> Located:
    """Load one YAML document from ``path`` (or from ``text``), with line numbers."""
    path = Path(path)
    if text is None:
        text = read_text(path, max_bytes)
    elif len(text) > max_bytes:
        raise InputError(str(path), f"file is too large (limit {max_bytes:,} bytes)")
    try:
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
        raise InputError(str(path), "is empty", line=1, hint="a roster needs faction, detachment and units")
    out = Located(None)
    out.data = _convert(node, (), out.lines, str(path), set(), [0])
    return out


def _convert(node: yaml.Node, loc: Loc, lines: dict[Loc, int], path: str, seen: set[int],
             count: list[int]) -> Any:
    if id(node) in seen:  # the composer shares the node of an anchor with each of its aliases
        raise InputError(path, "YAML anchors and aliases are not allowed here",
                         line=node.start_mark.line + 1, hint="write the value out in full")
    seen.add(id(node))
    count[0] += 1
    if count[0] > MAX_NODES:
        raise InputError(path, f"document has more than {MAX_NODES:,} values")
    lines[loc] = node.start_mark.line + 1
    if node.tag not in _TAGS:
        raise InputError(path, f"unsupported YAML tag '{node.tag}'", line=node.start_mark.line + 1,
                         hint="remove the tag")
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise InputError(path, "mapping keys must be plain names",
                                 line=key_node.start_mark.line + 1)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise InputError(path, "YAML merge keys ('<<') are not allowed here",
                                 line=key_node.start_mark.line + 1)
            key = _scalar(key_node, path)
            if not isinstance(key, (str, int)):
                key = str(key)
            if key in result:
                raise InputError(path, f"duplicate key '{key}'", line=key_node.start_mark.line + 1,
                                 hint="remove one of the two")
            result[key] = _convert(value_node, loc + (key,), lines, path, seen, count)
            lines.setdefault(loc + (key,), key_node.start_mark.line + 1)
            lines[loc + (key,)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, loc + (i,), lines, path, seen, count)
                for i, item in enumerate(node.value)]
    return _scalar(node, path)


_constructor = yaml.SafeLoader("")
_TAGS = {f"tag:yaml.org,2002:{t}" for t in
         ("str", "int", "float", "bool", "null", "map", "seq", "merge", "timestamp")}


_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}


def _scalar(node: yaml.Node, path: str) -> Any:
    # the common tags directly (a hot path when validating thousands of rosters), the rest
    # through PyYAML's safe constructor
    tag, value = node.tag, node.value
    if tag == "tag:yaml.org,2002:str":
        return value
    if tag == "tag:yaml.org,2002:bool":
        return _BOOLS[value.lower()]
    if tag == "tag:yaml.org,2002:null":
        return None
    try:
        return _constructor.construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        raise InputError(path, f"invalid value: {exc}", line=node.start_mark.line + 1) from None


def load_trusted(path: Path) -> Any:
    """Fast plain load for bundled and overlay data packs (size-limited, no line tracking)."""
    text = read_text(path, max_bytes=20_000_000)
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise InputError(str(path), f"invalid YAML: {exc.problem}",
                         line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise InputError(str(path), f"invalid YAML: {exc}") from None
