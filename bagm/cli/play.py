"""`bagm play`, `bagm replay`, `bagm simulate`: headless games from scripts and bots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from bagm.cli.common import ImportOpt, SimpleFormat, console

FORMATS = ("text", "json")  # the one --format vocabulary of every command


def _fail(message: str) -> NoReturn:
    typer.echo(f"bagm: {message}", err=True)
    raise typer.Exit(2)


def _format(fmt: str) -> str:
    if fmt not in FORMATS:
        _fail(f"unknown format '{fmt}'; use one of: {', '.join(FORMATS)}")
    return fmt


def _read_log(log: Path) -> list[str]:
    """The lines of an event log, checked for the shape replay reads (exit 2 with the line
    when it is not a log of ``bagm play --log``)."""
    from bagm.io.yamlsafe import InputError, read_text

    try:
        text = read_text(log, 50_000_000, "an event log of 'bagm play --log'")
    except InputError as exc:
        _fail(str(exc))
    lines = [x for x in text.splitlines() if x.strip()]
    if not lines:
        _fail(f"{log}: the log is empty")
    for n, line in enumerate(lines, 1):
        try:
            event = json.loads(line)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, >4,300 digits, nesting
            _fail(f"{log}:{n}: not a JSON event ({str(exc).split(';')[0][:80]})")
        if not isinstance(event, dict):
            _fail(f"{log}:{n}: an event is a JSON object, not {type(event).__name__}")
        if n == 1:
            ok = (event.get("e") == "game" and isinstance(event.get("mission"), int)
                  and isinstance(event.get("seed"), int)
                  and isinstance(event.get("rosters"), dict)
                  and all(isinstance(event["rosters"].get(p), str) for p in "AB")
                  and isinstance(event.get("rolloffs") or {}, dict))
            if not ok:
                _fail(f"{log}:1: the log does not start with a 'game' event (mission, seed, "
                      "rosters A and B); give a log written by 'bagm play --log'")
            texts = event.get("roster_text") or {}
            if not isinstance(texts, dict):
                _fail(f"{log}:1: 'roster_text' is not a mapping of the players' rosters")
            for p in "AB":
                if p in texts:  # the log holds the roster itself: no file needed
                    if not isinstance(texts[p], str):
                        _fail(f"{log}:1: roster {p}'s text is not a string")
                elif not Path(event["rosters"][p]).is_file():
                    _fail(f"{log}:1: roster {p} '{event['rosters'][p]}' is not found from this "
                          "folder (the log names it as it was typed, and holds no copy of it: "
                          "a log of an older bagm); replay from the folder the game was played in")
        elif event.get("e") == "action" and not isinstance(event.get("action"), str):
            _fail(f"{log}:{n}: an 'action' event needs its action as text")
    return lines


def _write_log(path: Path, lines: list[str]) -> None:
    from bagm.io.atomic import write_atomic

    try:
        write_atomic(path, "".join(line + "\n" for line in lines))
    except OSError as exc:  # the user's path and the system's reason (never the temporary file)
        _fail(f"{path}: cannot write the log ({exc.strerror or type(exc).__name__})")


NarrateOpt = Annotated[bool, typer.Option("--narrate", help="Tell the game by battle round and phase")]
NotesOpt = Annotated[bool, typer.Option("--notes", help="List every rule the engine does not model")]


HtmlOpt = Annotated[Path | None, typer.Option(
    "--html", help="Write the game as one self-contained HTML page to watch step by step")]
WithoutOpt = Annotated[str | None, typer.Option(
    "--without-faction-rules", metavar="A|B|both",
    help="Play that army (or both) without its faction's rules: Detachment rule, Detachment "
         "Stratagems, Enhancements, army rules, the faction's datasheet abilities (what they are worth)")]
SvgOpt = Annotated[Path | None, typer.Option("--svg", help="Write one SVG of the board per phase into this folder")]


def _radii(events: list[dict[str, Any]]) -> dict[str, float] | None:
    """Each unit's base radius for a log of an older bagm, whose muster event has none: from
    the rosters it names; None when the log has them or they cannot be read (32mm bases then,
    and the page says so)."""
    from bagm.render.replay import full_log

    if not events or full_log(events):
        return None
    from bagm.engine.game.muster import build_army
    from bagm.errors import BagmError

    out: dict[str, float] = {}
    try:
        for p, path in sorted((events[0].get("rosters") or {}).items()):
            out.update({u.uid: float(u.radius) for u in build_army(p, path).units})
    except (BagmError, OSError, ValueError, KeyError):
        return None
    return out


def _pictures(events: list[dict[str, Any]], html: Path | None, svg_dir: Path | None) -> None:
    """Write the replay page and the phase pictures of a logged game (drawn from the log)."""
    if html is None and svg_dir is None:
        return
    from bagm.io.atomic import write_atomic
    from bagm.render import replay_html
    from bagm.render.narration import mission_map

    if html is not None and html.is_dir():
        _fail(f"{html}: is a folder; give a file name for the page")
    if svg_dir is not None and svg_dir.exists() and not svg_dir.is_dir():
        _fail(f"{svg_dir}: is a file; give a folder for the SVG pictures")
    mmap = mission_map(events)
    radii = _radii(events)
    if html is not None:
        try:
            write_atomic(html, replay_html.html(events, mmap, radii))
        except OSError as exc:
            _fail(f"{html}: cannot write the page ({exc.strerror or type(exc).__name__})")
    if svg_dir is not None:
        if mmap is None:
            _fail(f"mission {events[0].get('mission') if events else '?'} has no map in bagm: no pictures")
        pictures = replay_html.phase_svgs(events, mmap, radii)
        try:
            svg_dir.mkdir(exist_ok=True)
            for name, text in pictures:
                write_atomic(svg_dir / name, text)
        except OSError as exc:
            _fail(f"{svg_dir}: cannot write the pictures ({exc.strerror or type(exc).__name__})")


def _source(path: Path | str, importing: bool, quiet: bool = False) -> Any:
    """What ``build_army`` reads for one roster: its path, or with ``--import`` another tool's
    list imported in memory (the importer's notes on standard error unless ``quiet``, as the
    other commands show them)."""
    if not importing:
        return str(path)
    from bagm.data.packs import Catalog
    from bagm.roster.foreign import Imported, load_or_import

    if quiet:
        loaded = load_or_import(path, Catalog(), True)
    else:
        from bagm.cli.common import read_listed

        loaded = read_listed(Path(path), Catalog(), True)
    return loaded if isinstance(loaded, Imported) else str(path)


def _events(rec: Any) -> list[dict[str, Any]]:
    """The record's events as its log holds them (JSON), whatever the engine keeps in memory."""
    from bagm.render.narration import events_from_lines

    return events_from_lines(rec.lines)


