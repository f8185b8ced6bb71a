"""Battaglia di Cavalli's rules: board, position, moves, notation, diagrams, perft. Pure;
below ``bot``."""
