"""Building and editing rosters: ``new``, ``add``, ``remove``, ``set``, ``suggest``, ``build``.

Every edit is validated before it is written: the roster card is printed with the points left,
and an edit that makes the roster break a rule it did not already break is refused (exit 1, the
file untouched) unless ``--force``. Files are edited in place keeping comments and layout, and
written atomically. Exit codes: 0 written, 1 refused (or written with --force and breaking a
rule), 2 bad input or unknown names.

Heavy parts (ruamel.yaml, rich, the validator) are imported inside the commands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, NoReturn, Optional

import typer

from bagm.cli.common import DataOpt, SimpleFormat
from bagm.cli.common import catalog as _catalog
from bagm.cli.common import console as _console
from bagm.cli.common import fail as _fail

if TYPE_CHECKING:
    from rich.console import Console

    from bagm.data.packs import Catalog, Faction
    from bagm.io.roundtrip import Document
    from bagm.roster.model import Roster
    from bagm.roster.report import ValidationReport


ForceOpt = Annotated[bool, typer.Option("--force", help="Write the edit even if it breaks a "
                                                        "rule (and say what breaks).")]
FileArg = Annotated[Path, typer.Argument(metavar="FILE", help="The roster file.")]
TargetArg = Annotated[str, typer.Argument(metavar="UNIT|LABEL",
                                          help="A label, a unit name, or '#N' (its number).")]
ModelsOpt = Annotated[Optional[int], typer.Option("--models", "-m", min=1,
                                                  help="Starting Strength.")]
LabelOpt = Annotated[Optional[str], typer.Option("--label", "-l", help="Display name.")]
EditionOpt = Annotated[Optional[int], typer.Option("--edition",
                                                   help="2024 (default) or 2023 rules.")]


def _edition(edition: int | None) -> int | None:
    if edition is not None and edition not in (2023, 2024):
        _fail(f"--edition must be 2023 or 2024 (got {edition})")
    return edition


@dataclass
class _Session:
    """A roster file opened for editing, with its validation before the edit."""

    path: Path
    catalog: "Catalog"
    roster: "Roster"
    before: "ValidationReport"
    doc: "Document"

    @property
    def faction(self) -> "Faction | None":
        return self.catalog.faction(self.roster.file.faction)

    @property
    def detachment(self) -> Any:
        faction = self.faction
        return faction.detachments.get(self.roster.file.detachment) if faction else None

    def need_faction(self) -> "Faction":
        faction = self.faction
        if faction is None:
            _fail(f"{self.path}: unknown Army Faction '{self.roster.file.faction}'; fix "
                  "'faction:' first (see 'bagm validate')")
        return faction


def _open(path: Path, data: list[Path] | None) -> _Session:
    from bagm.io.roundtrip import load_document
    from bagm.io.yamlsafe import InputError, read_text
    from bagm.roster.model import load_roster
    from bagm.roster.validate import validate

    try:
        text = read_text(path)  # refuses huge and binary files before anything parses them
        doc = load_document(path, text)  # and what is too big to edit, before parsing it
        roster = load_roster(path, text)
        catalog = _catalog(data)
        before = validate(roster, catalog)
    except InputError as exc:
        _fail(str(exc))
    return _Session(path, catalog, roster, before, doc)


def _check(path: Path, doc: "Document",
           catalog: "Catalog") -> tuple[str, "Roster", "ValidationReport"]:
    """The edited text, the roster it reads back as, and its validation; nothing is written."""
    from bagm.io.roundtrip import LayoutError, dump_document
    from bagm.io.yamlsafe import InputError
    from bagm.roster.model import load_roster
    from bagm.roster.validate import validate

    try:
        text = dump_document(doc)
    except LayoutError as exc:
        _fail(f"{path}: cannot be edited in place: {exc}; nothing written (edit it by hand)")
    try:
        roster = load_roster(path, text)
    except InputError as exc:  # pragma: no cover - an edit always writes a valid shape
        _fail(f"{path}: the edited roster would not read back ({exc.message}); nothing written")
    return text, roster, validate(roster, catalog)


def _show(console: "Console", report: "ValidationReport") -> None:
    from bagm.render.rich_render import findings_table, roster_card

    console.print(roster_card(report))
    console.print(findings_table(report))


def _models(n: int | None) -> str:
    return f"{n} model" + ("" if n == 1 else "s")


def _breaks_text(findings: list[Any]) -> str:
    return "\n".join(f"  line {f.line or '?'}: {f.code} {f.message}" for f in findings)


def _write(path: Path, text: str, *, overwrite: bool = True) -> None:
    from bagm.io.atomic import write_atomic

    try:
        write_atomic(path, text, overwrite=overwrite)
    except FileExistsError:
        _fail(f"{path} already exists; edit it with 'bagm add' or 'bagm build', or pick another "
              "name")
    except OSError as exc:
        _fail(f"{path}: cannot be written: {exc.strerror or exc}; nothing was changed")


def _commit(s: _Session, doc: "Document", force: bool, doing: str, done: str) -> NoReturn:
    """Validate the edited document; refuse it, or write it and print the roster card."""
    from bagm.roster.edit import new_breaks

    text, _, after = _check(s.path, doc, s.catalog)
    broken = new_breaks(s.before, after)
    if broken and not force:
        typer.echo(f"bagm: refused: {doing} would break a rule ({s.path} is unchanged):\n"
                   f"{_breaks_text(broken)}\nbagm: use --force to write it anyway", err=True)
        raise typer.Exit(1)
    _write(s.path, text)
    console = _console()
    console.print(done, soft_wrap=True)
    _show(console, after)
    if broken:
        typer.echo(f"bagm: written with --force; {s.path} now breaks:\n{_breaks_text(broken)}",
                   err=True)
        raise typer.Exit(1)
    raise typer.Exit(0)


def _edit_error(run: Callable[[], Any]) -> Any:
    from bagm.roster.edit import EditError

    try:
        return run()
    except EditError as exc:
        _fail(str(exc))


# --- commands -------------------------------------------------------------------------------


def new(
    file: FileArg,
    faction: Annotated[str, typer.Option("--faction", "-F", help="Army Faction, e.g. 'Orks'.")],
    detachment: Annotated[str, typer.Option("--detachment", "-d",
                                            help="Boarding Actions Detachment.")],
    name: Annotated[Optional[str], typer.Option("--name", "-n", help="Roster name.")] = None,
    edition: EditionOpt = None,
    data: DataOpt = None,
) -> None:
    """Start a roster with no units; never overwrites a file."""
    from bagm.io.yamlsafe import InputError
    from bagm.roster.edit import new_roster, resolve_detachment, resolve_faction

    edition = _edition(edition)
    if file.exists():
        _fail(f"{file} already exists; edit it with 'bagm add' or 'bagm build', or pick another "
              "name")
    if not file.parent.is_dir():
        _fail(f"{file}: the folder {file.parent} does not exist")
    try:
        catalog = _catalog(data)
        f = _edit_error(lambda: resolve_faction(catalog, faction))
        det = _edit_error(lambda: resolve_detachment(f, detachment))
    except InputError as exc:
        _fail(str(exc))
    doc = new_roster(f.name, det.name, name, edition)
    text, _, report = _check(file, doc, catalog)
    _write(file, text, overwrite=False)
    console = _console()
    console.print(f"Created {file}: add units with 'bagm add {file} UNIT' or 'bagm build {file}'.",
                  soft_wrap=True)
    _show(console, report)


WargearOpt = Annotated[Optional[list[str]], typer.Option(
    "--wargear", "-g", help="Wargear: 'ITEM=N' (N models carry it; 0 takes it back), "
    "'PROFILE: ITEM=N' for one model profile; repeat for more; '' clears all (default "
    "wargear).")]


def _wargear(ds: Any, given: list[str] | None) -> tuple[list[Any], bool]:
    """The --wargear options read against the datasheet: (changes, clear first)."""
    from bagm.roster.edit import parse_wargear, resolve_wargear

    if not given:
        return [], False
    clear = any(not g.strip() for g in given)
    changes = []
    for g in given:
        if g.strip():
            change = _edit_error(partial(parse_wargear, g))
            if ds is not None:  # an unknown unit: its wargear as typed
                change = _edit_error(partial(resolve_wargear, ds, change))
            changes.append(change)
    return changes, clear


def _wargear_text(changes: list[Any], clear: bool) -> str:
    parts = ["default wargear"] if clear else []
    parts += [f"{c.count}x {c.item}" + (f" ({c.profile})" if c.profile else "") for c in changes]
    return "wargear " + ", ".join(parts)


def add(
    file: FileArg,
    unit: Annotated[str, typer.Argument(help="Datasheet name (aliases accepted).")],
    models: ModelsOpt = None,
    label: LabelOpt = None,
    wargear: WargearOpt = None,
    force: ForceOpt = False,
    data: DataOpt = None,
) -> None:
    """Add a unit to a roster."""
    from bagm.roster.edit import add_unit, resolve_datasheet, unit_sizes

    s = _open(file, data)
    faction = s.need_faction()
    ds = _edit_error(lambda: resolve_datasheet(faction, unit))
    if models is None:
        sizes = unit_sizes(faction, s.detachment, ds)
        if len(sizes) > 1:
            _fail(f"{ds.name} can be taken at {' or '.join(map(str, sizes))} models; "
                  "give --models N")
    changes, _ = _wargear(ds, wargear)
    doc = add_unit(s.doc, ds.name, models, label, changes)
    what = ds.name + (f" ({_models(models)})" if models is not None else "")
    if changes:
        what += f" with {_wargear_text(changes, False)}"
    _commit(s, doc, force, f"adding {what}", f"Added {what} to {file}.")


def remove(file: FileArg, target: TargetArg, force: ForceOpt = False,
           data: DataOpt = None) -> None:
    """Remove a unit (by label, unit name or '#N')."""
    from bagm.roster.edit import find_unit, remove_unit

    s = _open(file, data)
    index = _edit_error(lambda: find_unit(s.doc, target, s.faction))
    what = f"#{index + 1} {s.before.units[index].display}"
    _commit(s, remove_unit(s.doc, index), force, f"removing {what}", f"Removed {what} from {file}.")


def set_(
    file: FileArg,
    target: TargetArg,
    warlord: Annotated[Optional[bool], typer.Option("--warlord/--no-warlord",
                                                    help="Make this unit the Warlord (the "
                                                         "others lose the title), or not.",
                                                    show_default=False)] = None,
    enhancement: Annotated[Optional[str], typer.Option("--enhancement", "-e",
                                                       help="An Enhancement; '' removes it.")] = None,
    models: ModelsOpt = None,
    weapon: Annotated[Optional[str], typer.Option("--weapon", "-w",
                                                  help="The ranged weapon a Trademark Weapon "
                                                       "improves; '' removes it.")] = None,
    label: Annotated[Optional[str], typer.Option("--label", "-l",
                                                 help="Display name; '' removes it.")] = None,
    wargear: WargearOpt = None,
    force: ForceOpt = False,
    data: DataOpt = None,
) -> None:
    """Change a unit: Warlord, Enhancement, Starting Strength, weapon, wargear, label."""
    from bagm.roster.edit import find_unit, resolve_enhancement, resolve_weapon, set_unit

    s = _open(file, data)
    index = _edit_error(lambda: find_unit(s.doc, target, s.faction))
    unit = s.before.units[index]
    if enhancement:
        faction, asked = s.need_faction(), enhancement
        enhancement = _edit_error(lambda: resolve_enhancement(
            s.catalog, faction, s.detachment, s.roster.file.edition, asked))
    if weapon and unit.datasheet is not None:
        named = weapon
        weapon = _edit_error(lambda: resolve_weapon(unit.datasheet, named))
    changes, clear = _wargear(unit.datasheet, wargear)
    doc = _edit_error(lambda: set_unit(s.doc, index, models=models, label=label,
                                       warlord=warlord, enhancement=enhancement, weapon=weapon,
                                       wargear=changes or None, clear_wargear=clear))
    changes = [("Warlord" if warlord else "not the Warlord") if warlord is not None else None,
               _models(models) if models is not None else None,
               (f"Enhancement {enhancement}" if enhancement else "no Enhancement")
               if enhancement is not None else None,
               (f"weapon {weapon}" if weapon else "no weapon") if weapon is not None else None,
               (f"label {label}" if label else "no label") if label is not None else None,
               _wargear_text(changes, clear) if changes or clear else None]
    what = ", ".join(c for c in changes if c)
    name = f"#{index + 1} {unit.display}"
    _commit(s, doc, force, f"setting {what} on {name}", f"Set {what} on {name} in {file}.")


def suggest(file: FileArg,
            format: Annotated[SimpleFormat, typer.Option("--format", "-f")] = SimpleFormat.text,
            data: DataOpt = None) -> None:
    """List the units and sizes that still fit the points left and every mustering rule."""
    from bagm.roster.suggest import suggest_units

    s = _open(file, data)
    if s.faction is None or s.detachment is None:
        what = "faction" if s.faction is None else "detachment"
        _fail(f"{file}: cannot suggest units: unknown {what} (see 'bagm validate {file}')")
    found = suggest_units(s.roster, s.catalog, s.before)
    left = s.before.limit - s.before.points
    if format is SimpleFormat.json:
        from bagm.render.formats import to_json

        typer.echo(to_json({"path": str(file), "points": s.before.points,
                            "limit": s.before.limit, "left": left,
                            "suggestions": [x.as_dict() for x in found]}))
        return
    console = _console()
    if found:
        from bagm.render.rich_render import suggestions_table

        console.print(suggestions_table(s.before.title, left, found))
    else:
        console.print(f"Nothing else fits {s.before.title}: {left} points left.")


# --- the interactive builder ----------------------------------------------------------------


class _Builder:
    """``bagm build``: prompts on plain stdin (so a script can drive it); writes at the end."""

    def __init__(self, path: Path, catalog: "Catalog", console: "Console") -> None:
        self.path, self.catalog, self.console = path, catalog, console

    def say(self, message: str) -> None:
        self.console.print(message, soft_wrap=True, markup=True)  # user text through quote()

    def quote(self, text: str) -> str:
        """User or data text inside a message with rich markup."""
        from rich.markup import escape

        return escape(text)

    def ask(self, question: str, default: str = "") -> str:
        from rich.prompt import Prompt

        return Prompt.ask(question, console=self.console, default=default,
                          show_default=bool(default)).strip()

    def choose(self, question: str, options: list[str], default: int | None = None,
               alias: Callable[[str], str | None] | None = None) -> int:
        """A number from a printed list, or an option's name (or, through ``alias``, any name
        the other commands accept for it)."""
        from bagm.data.names import did_you_mean, norm

        for i, option in enumerate(options, 1):
            self.say(f"  {i:>2}  {self.quote(option)}")
        while True:
            answer = self.ask(question, str(default + 1) if default is not None else "")
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            canonical = alias(answer) if alias is not None and answer else None
            named = [i for i, o in enumerate(options)
                     if norm(o) in (norm(answer), norm(canonical or answer))]
            if named:
                return named[0]
            hint = did_you_mean(answer, options) if answer else ""
            self.say(f"[red]Not a choice:[/] '{self.quote(answer)}'. Give a number from 1 to "
                     f"{len(options)} or a name" + (f"; {self.quote(hint)}" if hint else "."))

    def state(self, doc: "Document") -> tuple["Roster", "ValidationReport"]:
        _, roster, report = _check(self.path, doc, self.catalog)
        return roster, report

    def start(self, faction: str | None, detachment: str | None, name: str | None,
              edition: int | None) -> "Document":
        from bagm.roster.edit import EditError, new_roster, resolve_detachment, resolve_faction

        names = self.catalog.faction_names()
        if faction is not None:
            f = _edit_error(lambda: resolve_faction(self.catalog, faction))
        else:
            self.say("[bold]Army Faction[/]")
            while True:
                i = self.choose("Faction (number or name)", names,
                                alias=self.catalog.resolve_faction)
                try:
                    f = resolve_faction(self.catalog, names[i])
                    break
                except EditError as exc:  # pragma: no cover - listed names resolve
                    self.console.print(str(exc))
        if detachment is not None:
            det = _edit_error(lambda: resolve_detachment(f, detachment))
        else:
            self.say(f"[bold]{self.quote(f.name)}: Boarding Actions Detachments[/]")
            dets = f.pack.detachments
            det = dets[self.choose("Detachment (number or name)", [d.name for d in dets],
                                   alias=lambda a: getattr(f.detachments.get(a), "name", None))]
        if name is None:
            name = self.ask("Roster name (Enter for none)")
        return new_roster(f.name, det.name, name or None, edition)

    def numbers(self, roster: "Roster") -> dict[tuple[str, int], int]:
        """A fixed number for every unit and size the Detachment allows, so that a line keeps
        its number while the list of what still fits shrinks."""
        from bagm.roster.edit import unit_sizes

        out: dict[tuple[str, int], int] = {}
        faction = self.catalog.faction(roster.file.faction)
        det = faction.detachments.get(roster.file.detachment) if faction else None
        if faction is None or det is None:
            return out
        for a in det.units:
            ds = faction.units.get(a.unit)
            if ds is not None:
                for size in unit_sizes(faction, det, ds):
                    out.setdefault((ds.name, size), len(out) + 1)
        return out

    def remove(self, doc: "Document", report: "ValidationReport", answer: str) -> "Document":
        """``-N``: take unit #N (its number on the roster card) off the roster."""
        from bagm.roster.edit import remove_unit

        n = int(answer[1:].strip() or 0)
        if not 1 <= n <= len(report.units):
            self.say(f"[red]No unit #{n}:[/] the roster has {len(report.units)} unit(s).")
            return doc
        gone = report.units[n - 1]
        doc = remove_unit(doc, n - 1)
        self.say(f"Removed #{n} {self.quote(gone.display)}.")
        _, after = self.state(doc)
        _show(self.console, after)
        return doc

    def units(self, doc: "Document") -> "Document":
        from bagm.roster.edit import add_unit, unit_sizes
        from bagm.roster.suggest import suggest_units

        numbers: dict[tuple[str, int], int] | None = None
        while True:
            roster, report = self.state(doc)
            if numbers is None:
                numbers = self.numbers(roster)
            found = suggest_units(roster, self.catalog, report)
            left = report.limit - report.points
            if not found and not report.units:
                self.say(f"Nothing else fits: {left} points left.")
                return doc
            from bagm.render.rich_render import suggestions_table

            if found:
                self.console.print(suggestions_table(
                    report.title, left, found,
                    [numbers.get((x.unit, x.models), 0) for x in found]))
            else:
                self.say(f"Nothing else fits: {left} points left.")
            removing = " -N removes unit #N;" if report.units else ""
            answer = self.ask(f"Add a unit (number or name;{removing} Enter when done)")
            if not answer:
                return doc
            if report.units and re.fullmatch(r"-\s*\d+", answer):
                doc = self.remove(doc, report, answer)
                continue
            if answer.isdigit():
                by_number = {numbers.get((x.unit, x.models)): x for x in found}
                if int(answer) not in by_number:
                    self.say(f"[red]No line {answer} fits now:[/] give a number from the "
                             "list, or a unit name.")
                    continue
                pick = by_number[int(answer)]
            else:
                faction = self.catalog.faction(roster.file.faction)
                ds = faction.units.get(answer) if faction is not None else None
                sizes = [x for x in found if ds is not None and x.unit == ds.name]
                if not sizes:
                    self.explain(roster, report, answer)
                    continue
                pick = sizes[0]
                if len(sizes) > 1:
                    from rich.prompt import IntPrompt

                    models = IntPrompt.ask("Models", console=self.console,
                                           choices=[str(x.models) for x in sizes])
                    pick = next(x for x in sizes if x.models == models)
            faction = self.catalog.faction(roster.file.faction)
            assert faction is not None  # suggestions exist only for a known faction
            ds = faction.units.get(pick.unit)
            det = faction.detachments.get(roster.file.detachment)
            one_size = len(unit_sizes(faction, det, ds)) == 1
            doc = add_unit(doc, pick.unit, None if one_size else pick.models)
            self.say(f"Added {self.quote(pick.unit)} ({_models(pick.models)}, {pick.points} pts): "
                     f"{pick.left} points left.")
            self.findings(doc)

    def explain(self, roster: "Roster", report: "ValidationReport", answer: str) -> None:
        """Why a unit typed by name is not in the list: unknown, or the rule it would break."""
        from bagm.roster.edit import new_breaks, unit_sizes
        from bagm.roster.suggest import with_units
        from bagm.roster.validate import validate

        faction = self.catalog.faction(roster.file.faction)
        assert faction is not None
        ds = faction.units.get(answer)
        if ds is None:
            hint = faction.units.hint(answer)
            self.say(f"[red]Unknown unit '{self.quote(answer)}'[/] for {self.quote(faction.name)}"
                     + (f"; {self.quote(hint)}" if hint else "."))
            return
        det = faction.detachments.get(roster.file.detachment)
        entries = [dict(u) for u in roster.source.data.get("units") or []]
        for size in unit_sizes(faction, det, ds)[:1]:
            after = validate(with_units(roster, entries + [{"unit": ds.name, "models": size}]),
                             self.catalog)
            for f in new_breaks(report, after)[:1]:
                self.say(f"[red]{self.quote(ds.name)} cannot be added now:[/] "
                         f"{self.quote(f.message)}.")
                return
        self.say(f"[red]{self.quote(ds.name)} cannot be added now.[/]")  # pragma: no cover

    def warlord(self, doc: "Document") -> "Document":
        from bagm.roster.edit import set_unit
        from bagm.roster.suggest import warlord_options

        roster, report = self.state(doc)
        if not report.units:
            return doc
        options = warlord_options(roster, self.catalog, report)
        if not options:
            self.say("[yellow]No unit can be the Warlord without breaking a rule.[/]")
            return doc
        current = next((i for i, u in enumerate(report.units) if u.warlord), None)
        default = options.index(current) if current in options else 0
        self.say("[bold]Warlord[/]")
        pick = self.choose("Warlord (number or name)",
                           [report.units[i].display for i in options], default)
        doc = set_unit(doc, options[pick], warlord=True)
        self.findings(doc)
        return doc

    def enhancements(self, doc: "Document") -> "Document":
        from rich.prompt import Confirm

        from bagm.roster.edit import set_unit
        from bagm.roster.suggest import enhancement_options

        while True:
            roster, report = self.state(doc)
            options = enhancement_options(roster, self.catalog, report)
            if not options:
                return doc
            if not Confirm.ask("Add an Enhancement?", console=self.console, default=False):
                return doc
            names = list(dict.fromkeys(o.enhancement for o in options))
            faction = self.catalog.faction(roster.file.faction)

            def enhancement_alias(answer: str, faction: Any = faction, roster: Any = roster) -> str | None:
                from bagm.roster.edit import EditError, resolve_enhancement

                if faction is None:
                    return None
                try:
                    return resolve_enhancement(self.catalog, faction, None,
                                               roster.file.edition, answer)
                except EditError:
                    return None

            enh = names[self.choose("Enhancement (number or name)", names,
                                    alias=enhancement_alias)]
            bearers = list(dict.fromkeys(o.index for o in options if o.enhancement == enh))
            index = bearers[self.choose("Bearer (number or name)",
                                        [report.units[i].display for i in bearers])]
            weapons = [o.weapon for o in options
                       if o.enhancement == enh and o.index == index and o.weapon]
            weapon = weapons[self.choose("Weapon (number or name)", weapons)] if weapons else None
            doc = set_unit(doc, index, enhancement=enh, weapon=weapon)
            self.findings(doc)

    def findings(self, doc: "Document") -> None:
        from bagm.render.rich_render import findings_table

        _, report = self.state(doc)
        self.console.print(findings_table(report))