def _show(rec: Any, fmt: str, narrate: bool, notes: bool, extra: dict[str, Any] | None = None,
          after: str | None = None) -> None:
    """Print a game's result: the narration if asked, then the score table (or JSON)."""
    steps = None
    if narrate:
        from bagm.render.narration import narrate as tell

        steps = tell(_events(rec))
    if fmt == "json":
        out = {**(extra or {}), **rec.as_dict()}
        if steps is not None:
            out["narration"] = [s.as_dict() for s in steps]
        typer.echo(json.dumps(out, indent=2))
        return
    from bagm.render.game_render import game_summary

    con = console()
    if steps is not None:
        from bagm.render.narration import rich as rich_narration

        con.print(rich_narration(steps))
        con.print()
    con.print(game_summary(rec, verbose_notes=notes))
    if after:
        con.print(after, markup=False)


def play(
    files: Annotated[list[Path], typer.Argument(help="A game script (YAML), or two rosters with --mission")],
    mission: Annotated[str | None, typer.Option("--mission", help=(
        "Mission number or name (with two rosters); 'random' rolls a D33 (symmetric), "
        "'random-asymmetric' a D6"))] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the dice")] = 0,
    bot: Annotated[str, typer.Option("--bot", help="Bot for both players: greedy or random")] = "greedy",
    bot_b: Annotated[str | None, typer.Option("--bot-b", help="Another bot for player B")] = None,
    log: Annotated[Path | None, typer.Option("--log", help="Write the event log (JSON lines)")] = None,
    fmt: Annotated[SimpleFormat, typer.Option("--format", "-f", help="Output format.")] = SimpleFormat.text,
    narrate: NarrateOpt = False,
    notes: NotesOpt = False,
    html: HtmlOpt = None,
    svg: SvgOpt = None,
    import_: ImportOpt = False,
    without: WithoutOpt = None,
) -> None:
    """Play a game: `bagm play SCRIPT` or `bagm play --mission 11 A.yaml B.yaml --seed N --bot greedy`.
    With --import, the rosters may be other tools' army lists (imported in memory)."""
    _format(fmt)
    from bagm.engine.bots import BOTS
    from bagm.engine.game.muster import build_army
    from bagm.engine.log.record import play_bots
    from bagm.engine.log.script import ScriptError, load_script, run_script
    from bagm.engine.state.army import ArmyError
    from bagm.io.yamlsafe import InputError

    stripped = _without(without)
    try:
        if len(files) == 1 and mission is None:
            if stripped:
                _fail("--without-faction-rules is for two rosters with --mission (a script names its own armies)")
            script = load_script(files[0])
            rosters = {p: _source(script.rosters[p], import_) for p in ("A", "B")} if import_ else None
            rec = run_script(script, rosters=rosters)
        elif len(files) == 2:
            if mission is None:
                _fail("two rosters need --mission N (e.g. --mission 11)")
            for b in (bot, bot_b or bot):
                if b not in BOTS:
                    _fail(f"unknown bot '{b}'; bots: {', '.join(BOTS)}")
            if seed < 0:
                _fail("--seed must be 0 or more")
            armies = None
            if import_ or stripped:
                armies = (build_army("A", _source(files[0], import_), faction_rules="A" not in stripped),
                          build_army("B", _source(files[1], import_), faction_rules="B" not in stripped))
            number = _mission(mission, seed)
            rec = play_bots(number, str(files[0]), str(files[1]), seed, bot, bot_b or bot, armies=armies)
        else:
            _fail("give one game script, or two rosters with --mission N")
    except ScriptError as exc:
        _fail(str(exc))
    except (ArmyError, InputError) as exc:
        _fail(str(exc))
    except ValueError as exc:
        _fail(str(exc))
    # the result first: a log or page that cannot be written must not cost the game
    _show(rec, fmt, narrate, notes)
    if log is not None:
        _write_log(log, rec.lines)
    _pictures(_events(rec), html, svg)


