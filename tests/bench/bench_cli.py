"""Benchmarks (not part of the test run): ``python tests/bench/bench_cli.py [LABEL=VENV ...]``.

The front door's figures (issue 16), for one or more installs side by side in one run: each
``LABEL=VENV`` is a virtual environment with bagm installed (a regular, non-editable install);
without any, the environment running this script. Runs of every install are interleaved, so a
busy machine slows them alike, and CPU time (user + system) is the figure reported: other jobs
on a shared machine stretch a run's wall time, not its CPU time.

1. Start-up: ``bagm validate`` of one roster, warm cache, against the issue's baseline, a bare
   ``python -c "import typer, rich, pydantic, yaml"`` in the same environment (target: at most
   1.2x); beside them the interpreter alone, the *empty typer app* (one command without
   parameters and without completion: what any typer app costs a run, before its
   parameters) and the *typer floor*: a typer app with the same parameters as ``bagm
   validate`` that does nothing (from typer 0.29 every parameter a run processes, typer's own
   ``--help`` included, is converted through a pydantic TypeAdapter). Then where the time of
   ``bagm validate`` goes, each part the difference of two runs: importing typer; typer's
   parsing (the floor less the import); the libraries the run uses besides typer (the floor
   importing PyYAML and the Rich modules a card prints with, less the floor); bagm's own
   modules and work (the rest). And *bagm without a command line*: the same validation and
   card called directly (``validate_path``, ``print_reports``; typer imported, as
   ``bagm.cli.common`` imports it, but not run): what a run would cost if parsing its command
   line cost nothing.
2. Throughput: ``bagm validate FOLDER`` of 1,000 rosters, one process, its default output (the
   linter lines and the summary) into a pipe (target: under 0.5 s); and, in this process, the
   validation alone.
3. Import: ``bagm import`` of a 100-unit app export (``bench_import.export_text``), the whole
   command, CPU time (target: under 0.3 s).
4. Loading every bundled pack, cold (pydantic validation) and from the cache, and its memory.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench_import import export_text  # the 100-unit app export (tests/bench/ is on sys.path)

REPO = Path(__file__).resolve().parents[2]
ROSTER = REPO / "rosters" / "grey_knights_void_purge_force.yaml"
RUNS = int(os.environ.get("BAGM_BENCH_RUNS", "21"))  # fewer for a quick look
BASELINE = "import typer, rich, pydantic, yaml"

# a typer app with bagm validate's parameters (a group, its two flags, the command's eight)
FLOOR = '''
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

app = typer.Typer()


class Format(str, Enum):
    text = "text"
    json = "json"
    github = "github"


@app.callback()
def options(version: bool = False, debug: bool = False) -> None:
    pass


@app.command()
def validate(paths: Annotated[list[Path], typer.Argument()],
             format: Annotated[Format, typer.Option("--format", "-f")] = Format.text,
             cards: bool = False, brief: bool = False,
             data: Annotated[Optional[list[Path]], typer.Option("--data")] = None,
             import_: Annotated[bool, typer.Option("--import")] = False,
             changed_only: bool = False, base: Optional[str] = None) -> None:
    pass


app()
'''


# the floor, then the libraries bagm validate's run imports besides typer: PyYAML (rosters) and
# the Rich modules a card prints with
LIBRARIES = FLOOR.replace("             changed_only: bool = False, base: Optional[str] = None) -> None:\n"
                          "    pass\n",
                          "             changed_only: bool = False, base: Optional[str] = None) -> None:\n"
                          "    import yaml, rich.console, rich.table, rich.text  # noqa: E401, F401\n")
assert LIBRARIES != FLOOR

# bagm validate's work without a command line: the calls the command makes for one roster (the
# catalogue, the validation, the card), typer imported (bagm.cli.common imports it) but not run
NO_PARSE = '''
import sys
from pathlib import Path

from bagm.cli.common import console
from bagm.data.packs import Catalog, data_dirs
from bagm.render.rich_render import print_reports
from bagm.roster.validate import validate_path

report = validate_path(Path(sys.argv[1]), Catalog(data_dirs(None)))
print_reports(console(), [report], cards=True)
'''


# the least a typer app is: one command, no parameters of its own, no completion options
EMPTY = '''
import typer

app = typer.Typer(add_completion=False)


@app.command()
def validate() -> None:
    pass


app()
'''


def cpu(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds (user + system) of one run of ``cmd``, its output into a pipe."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def versions(python: str) -> str:
    code = ("from importlib.metadata import version as v, PackageNotFoundError as E\n"
            "def g(n):\n    try: return v(n)\n    except E: return None\n"
            "print(f\"typer {g('typer')}\" + (f\", click {g('click')}\" if g('click') else '')"
            " + f\", pydantic {g('pydantic')}\")")
    return subprocess.run([python, "-c", code], capture_output=True, text=True).stdout.strip()


def side_by_side(installs: dict[str, Path]) -> None:
    rosters = sorted((REPO / "rosters").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "rosters"
        folder.mkdir()
        for i in range(1000):
            (folder / f"r{i:04}.yaml").write_text(rosters[i % len(rosters)].read_text(encoding="utf-8"),
                                                  encoding="utf-8")
        floor = Path(tmp) / "floor.py"
        floor.write_text(FLOOR, encoding="utf-8")
        empty = Path(tmp) / "empty.py"
        empty.write_text(EMPTY, encoding="utf-8")
        libraries = Path(tmp) / "libraries.py"
        libraries.write_text(LIBRARIES, encoding="utf-8")
        no_parse = Path(tmp) / "no_parse.py"
        no_parse.write_text(NO_PARSE, encoding="utf-8")
        export = Path(tmp) / "big.txt"
        export.write_text(export_text(), encoding="utf-8")
        caches = {label: Path(tmp) / f"cache-{label}" for label in installs}
        commands = {}
        for label, venv in installs.items():
            python, bagm = str(venv / "bin" / "python"), str(venv / "bin" / "bagm")
            env = dict(os.environ, BAGM_CACHE_DIR=str(caches[label]))
            subprocess.run([bagm, "validate", str(folder)], env=env, stdout=subprocess.DEVNULL)
            subprocess.run([bagm, "import", str(export), "-o", str(Path(tmp) / f"{label}.yaml"),
                            "--force"], env=env, capture_output=True)  # its pack cached too
            commands[label] = {
                "interpreter": ([python, "-c", "pass"], None),
                "baseline": ([python, "-c", BASELINE], None),
                "typer": ([python, "-c", "import typer"], None),
                "empty": ([python, str(empty)], None),
                "floor": ([python, str(floor), "validate", str(ROSTER)], None),
                "libraries": ([python, str(libraries), "validate", str(ROSTER)], None),
                "validate": ([bagm, "validate", str(ROSTER)], env),
                "no_parse": ([python, str(no_parse), str(ROSTER)], env),
                "import": ([bagm, "import", str(export), "-o", str(Path(tmp) / f"{label}.yaml"),
                            "--force"], env),
            }
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(RUNS):  # interleaved: every install and command in each round
            for label, cmds in commands.items():
                for what, (cmd, env) in cmds.items():
                    times.setdefault((label, what), []).append(cpu(cmd, env))
        many: dict[str, list[float]] = {}
        for _ in range(5):
            for label, venv in installs.items():
                env = dict(os.environ, BAGM_CACHE_DIR=str(caches[label]))
                many.setdefault(label, []).append(
                    cpu([str(venv / "bin" / "bagm"), "validate", str(folder)], env))
    meds = {label: {what: statistics.median(times[(label, what)]) * 1000
                    for what in commands[label]} for label in installs}
    names = {label: f"{label} ({versions(str(venv / 'bin' / 'python'))})"
             for label, venv in installs.items()}
    print("| install | interpreter | baseline | empty typer app | typer floor | "
          "bagm validate, one roster | ratio to baseline (target 1.2x) | ratio to typer floor | "
          "1,000 rosters (target 0.5 s) | import, 100-unit app export (target 0.3 s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label in installs:
        med = meds[label]
        print(f"| {names[label]} "
              f"| {med['interpreter']:.0f} ms | {med['baseline']:.0f} ms "
              f"| {med['empty']:.0f} ms ({med['empty'] / med['baseline']:.2f}x) "
              f"| {med['floor']:.0f} ms | {med['validate']:.0f} ms "
              f"| {med['validate'] / med['baseline']:.2f}x | {med['validate'] / med['floor']:.2f}x "
              f"| {min(many[label]):.2f} s | {med['import'] / 1000:.2f} s |")
    print()
    print("| install | bagm validate | importing typer | typer's parsing | PyYAML and Rich's "
          "card modules | bagm's own | bagm without a command line (ratio to baseline) |")
    print("|---|---|---|---|---|---|---|")
    for label in installs:
        med = meds[label]
        print(f"| {names[label]} | {med['validate']:.0f} ms | {med['typer']:.0f} ms "
              f"| {med['floor'] - med['typer']:.0f} ms | {med['libraries'] - med['floor']:.0f} ms "
              f"| {med['validate'] - med['libraries']:.0f} ms "
              f"| {med['no_parse']:.0f} ms ({med['no_parse'] / med['baseline']:.2f}x) |")
    print(f"(CPU time; medians of {RUNS} interleaved runs, the 1,000 rosters the best of 5)")


def validation_alone(n: int = 1000) -> None:
    from bagm.data.packs import Catalog
    from bagm.roster.validate import validate_path

    rosters = sorted((REPO / "rosters").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(n):
            p = Path(tmp) / f"r{i:04}.yaml"
            p.write_text(rosters[i % len(rosters)].read_text(encoding="utf-8"), encoding="utf-8")
            paths.append(p)
        catalog = Catalog()
        [validate_path(p, catalog) for p in paths[:len(rosters)]]  # every pack loaded
        start = time.process_time()
        reports = [validate_path(p, catalog) for p in paths]
        took = time.process_time() - start
    valid = sum(r.valid for r in reports)
    print(f"validation alone, in this process, packs loaded: {n} rosters ({valid} valid) in "
          f"{took:.2f} s CPU ({took / n * 1000:.2f} ms each)")


def packs() -> None:
    from bagm.data.packs import Catalog

    with tempfile.TemporaryDirectory() as cache:
        os.environ["BAGM_CACHE_DIR"] = cache
        tracemalloc.start()
        start = time.perf_counter()
        factions = Catalog().all()
        cold = time.perf_counter() - start
        memory = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        start = time.perf_counter()
        Catalog().all()
        warm = time.perf_counter() - start
    units = sum(len(f.pack.units) for f in factions)
    print(f"all {len(factions)} bundled packs ({units} units): cold {cold * 1000:.0f} ms "
          f"(includes pydantic), cached {warm * 1000:.0f} ms, {memory / 1e6:.1f} MB")


if __name__ == "__main__":
    given = dict(arg.split("=", 1) for arg in sys.argv[1:])
    side_by_side({label: Path(venv) for label, venv in given.items()} or {"this": Path(sys.prefix)})
    validation_alone()
    packs()
