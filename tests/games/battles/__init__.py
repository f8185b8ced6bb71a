"""Tests of games/battles/: the workflows with explicit times, in the database."""