def _without(value: str | None) -> frozenset[str]:
    """The players of ``--without-faction-rules``: A, B or both."""
    if value is None:
        return frozenset()
    got = {"a": {"A"}, "b": {"B"}, "both": {"A", "B"}}.get(value.strip().lower())
    if got is None:
        _fail(f"--without-faction-rules takes A, B or both, not '{value}'")
    return frozenset(got)


def _mission(text: str, seed: int) -> int:
    """The mission of --mission (a number, a name, or a random roll told on standard error)."""
    from bagm.engine.rules.missions import resolve_mission

    number, how = resolve_mission(text, seed)
    if how:
        typer.echo(how, err=True)
    return number


def replay(
    log: Annotated[Path, typer.Argument(help="An event log written by 'bagm play --log'")],
    fmt: Annotated[SimpleFormat, typer.Option("--format", "-f", help="Output format.")] = SimpleFormat.text,
    narrate: NarrateOpt = False,
    notes: NotesOpt = False,
    html: HtmlOpt = None,
    svg: SvgOpt = None,
) -> None:
    """Replay a game's event log and check that it reproduces exactly (exit 1 if not).
    --html and --svg draw the game from the log, before the check."""
    _format(fmt)
    from bagm.engine.game.sequence import IllegalAction
    from bagm.engine.log.record import ReplayError
    from bagm.engine.log.record import replay as do_replay

    lines = _read_log(log)
    from bagm.engine.state.army import ArmyError
    from bagm.io.yamlsafe import InputError

    if html is not None or svg is not None:
        from bagm.render.narration import events_from_lines

        _pictures(events_from_lines(lines), html, svg)
    try:
        rec = do_replay(lines)
    except ReplayError as exc:
        if fmt == "json":
            typer.echo(json.dumps({"reproduced": False, "error": str(exc)}))
        else:
            typer.echo(f"bagm: {log}: the replay differs: {exc}", err=True)
        raise typer.Exit(1) from None
    except (IllegalAction, ValueError, KeyError, TypeError, ArmyError, InputError) as exc:
        _fail(f"{log}: cannot replay: {exc}")
    if fmt == "json" and not narrate and not notes:
        typer.echo(json.dumps({"reproduced": True, "events": len(lines), "log_sha256": rec.log_sha256,
                               "winner": rec.winner, "vp": rec.vp}))
        return
    _show(rec, fmt, narrate, notes, extra={"reproduced": True},
          after=f"{log}: reproduced exactly ({len(lines)} events, sha256 {rec.log_sha256})")


