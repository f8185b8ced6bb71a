"""The battle workflows on the ORM side: every clock transition is a compare-and-set.

Terminology and invariants (see also ``games/rules/clock.py`` and DESIGN.md §5):
- Each operation reads the battle row, computes the new clock state with the pure
  functions of ``games.rules.clock`` and writes it with one
  ``UPDATE battle SET ..., clock_version = v + 1 WHERE id = ? AND clock_version = v``
  (``store.write``). The writer that commits first wins; everyone else sees
  ``rowcount == 0``. That makes an expiry exactly-once in effect however many triggers
  fire (the clock timer of ``games.live.timer``, beat sweep, settle-on-read, client nudge).
- Every successful write publishes, on commit, the new state on Redis channel
  ``battle:<id>`` and its due time on ``clock:due`` (``games.events.publish``), which wakes
  the clock timers.
- ``settle.settle()`` runs first in every request that touches a battle, so the clock is
  enforced even while Celery or Redis is down.
- Online battles keep the game state (``Game.serialise``) in ``board`` and the game
  (``battle.rules``, see ``games/rules/interface.py``) decides legality, what a forfeited turn
  does (``pass_turn``) and when play is over (``outcome``); over-the-board battles
  (``mode="otb"``) only run the clock. Nothing here knows which game is played.
- A battle belongs to a tournament match (two battles, the result goes to the
  tournament through ``finishing.record_online_result``) or to nobody (a *casual* battle
  between two users, ``starting.create_casual_battle``): it just finishes and keeps its
  scores.
- Timing is quickfire (the tournament's clock) or correspondence (days per move, the
  same clock row and triggers; an expiry loses the game).

The modules, by job: ``errors`` (the refusals), ``store`` (the compare-and-set write),
``settle`` (applying a due expiry), ``starting``, ``play`` (moves, touches, offers),
``referee`` (the referee's actions) and ``finishing`` (the scores, battle 2, and the
hand-off of a finished match to its tournament).
"""
