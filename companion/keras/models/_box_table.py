"""`box_table`: the plain-text table Keras 3's ``model.summary()`` draws (with the ``rich`` package).

Keras asks for fixed column widths and a total width; the columns, one space of padding on
each side plus the box lines, are shrunk evenly until they fit. A cell's text is wrapped at
spaces; a word longer than its column is cut with ``…``. The header row has heavy lines
(``┏━┳━┓``, ``┡━╇━┩``), the body light ones, with a rule between rows. This module writes that
layout itself: companion does not depend on ``rich``.
"""

import os
import re

_WORD = re.compile(r"\s*\S+\s*")
_TRAILING_SPACE = re.compile(r"\s+$")


def box_table(header, rows, widths, justify, table_width):
    """The table's lines (no line breaks).

    Args:
        header: the column titles.
        rows: the body rows, one string per column.
        widths: the width asked for each column's text.
        justify: ``"left"``, ``"right"`` or ``"center"`` per column.
        table_width: the total width, box lines included.
    """
    columns = column_widths(widths, table_width)
    lines = ["┏" + "┳".join("━" * w for w in columns) + "┓"]
    lines += ["┃" + "┃".join(cells) + "┃" for cells in _row_lines(header, columns, justify, "bottom")]
    lines.append("┡" + "╇".join("━" * w for w in columns) + "┩")
    for index, row in enumerate(rows):
        if index:
            lines.append("├" + "┼".join("─" * w for w in columns) + "┤")
        lines += ["│" + "│".join(cells) + "│" for cells in _row_lines(row, columns, justify, "top")]
    lines.append("└" + "┴".join("─" * w for w in columns) + "┘")
    return lines


def column_widths(widths, table_width):
    """Each column's width with its padding: the asked widths, shrunk evenly to fit the table."""
    room = table_width - (len(widths) + 1)  # the box's vertical lines
    if room < 1:
        return [1] * len(widths)
    columns = [min(w + 2, room) for w in widths]
    excess = sum(columns) - room
    if excess > 0:
        remaining, shares, result = excess, sum(1 for w in columns if w), []
        for width in columns:
            if width and shares:
                taken = min(width, round(remaining / shares))
                result.append(width - taken)
                remaining -= taken
                shares -= 1
            else:
                result.append(width)
        columns = result
    return columns


def console_width():
    """The width the summary's lines are cut at: ``COLUMNS``, else the terminal's, else 80."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns):
        return int(columns)
    for descriptor in (0, 1, 2):
        try:
            width = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        if width:
            return width
    return 80


def _row_lines(cells, columns, justify, vertical):
    """The text lines of one table row: each cell wrapped and padded to its column."""
    wrapped = [_wrap(str(text), max(width - 2, 0), how) for text, width, how in zip(cells, columns, justify)]
    height = max(len(lines) for lines in wrapped)
    out = [[] for _ in range(height)]
    for lines, width in zip(wrapped, columns):
        blank = " " * max(width - 2, 0)
        missing = [blank] * (height - len(lines))
        lines = missing + lines if vertical == "bottom" else lines + missing
        for line_no, line in enumerate(lines):
            out[line_no].append(_fit(" " + line + " ", width))
    return out


def _fit(text, width):
    return text[:width] if len(text) > width else text + " " * (width - len(text))


def _wrap(text, width, justify):
    """``text`` broken at spaces into lines of ``width``; too-long words end in ``…``."""
    breaks, offset = [], 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group()
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width or offset:
            if start:
                breaks.append(start)
            offset = len(word)
    bounds = [0, *breaks, len(text)]
    lines = []
    for start, end in zip(bounds, bounds[1:]):
        line = text[start:end]
        if len(line) > width:  # drop the spaces that overflow the column
            spaces = _TRAILING_SPACE.search(line)
            if spaces is not None:
                line = line[:len(line) - min(len(spaces.group()), len(line) - width)]
        lines.append(_justify(line, width, justify))
    return lines


def _justify(line, width, justify):
    if justify != "left":
        line = line.rstrip()
    if len(line) > width:
        line = line[:max(width - 1, 0)] + "…"
    if justify == "right":
        return " " * (width - len(line)) + line
    if justify == "center":
        line = " " * ((width - len(line)) // 2) + line
    return line + " " * (width - len(line))
