"""Blanking exercise regions: the text transform that turns a solution cell into a lab cell.

A region is the lines between `### START CODE HERE ###` and `### END CODE HERE ###` (markers kept).
It becomes one `NAME = None  # YOUR CODE HERE` line per distinct `NAME = ...` assignment at the
region's base indentation, or `pass  # YOUR CODE HERE` when it has none.
"""

from __future__ import annotations

import re

from graders._errors import NotebookFormatError

START = re.compile(r"^[ \t]*### START CODE HERE( ###)?[ \t]*$")
END = re.compile(r"^[ \t]*### END CODE HERE( ###)?[ \t]*$")
ASSIGNMENT = re.compile(r"([A-Za-z_]\w*)[ \t]*(:[^=]*)?=(?!=)")
PLACEHOLDER = "None  # YOUR CODE HERE"


def has_regions(source: str) -> bool:
    """Whether a cell's source contains an exercise region marker."""
    return any(START.match(line) or END.match(line) for line in source.splitlines())


def blank_regions(source: str) -> str:
    """`source` with every region replaced by placeholders; NotebookFormatError for unbalanced markers."""
    lines, output, region, marker = source.splitlines(keepends=True), [], None, ""
    for number, line in enumerate(lines, 1):
        if START.match(line):
            _expect(region is None, f"line {number} starts a region inside another one")
            region, marker = [], _indent(line)
            output.append(line)
        elif END.match(line):
            _expect(region is not None, f"line {number} ends a region that was never started")
            output += placeholders(region, marker)
            output.append(line)
            region = None
        elif region is not None:
            region.append(line)
        else:
            output.append(line)
    _expect(region is None, "a `### START CODE HERE ###` has no matching `### END CODE HERE ###`")
    return "".join(output)


def region_texts(source: str) -> list[str]:
    """The solution text inside each region of `source` (to check that labs never contain it)."""
    texts, region = [], None
    for line in source.splitlines(keepends=True):
        if START.match(line):
            region = []
        elif END.match(line) and region is not None:
            texts.append("".join(region))
            region = None
        elif region is not None:
            region.append(line)
    return texts


def placeholders(region: list[str], marker_indent: str) -> list[str]:
    """The lines that replace a region's solution lines."""
    code = [line for line in region if line.strip() and not line.lstrip().startswith("#")]
    base = min((_indent(line) for line in code), key=len, default=marker_indent)
    names = []
    for line in code:
        match = ASSIGNMENT.match(line[len(base):]) if _indent(line) == base else None
        if match and match.group(1) not in names:
            names.append(match.group(1))
    if not names:
        return [f"{base}pass  # YOUR CODE HERE\n"]
    return [f"{base}{name} = {PLACEHOLDER}\n" for name in names]


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" \t"))]


def _expect(condition: bool, problem: str) -> None:
    if not condition:
        raise NotebookFormatError(f"Unbalanced exercise markers: {problem}. Expected each "
                                  "`### START CODE HERE ###` line to be closed by `### END CODE HERE ###`.")
