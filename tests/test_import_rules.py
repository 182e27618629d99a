"""ARCHITECTURE.md's import rules: a module imports at its top; an import inside a function needs a
one-line ``# deferred: <why>`` comment directly above it (or above the group of imports it is in)."""

import ast
import pathlib

import companion

ROOT = pathlib.Path(companion.__file__).parent


def _function_level_imports(tree):
    seen = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Import, ast.ImportFrom)) and sub.lineno not in seen:
                    seen.add(sub.lineno)
                    yield sub


def _undocumented(path):
    """The line of each function-level import in ``path`` without its ``# deferred:`` reason."""
    lines = path.read_text().splitlines()
    tree = ast.parse("\n".join(lines))
    import_lines = set()  # every line of every import statement (multi-line ones included)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            import_lines.update(range(node.lineno, node.end_lineno + 1))
    missing = []
    for node in _function_level_imports(tree):
        above = node.lineno - 1
        while above in import_lines:  # one comment covers a group of consecutive imports
            above -= 1
        comment = lines[above - 1].strip() if above >= 1 else ""
        reason = comment.removeprefix("# deferred:").strip()
        if not comment.startswith("# deferred:") or not reason:
            missing.append(node.lineno)
    return missing


def test_function_level_imports_say_why_they_are_deferred():
    missing = [f"{path.relative_to(ROOT.parent)}:{line}"
               for path in sorted(ROOT.rglob("*.py")) for line in _undocumented(path)]
    assert not missing, (
        "function-level imports without a '# deferred: <why>' comment directly above them (move "
        "them to the module top, or say which cycle or which heavy module needs them deferred; "
        "ARCHITECTURE.md, section Imports):\n" + "\n".join(missing))


def test_the_scan_sees_an_undocumented_import(tmp_path):
    path = tmp_path / "module.py"
    path.write_text("import os\n\n\ndef f():\n    # deferred: a reason\n    import re\n    import sys\n\n"
                    "    # a comment that is not a reason\n    import json\n    return os, re, sys, json\n")
    assert _undocumented(path) == [10]