def _one_game(args: tuple[int, str, str, int, str, str, bool, bool, frozenset[str]]
              ) -> tuple[int, str | None, int, int, Any]:
    """One game of a simulation: its seed, winner and VP, and (for the report) what its log
    says about units and VP."""
    mission, a, b, seed, bot_a, bot_b, facts, importing, stripped = args
    from bagm.engine.log.record import play_bots

    armies = _ARMIES.get((a, b))
    if armies is None:  # a worker that did not inherit the parent's armies (spawn)
        from bagm.engine.game.muster import build_army
        armies = _ARMIES[(a, b)] = (build_army("A", _source(a, importing, quiet=True), faction_rules="A" not in stripped),
                                    build_army("B", _source(b, importing, quiet=True), faction_rules="B" not in stripped))
    from bagm.engine.log.simulation import many_games

    with many_games():  # the collector paused for the game (a simulation owns its process)
        rec = play_bots(mission, a, b, seed, bot_a, bot_b, armies=armies)
    detail = None
    if facts:
        from bagm.render.sim_report import game_facts

        detail = game_facts(_events(rec))
    return seed, rec.winner, rec.vp["A"], rec.vp["B"], detail


_ARMIES: dict[tuple[str, str], Any] = {}


def _quiet_worker() -> None:
    """A worker of the pool ignores Ctrl-C: the parent stops the pool (no traceback per worker).
    It starts with Ctrl-C held back (see :func:`_run_games`), released once ignored."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _progress() -> Any:
    """The progress bar of a simulation, on standard error: games done, rate, time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("left"),
                    TimeRemainingColumn(), console=console(stderr=True), transient=True,
                    refresh_per_second=8, speed_estimate_period=60)


