"""Rounds: the adapters that load and write rounds: the draw, the organiser's edits, the
reads for the pages, play. Their lifecycle and timer are pure rules (``tournaments.rules``)."""
