"""Rounds: the lifecycle (pure) and the adapters that load and write rounds: the draw, the
organiser's edits, the reads for the pages, play."""
