"""Online battles and quickfire clocks (Battle, Move, ClockEvent) — see DESIGN.md §5."""

from __future__ import annotations
