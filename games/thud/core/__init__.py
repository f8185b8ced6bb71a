"""Thud's rules: board, position, moves, notation, records, perft. Pure; below ``bot``."""
