"""Online battles and quickfire clocks (Battle, Move, ClockEvent) — see DESIGN.md §5.

Terminology and invariants:
- A match has two battles (``number`` 1 and 2) with sides swapped: player A has
  the dwarfs in battle 1.
- The battle row *is* the clock: ``deadline`` and ``clock_version``. Every change
  is one compare-and-set ``UPDATE ... WHERE id=? AND clock_version=?`` in
  ``games/battles.py``; the row's clock settings are copied from the tournament
  when the battle is created, so the sweeper needs no join.
- ``ply`` counts completed plies (moves and forfeited turns); ``Move.ply`` is the
  ply a move completed, unique per battle, so a move is stored at most once.
- ``ClockEvent`` is the audit trail of clock transitions; expiries are unique per
  (battle, ply, kind), a safety net under the compare-and-set.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.survivors import TROLL_POINTS

from . import clock

REASONS = {
    clock.REASON_MOVE_LIMIT: _("move limit reached"),
    clock.REASON_REFEREE: _("referee"),
    clock.REASON_OUTAGE: _("server outage: the turn will be replayed"),
    clock.REASON_FORFEITS: _("too many forfeited turns in a row"),
    "agreement": _("ended by agreement"),
    "no_legal_move": _("the side to move has no legal move"),
}


class Battle(models.Model):
    class Status(models.TextChoices):
        PENDING = clock.PENDING, _("Not started")
        RUNNING = clock.RUNNING, _("Running")
        PAUSED = clock.PAUSED, _("Paused")
        NEEDS_REFEREE = clock.NEEDS_REFEREE, _("Waiting for a referee")
        FINISHED = clock.FINISHED, _("Finished")

    class Side(models.TextChoices):
        DWARF = clock.DWARF, _("Dwarfs")
        TROLL = clock.TROLL, _("Trolls")

    class Mode(models.TextChoices):
        ONLINE = "online", _("Online")
        OTB = "otb", _("Over the board")

    match = models.ForeignKey("tournaments.Match", on_delete=models.CASCADE, related_name="battles")
    number = models.PositiveSmallIntegerField(_("battle"))
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices, default=Mode.ONLINE)
    dwarfs = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("dwarf player"),
    )
    trolls = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("troll player"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    side_to_move = models.CharField(max_length=8, choices=Side.choices, default=Side.DWARF)
    ply = models.PositiveIntegerField(default=0)
    max_plies = models.PositiveIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    think_ends_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    touched_square = models.CharField(max_length=4, blank=True)
    paused_remaining_ms = models.IntegerField(null=True, blank=True)
    paused_think_remaining_ms = models.IntegerField(null=True, blank=True)
    paused_reason = models.CharField(max_length=32, blank=True)
    forfeits_dwarf = models.PositiveSmallIntegerField(default=0)
    forfeits_troll = models.PositiveSmallIntegerField(default=0)
    clock_version = models.PositiveIntegerField(default=0)
    board = models.TextField(_("board diagram"), blank=True)
    dwarf_count = models.PositiveSmallIntegerField(default=32)
    troll_count = models.PositiveSmallIntegerField(default=8)
    finished_reason = models.CharField(max_length=32, blank=True)
    end_offered_by = models.CharField(max_length=8, choices=Side.choices, blank=True)
    # Clock settings, copied from the tournament when the battle is created.
    timed = models.BooleanField(default=True)
    think_ms = models.PositiveIntegerField(default=15_000)
    move_ms = models.PositiveIntegerField(default=5_000)
    grace_ms = models.PositiveIntegerField(default=300)
    commit_rule = models.CharField(max_length=8, default="touch")
    max_consecutive_forfeits = models.PositiveSmallIntegerField(default=3)
    outage_threshold_ms = models.PositiveIntegerField(default=3_000)
    capture_policy = models.CharField(max_length=16, default="subset")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_battle_number"),
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="battle_status_deadline")]
        verbose_name = _("battle")
        verbose_name_plural = _("battles")

    def __str__(self) -> str:
        return f"{self.match} #{self.number}"

    @property
    def clock_config(self) -> clock.ClockConfig:
        return clock.ClockConfig(
            think_ms=self.think_ms,
            move_ms=self.move_ms,
            grace_ms=self.grace_ms,
            commit_rule=self.commit_rule,
            max_consecutive_forfeits=self.max_consecutive_forfeits,
            outage_threshold_ms=self.outage_threshold_ms,
            timed=self.timed,
        )

    @property
    def clock_state(self) -> clock.ClockState:
        return clock.ClockState(
            config=self.clock_config,
            status=self.status,
            side_to_move=self.side_to_move,
            ply=self.ply,
            max_plies=self.max_plies,
            turn_started_at=self.turn_started_at,
            think_ends_at=self.think_ends_at,
            deadline=self.deadline,
            touched=self.touched_square,
            paused_remaining_ms=self.paused_remaining_ms,
            paused_think_remaining_ms=self.paused_think_remaining_ms,
            paused_reason=self.paused_reason,
            forfeits_dwarf=self.forfeits_dwarf,
            forfeits_troll=self.forfeits_troll,
            finished_reason=self.finished_reason,
        )

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def score(self) -> tuple[int, int]:
        """(dwarf player's points, troll player's points)."""
        return self.dwarf_count, TROLL_POINTS * self.troll_count

    @property
    def match_players(self) -> tuple[int, int]:
        """(player A's entry id, player B's entry id) as this battle was started for.

        A has the dwarfs in battle 1 and the trolls in battle 2; the result of the
        match is recorded only if the match still names these two.
        """
        if self.number == 1:
            return self.dwarfs_id, self.trolls_id
        return self.trolls_id, self.dwarfs_id

    @property
    def reason_display(self) -> str:
        """Why the battle ended or is paused, for people."""
        reason = self.finished_reason or self.paused_reason
        return str(REASONS.get(reason, reason))

    def entry_for(self, side: str):
        return self.dwarfs if side == clock.DWARF else self.trolls


def clock_fields(state: clock.ClockState) -> dict:
    """The Battle columns a clock transition writes."""
    return {
        "status": state.status,
        "side_to_move": state.side_to_move,
        "ply": state.ply,
        "turn_started_at": state.turn_started_at,
        "think_ends_at": state.think_ends_at,
        "deadline": state.deadline,
        "touched_square": state.touched,
        "paused_remaining_ms": state.paused_remaining_ms,
        "paused_think_remaining_ms": state.paused_think_remaining_ms,
        "paused_reason": state.paused_reason,
        "forfeits_dwarf": state.forfeits_dwarf,
        "forfeits_troll": state.forfeits_troll,
        "finished_reason": state.finished_reason,
    }


class Move(models.Model):
    class Kind(models.TextChoices):
        MOVE = "move", _("Move")
        HURL = "hurl", _("Hurl")
        STEP = "step", _("Step")
        SHOVE = "shove", _("Shove")
        FORFEIT = "forfeit", _("Forfeited turn")
        OTB = "otb", _("Move over the board")

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    side = models.CharField(max_length=8, choices=Battle.Side.choices)
    notation = models.CharField(max_length=120, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    captures = models.JSONField(default=list, blank=True)
    submitted_at = models.DateTimeField()
    clock_version_before = models.PositiveIntegerField()

    class Meta:
        ordering = ["battle", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "ply"], name="unique_move_per_ply"),
        ]

    def __str__(self) -> str:
        return f"{self.ply + 1}. {self.notation or self.get_kind_display()}"


class ClockEvent(models.Model):
    class Kind(models.TextChoices):
        STARTED = "started", _("Started")
        TURN_EXPIRED = clock.TURN_EXPIRED, _("Turn expired")
        OUTAGE_PAUSE = clock.OUTAGE_PAUSE, _("Paused: server outage")
        TOUCHED = "touched", _("Piece touched")
        PAUSED = "paused", _("Paused")
        RESUMED = "resumed", _("Resumed")
        TIME_GIVEN = "time_given", _("Time given")
        DECISION = "decision", _("Referee decision")
        END_AGREED = "end_agreed", _("Ended by agreement")

    class Via(models.TextChoices):
        ETA = "eta", _("Scheduled task")
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
            models.UniqueConstraint(
                fields=["battle", "ply", "kind"],
                condition=models.Q(kind__in=[clock.TURN_EXPIRED, clock.OUTAGE_PAUSE]),
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
