"""Signals the battle workflow sends, for apps that react to play (e.g. notifications).

``turn_changed`` is sent *after commit* of every clock write of a battle (a move, a
forfeited turn, the start, the end), with ``battle_id``, ``version`` (the new
``clock_version``), ``side_to_move``, ``status``, ``bot_side`` (the side the computer
plays, ``""`` in a battle between people: ``games.bots.moves``), ``casual`` (no tournament
match) and ``timing`` (its ``Battle.Timing``), so a receiver that cares only for some
battles (``play.notify``: casual correspondence ones) asks the database nothing on a
referee's press, and ``now`` (the time of the write). It may be sent more than once for the
same state (an end offer republishes it): receivers must be idempotent. One exception,
kept for the sweep's cost: the forfeited turns of *over-the-board* battles that the
set-based pass (``games.live.sweep``) settles in bulk are not signalled — nobody plays those on
the site, and a hall's worth of them expire every second.

``casual_battle_finished`` is sent *inside the transaction* that ends a casual battle,
whatever ended it (the game, the clock, an agreement, a no-show claim: then
``battle.is_cancelled``), with ``battle`` (locked, its final scores stored) and ``now``.
It is how ``play`` follows a casual match (battle 2 after battle 1, the match's result)
without ``games`` importing ``play``: a receiver's writes commit or roll back with the
battle's end, and each battle ends once (the clock's compare-and-set write).
"""

from __future__ import annotations

from django.dispatch import Signal

turn_changed = Signal()
#: Sent after commit of an offer to end a battle, with ``battle_id``, ``side`` (who
#: offered) and ``bot_side``: the computer answers an offer made to it (``games.bots.moves``).
end_offered = Signal()
casual_battle_finished = Signal()