def _run_games(tasks: list[Any], jobs: int, results: list[Any]) -> None:
    """Play the tasks on ``jobs`` processes, appending each result as it comes, with progress.
    Results come back in the order they finish (the caller sorts them by seed)."""
    import time

    with _progress() as progress:
        task = progress.add_task("simulating", total=len(tasks), rate="")
        start = time.perf_counter()

        def done(r: Any) -> None:
            results.append(r)
            took = time.perf_counter() - start
            progress.update(task, advance=1, rate=f"{len(results) / took:.1f} games/s" if took > 0 else "")

        if jobs == 1:
            for t in tasks:
                done(_one_game(t))
            return
        import multiprocessing as mp
        import os
        import signal

        ctx = mp.get_context("spawn" if os.name == "nt" else "fork")
        # small chunks: the bar moves game by game and the estimate follows the real rate
        chunk = max(1, min(8, len(tasks) // (jobs * 32)))
        # Ctrl-C is held back while the workers start: a worker forked before it ignores Ctrl-C
        # would die of it with a traceback, and one arriving before the pool is entered would
        # leave the pool to the exit handlers; released inside, it stops the pool (its __exit__)
        mask = getattr(signal, "pthread_sigmask", None)
        if mask is not None:
            mask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with ctx.Pool(jobs, initializer=_quiet_worker) as pool:
                if mask is not None:
                    mask(signal.SIG_UNBLOCK, {signal.SIGINT})
                for r in pool.imap_unordered(_one_game, tasks, chunksize=chunk):
                    done(r)
        finally:
            if mask is not None:
                mask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _samples(results: list[Any], most: int = 4) -> list[int]:
    """The seeds of a few games worth watching: the first win of each player, the first draw,
    then the first games, up to ``most``."""
    picked: list[int] = []
    for want in ("A", "B", None):
        seed = next((r[0] for r in results if r[1] == want), None)
        if seed is not None and seed not in picked:
            picked.append(seed)
    for r in results:
        if len(picked) >= most:
            break
        if r[0] not in picked:
            picked.append(r[0])
    return sorted(picked[:most])


def _sample_games(path: Path, report: Any, rows: list[Any], mission: int, a: str, b: str,
                  bots: tuple[str, str]) -> dict[Path, str]:
    """Play again the few games the report keeps (the same seed plays the same game) and name
    their logs and replay pages in a folder beside the report: {file: text}, written later."""
    from bagm.engine.log.record import play_bots
    from bagm.render import replay_html, sim_report
    from bagm.render.narration import mission_map

    folder = path.with_name(path.stem + "_games")
    files: dict[Path, str] = {}
    for seed in _samples(rows):
        rec = play_bots(mission, a, b, seed, *bots, armies=_ARMIES.get((a, b)))
        log, page = folder / f"seed{seed}.jsonl", folder / f"seed{seed}.html"
        events = _events(rec)
        files[log] = "".join(line + "\n" for line in rec.lines)
        files[page] = replay_html.html(events, mission_map(events))
        report.samples.append(sim_report.Sample(seed, rec.winner, dict(rec.vp),
                                                f"{folder.name}/{log.name}", f"{folder.name}/{page.name}"))
    return files


def _write_report(path: Path, report: Any, files: dict[Path, str]) -> None:
    """Write the sample games, then the report that links to them."""
    from bagm.io.atomic import write_atomic
    from bagm.render import sim_report

    try:
        for f, text in files.items():
            f.parent.mkdir(exist_ok=True)
            write_atomic(f, text)
        write_atomic(path, sim_report.html(report))
    except OSError as exc:  # the user's path and the system's reason (never a temporary file)
        _fail(f"{path}: cannot write the report ({exc.strerror or type(exc).__name__})")


def simulate(
    roster_a: Annotated[Path, typer.Argument(help="Roster of player A")],
    roster_b: Annotated[Path, typer.Argument(help="Roster of player B")],
    mission: Annotated[str, typer.Option("--mission", help=(
        "Mission number or name; 'random' rolls a D33 (symmetric), 'random-asymmetric' a D6 "
        "(once, with --seed)"))] = "11",
    games: Annotated[int, typer.Option("--games", help="How many games")] = 100,
    jobs: Annotated[int, typer.Option("--jobs", help="Processes (0: every core; never more than the cores or the games)")] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game")] = 0,
    bot: Annotated[str, typer.Option("--bot", help="Bot for both players")] = "greedy",
    bot_b: Annotated[str | None, typer.Option("--bot-b", help="Another bot for player B")] = None,
    fmt: Annotated[SimpleFormat, typer.Option("--format", "-f", help="Output format.")] = SimpleFormat.text,
    html: Annotated[Path | None, typer.Option(
        "--html", help="Write a report page (charts, units, sample games to watch beside it)")] = None,
    import_: ImportOpt = False,
    without: WithoutOpt = None,
) -> None:
    """Bot against bot, many games on all cores: win rates with 95% intervals, mean VP, histogram.
    Progress goes to standard error; Ctrl-C stops and reports the games played so far."""
    _format(fmt)
    import time

    from bagm.engine.bots import BOTS
    from bagm.engine.game.muster import build_army
    from bagm.engine.rules.editions import edition_of
    from bagm.engine.state.army import ArmyError
    from bagm.io.yamlsafe import InputError
    from bagm.render.game_render import wilson

    if games < 1 or games > 1_000_000:
        _fail("--games must be from 1 to 1,000,000")
    if jobs < 0:
        _fail("--jobs must be 0 (every core) or more")
    if seed < 0:
        _fail("--seed must be 0 or more")
    for name in (bot, bot_b or bot):
        if name not in BOTS:
            _fail(f"unknown bot '{name}'; bots: {', '.join(BOTS)}")
    if html is not None and html.is_dir():
        _fail(f"{html}: is a folder; give a file name for the report")
    stripped = _without(without)
    try:
        number = _mission(mission, seed)
        army_a = build_army("A", _source(roster_a, import_), faction_rules="A" not in stripped)
        army_b = build_army("B", _source(roster_b, import_), faction_rules="B" not in stripped)
        edition = edition_of(army_a, army_b).name  # both rosters' edition, before any worker
    except (ArmyError, InputError, ValueError) as exc:
        _fail(str(exc))
    _ARMIES[(str(roster_a), str(roster_b))] = (army_a, army_b)  # the workers inherit them (fork)
    cores = _cores()
    jobs = min(jobs or cores, cores, games)  # more processes than cores or games only cost
    facts = html is not None
    tasks = [(number, str(roster_a), str(roster_b), seed + i, bot, bot_b or bot, facts, import_, stripped)
             for i in range(games)]
    results: list[tuple[int, str | None, int, int, Any]] = []
    start = time.perf_counter()
    interrupted = False
    try:
        _run_games(tasks, jobs, results)
    except KeyboardInterrupt:
        interrupted = True
    took = time.perf_counter() - start
    results.sort(key=lambda r: r[0])  # by seed: the same figures whatever order games finished in
    n = len(results)
    if n == 0:
        typer.echo("bagm: interrupted before any game finished", err=True)
        raise typer.Exit(130)
    counts = {"A": sum(1 for r in results if r[1] == "A"), "B": sum(1 for r in results if r[1] == "B"),
              "draw": sum(1 for r in results if r[1] is None)}
    hist = {p: [0] * 11 for p in ("A", "B")}
    for _, _, va, vb, _ in results:
        hist["A"][min(10, va // 10)] += 1
        hist["B"][min(10, vb // 10)] += 1
    sim = {"mission": number, "games": n, "asked": games, "interrupted": interrupted, "seed": seed,
           "jobs": jobs, "bots": {"A": bot, "B": bot_b or bot}, "armies": {p: a.title + ("" if a.faction_rules else " (without its faction rules)")
                      for p, a in (("A", army_a), ("B", army_b))},
           **({"without_faction_rules": sorted(stripped)} if stripped else {}),
           "results": {k: {"count": c, "rate": c / n, "ci": list(wilson(c, n))} for k, c in counts.items()},
           "mean_vp": {"A": sum(r[2] for r in results) / n, "B": sum(r[3] for r in results) / n},
           "histogram": hist, "seconds": took, "games_per_second": n / took if took else 0.0,
           **({"edition": edition} if edition != "2024" else {})}
    report, files = None, {}
    if html is not None:
        from bagm.render.sim_report import Report

        report = Report(sim, [(r[2], r[3]) for r in results], [r[4] for r in results])
        if not interrupted:
            files = _sample_games(html, report, results, number, str(roster_a), str(roster_b),
                                  (bot, bot_b or bot))
    # the result first: a report that cannot be written must not cost the figures
    if fmt == "json":
        typer.echo(json.dumps(report.as_dict() if report is not None else sim, indent=2))
    else:
        from bagm.render.game_render import simulation_summary
        console().print(simulation_summary(sim))
    if report is not None and html is not None and not interrupted:
        _write_report(html, report, files)
    if interrupted:
        typer.echo(f"bagm: interrupted after {n} of {games} games; the figures are for those"
                   + ("; no report written" if html is not None else ""), err=True)
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("play")(play)
    app.command("replay")(replay)
    app.command("simulate")(simulate)
