"""Tests of the Thud rules engine (games/thud/) and its helpers: a naive move generator, perft files."""
