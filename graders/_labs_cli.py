"""The `companion-labs` command (also `python -m graders build`): generate, check or refresh labs/."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graders._assignments import LABS, SOLUTIONS
from graders._errors import NotebookFormatError
from graders._labs import build, last_backups, out_of_sync


def main(argv: list[str] | None = None) -> int:
    """`build [--check] [--solutions DIR] [--labs DIR]`; exit 1 when --check finds labs out of sync."""
    options = parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if options.command == "refresh":
            _refresh_all(options.solutions, options.notebooks)
        elif options.check:
            return _check(options.solutions, options.labs)
        changed = build(options.solutions, options.labs)
    except NotebookFormatError as error:
        print(f"companion-labs: error: {error}", file=sys.stderr)
        return 2
    for path in changed:
        if path.is_relative_to(options.solutions.resolve()) or path.is_relative_to(options.solutions):
            print(f"[labs] cleaned {_short(path)}: it now opens in JupyterLab with nothing to rewrite")
        else:
            print(f"[labs] wrote {_short(path)}" if path.exists() else f"[labs] removed stale {_short(path)}")
    for copy in last_backups:
        print(f"[labs] that lab had been run or edited: your version is kept in {_short(copy)}")
    print(f"[labs] {len(changed)} lab(s) changed; labs/ is in sync with solutions/")
    return 0


def parser() -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(prog="companion-labs", description="Generate labs/ from solutions/.")
    commands = cli.add_subparsers(dest="command", required=True)
    command = commands.add_parser("build", help="write labs/ (or check it with --check)")
    command.add_argument("--check", action="store_true", help="exit 1 if labs/ is out of sync; write nothing")
    command.add_argument("--solutions", type=Path, default=SOLUTIONS, help=argparse.SUPPRESS)
    command.add_argument("--labs", type=Path, default=LABS, help=argparse.SUPPRESS)
    refresh = commands.add_parser(
        "refresh", help="re-execute solution notebooks in place (stored outputs), then build labs/")
    refresh.add_argument("notebooks", nargs="*", type=Path, help="notebooks to run (default: all)")
    refresh.add_argument("--solutions", type=Path, default=SOLUTIONS, help=argparse.SUPPRESS)
    refresh.add_argument("--labs", type=Path, default=LABS, help=argparse.SUPPRESS)
    refresh.set_defaults(check=False)
    return cli


def _refresh_all(solutions: Path, notebooks: list[Path]) -> None:
    """Store the public checks' expected outputs of the assignments concerned, then execute notebooks."""
    from graders._refresh import refresh

    notebooks = [path.resolve() for path in notebooks or sorted(solutions.rglob("*.ipynb"))
                 if ".ipynb_checkpoints" not in path.parts]
    _refresh_expected(notebooks)
    for notebook in notebooks:
        print(f"[labs] executed {_short(notebook)} in {refresh(notebook):.1f} s")


def _refresh_expected(notebooks: list[Path]) -> None:
    """The solution notebooks print their public checks' verdicts, so the expectations come first."""
    from graders._assignments import load_assignment, registered
    from graders._expected import write_expected

    for name in registered():
        if load_assignment(name).solution in notebooks:
            written = write_expected(name)
            if written:
                print(f"[labs] stored the public checks' expected outputs of {name} in {_short(written)}")


def _check(solutions: Path, labs: Path) -> int:
    from graders._expected import stale_expected

    expected = stale_expected()
    if expected:
        print("companion-labs: error: the public checks' expected outputs of " + ", ".join(expected) +
              " are missing or out of date with their public cases. Run `companion-labs refresh "
              "solutions/.../<assignment>.ipynb` and commit graders/expected/.", file=sys.stderr)
        return 1
    stale = out_of_sync(solutions, labs)
    if not stale:
        print("[labs] labs/ is in sync with solutions/")
        return 0
    print("companion-labs: error: labs/ is out of sync with solutions/ (or a solution would not open clean "
          "in JupyterLab): " + ", ".join(map(_short, stale)) +
          ". Run `companion-labs build` (or `python -m graders build`) and commit it.", file=sys.stderr)
    return 1


def _short(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
