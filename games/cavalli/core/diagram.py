"""Pictures of a position: an ASCII diagram and per-square cells for a page renderer.

The diagram, rank 10 on top: a usable square shows its number, an unusable one ``..``,
a knight ``W``/``B`` followed by the number it stands on; then the file letters and a
status line.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cavalli.core.base import Side
from games.cavalli.core.board import FILES, SIZE, Square, is_double, square
from games.cavalli.core.notation import format_square
from games.cavalli.core.position import Position


@dataclass(frozen=True)
class Cell:
    """What a renderer needs to draw one square."""

    square: Square
    name: str
    number: int
    usable: bool
    knight: Side | None
    double: bool

    @property
    def label(self) -> str:
        """Two-digit number, ``"57"``, ``"05"``."""
        return f"{self.number:02d}"


def cells(position: Position) -> list[list[Cell]]:
    """The board as rows of :class:`Cell`, rank 10 first, each row file A first.

    >>> from games.cavalli import Board
    >>> rows = cells(Position.initial(Board.from_seed(1)))
    >>> len(rows), len(rows[0]), rows[-1][0].name, rows[0][-1].name
    (10, 10, 'A1', 'J10')
    """
    rows = []
    for rank in range(SIZE, 0, -1):
        row = []
        for file in range(SIZE):
            sq = square(file, rank)
            number = position.number_at(sq)
            row.append(
                Cell(
                    square=sq,
                    name=format_square(sq),
                    number=number,
                    usable=position.is_usable(sq),
                    knight=position.knight_at(sq),
                    double=is_double(number),
                )
            )
        rows.append(row)
    return rows


def diagram(position: Position) -> str:
    """An ASCII picture of ``position`` (see the module docstring).

    >>> from games.cavalli import Board, Move
    >>> pos = Position.initial(Board.from_seed(7)).apply(Move(0, choice=2))
    >>> print(diagram(pos))
    10  74  46  12  68  09  06  83  50  19  41
     9  85  30  08  53  55  11  04  27  64  07
     8  90  95  97  77  28  15  72  89  54  70
     7  43  52  35  39  75  18  96  37  17  05
     6  45  62  58  23  92  40  36  67  71  80
     5  20  87  34  60  31  13  63  03  56  86
     4  65  69  42  59  88  98  66  91  57  29
     3  47  02  51  38  14  48  10  32  16  94
     2  22  00  61  73  24  49  26  44  76  79
     1  W33 25  ..  84  78  81  21  93  82  01
        A   B   C   D   E   F   G   H   I   J
    white 33, black 0, black to move, ply 1
    <BLANKLINE>
    """
    lines = []
    for row in cells(position):
        rank = row[0].name[1:]
        parts = []
        for cell in row:
            if cell.knight is not None:
                parts.append(f"{cell.knight.value[0].upper()}{cell.label}")
            elif not cell.usable:
                parts.append(".. ")
            else:
                parts.append(f"{cell.label} ")
        lines.append(f"{rank:>2}  {' '.join(parts).rstrip()}")
    lines.append("    " + "   ".join(FILES))
    white, black = position.scores
    lines.append(f"white {white}, black {black}, {position.to_move} to move, ply {position.ply}")
    return "\n".join(lines) + "\n"
