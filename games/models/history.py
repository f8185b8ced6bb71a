"""A battle's history: its moves (``Move``) and the audit trail of its clock (``ClockEvent``).

Terminology and invariants:
- ``Move.ply`` is the ply a move completed, unique per battle, so a move is stored at most
  once; a forfeited turn is a ``Move`` of kind ``forfeit``.
- ``ClockEvent`` is the audit trail of clock transitions; expiries are unique per
  (battle, ply, kind), a safety net under the compare-and-set.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.battle import Battle
from games.rules import clock


class Move(models.Model):
    class Kind(models.TextChoices):
        """The kinds the workflow itself writes; a game's move may carry its own kind
        (``MoveInfo.kind``)."""

        MOVE = "move", _("Move")
        FORFEIT = "forfeit", _("Forfeited turn")
        OTB = "otb", _("Move over the board")

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    side = models.CharField(max_length=8)
    notation = models.CharField(max_length=120, blank=True)
    kind = models.CharField(max_length=8)
    captures = models.JSONField(default=list, blank=True)
    submitted_at = models.DateTimeField()
    clock_version_before = models.PositiveIntegerField()

    class Meta:
        ordering = ["battle", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "ply"], name="unique_move_per_ply"),
        ]

    def __str__(self) -> str:
        if self.notation:
            return f"{self.ply + 1}. {self.notation}"
        known = self.kind in self.Kind.values
        return f"{self.ply + 1}. {self.Kind(self.kind).label if known else self.kind}"

    @property
    def side_display(self) -> str:
        return self.battle.side_name(self.side)


class ClockEvent(models.Model):
    class Kind(models.TextChoices):
        STARTED = "started", _("Started")
        TURN_EXPIRED = clock.TURN_EXPIRED, _("Turn expired")
        OUTAGE_PAUSE = clock.OUTAGE_PAUSE, _("Paused: server outage")
        REFEREE_OFFLINE = clock.REASON_REFEREE_OFFLINE, _("Paused: referee page offline")
        TOUCHED = "touched", _("Piece touched")
        PAUSED = "paused", _("Paused")
        RESUMED = "resumed", _("Resumed")
        TIME_GIVEN = "time_given", _("Time given")
        DECISION = "decision", _("Referee decision")
        END_AGREED = "end_agreed", _("Ended by agreement")
        LOST_ON_TIME = clock.GAME_LOST_ON_TIME, _("Lost on time")
        JOINED = "joined", _("Player joined")
        NO_SHOW = "no_show", _("No-show claimed")
        RESIGNED = clock.REASON_RESIGNED, _("Resigned")
        END_DECLINED = "end_declined", _("Offer to end declined")

    class Via(models.TextChoices):
        TIMER = "timer", _("Clock timer")
        ETA = "eta", _("Scheduled task")  # before the clock timer (issue 13)
        SWEEP = "sweep", _("Sweeper")
        READ = "read", _("Page read")
        NUDGE = "nudge", _("Client nudge")
        REFEREE = "referee", _("Referee")
        PLAYER = "player", _("Player")

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="clock_events")
    ply = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    due_at = models.DateTimeField(null=True, blank=True)
    applied_at = models.DateTimeField()
    via = models.CharField(max_length=8, choices=Via.choices)
    detail = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["battle", "applied_at"]
        constraints = [
            # An outage may pause the same turn twice (a flapping Redis); an expiry never.
            models.UniqueConstraint(
                fields=["battle", "ply", "kind"],
                condition=models.Q(kind=clock.TURN_EXPIRED),
                name="unique_expiry_per_ply",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.battle_id} ply {self.ply}: {self.kind} via {self.via}"

    @property
    def lateness_ms(self) -> float | None:
        if self.due_at is None:
            return None
        return (self.applied_at - self.due_at).total_seconds() * 1000
