"""Match results: the workflow that writes versions (entry and confirmation, corrections and
decisions, final results). The result value and the games' scales are pure rules
(``tournaments.rules``)."""