def build(
    file: FileArg,
    faction: Annotated[Optional[str], typer.Option("--faction", "-F",
                                                   help="Skip the faction prompt.")] = None,
    detachment: Annotated[Optional[str], typer.Option("--detachment", "-d",
                                                      help="Skip the Detachment prompt.")] = None,
    name: Annotated[Optional[str], typer.Option("--name", "-n",
                                                help="Roster name (skips its prompt).")] = None,
    edition: EditionOpt = None,
    data: DataOpt = None,
) -> None:
    """Build a roster interactively: faction, Detachment, units that still fit, Warlord,
    Enhancements. Reads answers from stdin (a script can drive it); an existing FILE is
    continued. Writes the file once, at the end."""
    from bagm.io.yamlsafe import InputError

    edition = _edition(edition)
    console = _console()
    existing = file.exists()
    try:
        if existing:
            s = _open(file, data)
            builder = _Builder(file, s.catalog, console)
            doc = s.doc
            if s.faction is None or s.detachment is None:
                _fail(f"{file}: unknown faction or detachment; fix it first "
                      f"(see 'bagm validate {file}')")
            console.print(f"Continuing {file}: {s.before.faction} · {s.before.detachment}",
                          soft_wrap=True)
            _show(console, s.before)  # the units already in it, numbered as 'remove' takes them
        else:
            if not file.parent.is_dir():
                _fail(f"{file}: the folder {file.parent} does not exist")
            builder = _Builder(file, _catalog(data), console)
            doc = builder.start(faction, detachment, name, edition)
        doc = builder.units(doc)
        doc = builder.warlord(doc)
        doc = builder.enhancements(doc)
        text, _, report = _check(file, doc, builder.catalog)
    except EOFError:
        console.print()
        _fail(f"input ended before the roster was finished; {file} was not written")
    except InputError as exc:
        _fail(str(exc))
    _write(file, text, overwrite=existing)
    console.print(f"Wrote {file}.", soft_wrap=True)
    _show(console, report)
    raise typer.Exit(0 if report.valid else 1)


def register(app: typer.Typer) -> None:
    """Add the editing commands to the ``bagm`` app."""
    app.command("new")(new)
    app.command("add")(add)
    app.command("remove")(remove)
    app.command("set")(set_)
    app.command("suggest")(suggest)
    app.command("build")(build)
