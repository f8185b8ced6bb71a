"""Signals the tournament sends, for apps that react to it (``tournaments`` imports none
of them; ``games`` connects through ``tournaments.for_games``).

``round_published`` is sent *after commit* of a round's publication, with ``round_id``
and ``now`` (the time of the publication). Receivers must be idempotent.

``attendance_changed`` is sent *after commit* of a check-in or an absence
(``organising.checkin``), with ``tournament_id``: the desk pages refresh their list.
"""

from __future__ import annotations

from django.dispatch import Signal

round_published = Signal()
attendance_changed = Signal()
