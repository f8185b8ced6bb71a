"""Tests of the Cavalli rules engine (games/cavalli/) and its naive reference generator."""
