"""What makes the clock live: the SSE streams (``stream``), the timer worker (``timer``),
the set-based sweep (``sweep``), bulk clock writes (``bulk``), outage pauses
(``outages``), the referees' pages away (``referees``) and the battles set aside
(``quarantine``).

A room above ``games.battles`` (``stream`` and ``sweep`` settle through
``games.battles.settle``); states are published by ``games.events.publish``. Dependencies
run one way: ``timer`` -> ``sweep`` -> ``outages`` -> ``bulk``.
"""
