"""Organising a tournament: creating it, appointing its staff, changing its settings, CSV imports."""
