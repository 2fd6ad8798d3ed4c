"""Which roster files git reports as changed, for ``bagm validate --changed-only``.

Without a base: what changed since the last commit (staged, unstaged, untracked). With a base
(e.g. ``origin/main`` in a pull request): what changed since the branch left it, committed or
not, plus untracked files. Deleted files are left out: there is nothing to validate.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from bagm.errors import BagmError


class GitError(BagmError):
    """git is missing, the folder is not in a repository, or the base is not a revision."""


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              encoding="utf-8", errors="surrogateescape", check=False)
    except FileNotFoundError:
        raise GitError("--changed-only needs git, which was not found on PATH") from None
    if done.returncode != 0:
        raise GitError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                       else f"git {' '.join(args)} failed")
    return done.stdout


def repo_root(folder: Path) -> Path:
    """The top folder of the git work tree holding ``folder``."""
    try:
        return Path(_git(folder, "rev-parse", "--show-toplevel").strip())
    except GitError as exc:
        if "not a git repository" in str(exc):
            raise GitError(f"--changed-only needs a git repository; {folder} is not inside "
                           "one") from None
        raise


def changed_files(root: Path, base: str | None = None) -> set[Path]:
    """Absolute paths of the files changed in the work tree at ``root``."""
    if base is not None:
        if not base or base.startswith("-"):
            raise GitError(f"--base '{base}' is not a git revision")
        try:
            _git(root, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}")
        except GitError:
            raise GitError(f"unknown git revision '{base}' (in CI, fetch it first, e.g. "
                           "actions/checkout with fetch-depth: 0)") from None
        try:
            since = _git(root, "merge-base", base, "HEAD").strip()
        except GitError:  # unrelated histories: compare with the base itself
            since = base
        names = _git(root, "diff", "--name-only", "-z", "--diff-filter=d", since, "--")
    else:
        try:
            _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
            names = _git(root, "diff", "--name-only", "-z", "--diff-filter=d", "HEAD", "--")
        except GitError:  # no commit yet: every tracked file is new
            names = _git(root, "ls-files", "-z")
    untracked = _git(root, "ls-files", "-z", "--others", "--exclude-standard")
    return {root / n for n in (names + untracked).split("\0") if n}


def changed_only(paths: list[Path], base: str | None = None) -> list[Path]:
    """The paths (in their order) that git reports as changed."""
    roots: dict[Path, Path] = {}
    changed: dict[Path, set[Path]] = {}
    out: list[Path] = []
    for path in paths:
        folder = Path(os.path.realpath(path if path.is_dir() else path.parent))
        if folder not in roots:
            roots[folder] = repo_root(folder)
        root = roots[folder]
        if root not in changed:
            changed[root] = {Path(os.path.realpath(p)) for p in changed_files(root, base)}
        if Path(os.path.realpath(path)) in changed[root]:
            out.append(path)
    return out
