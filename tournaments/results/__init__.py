"""Match results: the result value (MatchResult), the games' scales, and the workflow that
writes versions (entry and confirmation, corrections and decisions, final results)."""
