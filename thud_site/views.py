"""Site-wide pages that belong to no single app: the rules of Thud and of Cavalli."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import cavalli
from games.presenters_cavalli import board_view
from games.thud import FILES, SQUARES, STONE, Position, format_square
from thud_site.http import HtmxHttpRequest
from tournaments.models import Tournament

CELL = 20  # size of one square in the SVG's user units


@dataclass(frozen=True)
class Cell:
    x: int
    y: int
    name: str
    piece: str  # "dwarf", "troll", "stone" or ""


def board_cells(position: Position) -> list[Cell]:
    """Every square of ``position`` with its SVG coordinates, for a read-only diagram."""
    pieces = {"d": "dwarf", "T": "troll"}
    return [
        Cell(
            x=col * CELL,
            y=row * CELL,
            name=format_square((row, col)),
            piece="stone" if (row, col) == STONE else pieces.get(position.piece_at((row, col)), ""),
        )
        for row, col in SQUARES
    ]


def tournament_default(field: str) -> int:
    """A tournament setting's default, so the rules page quotes the numbers in force."""
    return Tournament._meta.get_field(field).default


@require_GET
def rules(request: HtmxHttpRequest) -> HttpResponse:
    """How to play, in the visitor's language, with the starting position drawn."""
    position = Position.initial()
    context = {
        "cells": board_cells(position),
        "cell": CELL,
        "half": CELL // 2,
        "files": [(c * CELL + CELL // 2, f) for c, f in enumerate(FILES)],
        "ranks": [(r * CELL + CELL // 2, r + 1) for r in range(15)],
        "dwarfs": position.dwarf_count,
        "trolls": position.troll_count,
        "think_s": tournament_default("think_ms") // 1000,
        "move_s": tournament_default("move_ms") // 1000,
        "forfeits": tournament_default("max_consecutive_forfeits"),
        "win": tournament_default("points_win"),
        "draw": tournament_default("points_draw"),
        "loss": tournament_default("points_loss"),
    }
    return render(request, "rules.html", context)


#: The board drawn on the Cavalli rules page (any seed is a legal start; this one is fixed
#: so the page and its translations always show the same example).
CAVALLI_RULES_SEED = 2002


@require_GET
def rules_cavalli(request: HtmxHttpRequest) -> HttpResponse:
    """How to play Battaglia di Cavalli, with a seeded starting board drawn."""
    position = cavalli.Position.initial(cavalli.Board.from_seed(CAVALLI_RULES_SEED))
    return render(request, "rules_cavalli.html", {"board": board_view(position)})
