"""Tests of games/live/: publishing, the SSE streams, the timer, the sweep, outages, and the clock processes."""
