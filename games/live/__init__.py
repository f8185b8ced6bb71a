"""What makes the clock live: publishing states and due times (``publish``), the SSE
streams (``stream``), the timer worker (``timer``), the set-based sweep (``sweep``), bulk
clock writes (``bulk``) and outage pauses (``outages``).

Dependencies run one way: ``stream`` -> ``games.battles`` -> ``publish`` <- ``sweep`` <-
``timer`` (and ``games.tasks``).
"""
