"""The battle: one row per battle, which *is* its clock (Battle, clock_fields) — see
DESIGN.md §5.

Terminology and invariants:
- A match has two battles (``number`` 1 and 2) with sides swapped: player A has
  the first side in battle 1 (``first_entry``) and the second side in battle 2.
- The battle row *is* the clock: ``deadline`` and ``clock_version``. Every change
  is one compare-and-set ``UPDATE ... WHERE id=? AND clock_version=?`` in
  ``games/battles/``; the row's clock settings are copied from the tournament
  when the battle is created, so the sweeper needs no join.
- ``ply`` counts completed plies (moves and forfeited turns); ``Move.ply`` is the
  ply a move completed, unique per battle, so a move is stored at most once.
- Its moves and clock events are in :mod:`games.models.history`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines import registry
from games.models.reasons import CANCELLED_REASONS, REASONS
from games.rules import clock, presence
from games.rules.interface import Game, side_keys

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from tournaments.for_games import Entry, Match

#: Correspondence: days per move, at most (the clock counts milliseconds in a 32-bit
#: column: 14 days = 1,209,600,000 ms < 2,147,483,647).
MAX_CORRESPONDENCE_DAYS = 14
DAY_MS = 86_400_000
#: Casual quickfire: the move limits a player may choose, in moves *per side* (as a
#: tournament's default ``move_unit``: 30 moves = 30 turns each = 60 plies), and the
#: default. Quickfire Thud is the move limit (with or without the clock); a casual
#: quickfire battle always has one.
CASUAL_MOVE_LIMITS = (30, 24)
DEFAULT_MOVE_LIMIT = 30


def game_choices() -> list[tuple[str, StrOrPromise]]:
    """``(key, translated name)`` of the registry's games, read at call time: the model
    fields' choices name this function, not the games, so a new game needs no migration."""
    return [(key, _(name)) for key, name in registry.choices()]  # noqa: INT001


class Battle(models.Model):
    class Status(models.TextChoices):
        PENDING = clock.PENDING, _("Not started")
        RUNNING = clock.RUNNING, _("Running")
        PAUSED = clock.PAUSED, _("Paused")
        NEEDS_REFEREE = clock.NEEDS_REFEREE, _("Waiting for a referee")
        FINISHED = clock.FINISHED, _("Finished")

    class Mode(models.TextChoices):
        ONLINE = "online", _("Online")
        OTB = "otb", _("Over the board")

    class Timing(models.TextChoices):
        QUICKFIRE = "quickfire", _("Quickfire")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    class TimeoutRule(models.TextChoices):
        FORFEIT_TURN = clock.FORFEIT_TURN, _("Expiry forfeits the turn")
        LOSE_GAME = clock.LOSE_GAME, _("Expiry loses the game")

    game = models.CharField(
        _("game"),
        max_length=16,
        choices=game_choices,
        default=registry.DEFAULT,
    )
    # A tournament battle belongs to a match and is played by two entries; a casual
    # battle has no match and is played by two users (first_user moves first).
    match = models.ForeignKey(
        "tournaments.Match",
        on_delete=models.CASCADE,
        related_name="battles",
        null=True,
        blank=True,
    )
    number = models.PositiveSmallIntegerField(_("battle"))
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices, default=Mode.ONLINE)
    # The tournament entries seated at the first side (it moves first) and the second.
    first_entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("first player"),
        null=True,
        blank=True,
    )
    second_entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("second player"),
        null=True,
        blank=True,
    )
    first_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("first player"),
    )
    second_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("second player"),
    )
    timing = models.CharField(
        _("timing"), max_length=16, choices=Timing.choices, default=Timing.QUICKFIRE
    )
    timeout_rule = models.CharField(
        max_length=16, choices=TimeoutRule.choices, default=TimeoutRule.FORFEIT_TURN
    )
    board_seed = models.PositiveIntegerField(null=True, blank=True)
    # Final scores by side key, and the winning side key ("" for a draw), once finished.
    scores = models.JSONField(default=dict, blank=True)
    winner = models.CharField(max_length=16, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    # A side key of the battle's game (``Game.sides``).
    side_to_move = models.CharField(
        max_length=8, default=side_keys(registry.get(registry.DEFAULT))[0]
    )
    ply = models.PositiveIntegerField(default=0)
    max_plies = models.PositiveIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    think_ends_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    touched_square = models.CharField(max_length=4, blank=True)
    paused_remaining_ms = models.IntegerField(null=True, blank=True)
    paused_think_remaining_ms = models.IntegerField(null=True, blank=True)
    paused_reason = models.CharField(max_length=32, blank=True)
    forfeits_first = models.PositiveSmallIntegerField(default=0)
    forfeits_second = models.PositiveSmallIntegerField(default=0)
    clock_version = models.PositiveIntegerField(default=0)
    board = models.TextField(_("board diagram"), blank=True)
    # The two numbers a tournament result records for this battle (``result_numbers``),
    # kept up to date by the game's ``row_fields`` where it has any.
    first_count = models.PositiveSmallIntegerField(default=0)
    second_count = models.PositiveSmallIntegerField(default=0)
    finished_reason = models.CharField(max_length=32, blank=True)
    end_offered_by = models.CharField(max_length=8, blank=True)
    # While a casual battle is paused: the side key of the player who asked to resume it
    # and the clock version the ask left; the other player's ask resumes it
    # (``games.battles.agreements``). Any clock write since makes the ask stale (``resume_asked``).
    resume_asked_by = models.CharField(max_length=8, blank=True)
    resume_asked_version = models.PositiveIntegerField(null=True, blank=True)
    # Clock settings, copied from the tournament when the battle is created.
    timed = models.BooleanField(default=True)
    think_ms = models.PositiveIntegerField(default=15_000)
    move_ms = models.PositiveIntegerField(default=5_000)
    grace_ms = models.PositiveIntegerField(default=300)
    commit_rule = models.CharField(max_length=8, default="touch")
    max_consecutive_forfeits = models.PositiveSmallIntegerField(default=3)
    outage_threshold_ms = models.PositiveIntegerField(default=3_000)
    capture_policy = models.CharField(max_length=16, default="subset")
    # Presence before time (``games.rules.presence``): a pending battle that waits for both
    # players; when each joined; how long after the first join the other may take.
    awaits_players = models.BooleanField(default=False)
    first_joined_at = models.DateTimeField(null=True, blank=True)
    second_joined_at = models.DateTimeField(null=True, blank=True)
    join_window_ms = models.PositiveIntegerField(default=60_000)
    # The last beat of a referee's clock page of this (over-the-board) battle; None: never
    # seen, and never paused for it (``games.rules.referee_presence``). Written by the beat
    # alone (``.update()``), never by a clock write.
    referee_seen_at = models.DateTimeField(null=True, blank=True)
    # A battle against the computer (``games.bots.moves``): its level (1-5) and the side key it
    # plays; ``None`` and ``""`` in a battle between people. Never part of a match.
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_side = models.CharField(max_length=8, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_battle_number"),
            models.CheckConstraint(
                condition=models.Q(match__isnull=False)
                | models.Q(first_user__isnull=False, second_user__isnull=False),
                name="battle_has_players",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "deadline"], name="battle_status_deadline"),
            # The sweep's look for offline referee pages: only running battles a page was
            # seen for are in it, so when none is offline the look finds nothing at once.
            models.Index(
                fields=["referee_seen_at"],
                name="battle_referee_seen",
                condition=models.Q(status=clock.RUNNING, referee_seen_at__isnull=False),
            ),
            # The bots' safety net (``games.bots.moves.resend_stalled``): running battles
            # against the computer, by their last clock write.
            models.Index(
                fields=["updated_at"],
                name="battle_bot_running",
                condition=models.Q(status=clock.RUNNING, bot_level__isnull=False),
            ),
        ]
        verbose_name = _("battle")
        verbose_name_plural = _("battles")

    def __str__(self) -> str:
        if self.match_id is None:
            return f"{self.rules.name} #{self.pk}"
        return f"{self.match} #{self.number}"

    @property
    def rules(self) -> Game:
        """The game this battle plays, configured with its rules options."""
        return registry.get(self.game, capture_policy=self.capture_policy)

    @property
    def is_casual(self) -> bool:
        return self.match_id is None

    @property
    def time_zone(self) -> str:
        """The zone its times are shown in: its tournament's (the venue's), else the site's."""
        if self.match is None:
            return settings.TIME_ZONE
        return self.match.round.tournament.time_zone

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
            sides=side_keys(self.rules),
            timeout_rule=self.timeout_rule,
            referee=self.match_id is not None,
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
            forfeits_first=self.forfeits_first,
            forfeits_second=self.forfeits_second,
            finished_reason=self.finished_reason,
        )

    @property
    def presence_state(self) -> presence.Presence:
        return presence.Presence(
            window_ms=self.join_window_ms,
            first_joined_at=self.first_joined_at,
            second_joined_at=self.second_joined_at,
            awaiting=self.awaits_players and self.status == self.Status.PENDING,
        )

    @property
    def is_cancelled(self) -> bool:
        """A casual battle ended because a player (or both) never came: nobody won or
        lost."""
        return self.is_finished and self.finished_reason in CANCELLED_REASONS

    @property
    def resume_asked(self) -> str:
        """The side that asked to resume this pause, or "". An ask made in an earlier
        pause is stale, whoever resumed the battle since (every clock write, a bulk one
        too, bumps ``clock_version``), so it never counts for the next pause."""
        if self.resume_asked_by and self.resume_asked_version == self.clock_version:
            return self.resume_asked_by
        return ""

    @property
    def against_computer(self) -> bool:
        return self.bot_level is not None

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def board_readable(self) -> bool:
        """Whether its game can read the stored board (a battle without one: yes). An
        imported or damaged row may hold one it cannot (issue 40): its pages then say the
        record cannot be read instead of failing."""
        if not self.board:
            return True
        try:
            game = self.rules
            game.result_numbers(game.deserialise(self.board))
        except (ValueError, LookupError, TypeError):
            return False
        return True

    @property
    def result_numbers(self) -> tuple[int, int]:
        """(first side, second side): what a tournament result records for this battle,
        in its game's scale. A battle without a stored position (over the board) has
        only its two count columns."""
        if not self.board:
            return self.first_count, self.second_count
        game = self.rules
        return game.result_numbers(game.deserialise(self.board))

    def tournament_match(self) -> Match:
        """The match of a tournament battle (asking a casual battle is a caller's bug)."""
        if self.match is None:
            raise ValueError(f"battle {self.pk} is casual: it belongs to no match")
        return self.match

    def tournament_entries(self) -> tuple[Entry, Entry]:
        """(first side's entry, second side's entry) of a tournament battle."""
        if self.first_entry is None or self.second_entry is None:
            raise ValueError(f"battle {self.pk} is casual: entries play no part in it")
        return self.first_entry, self.second_entry

    @property
    def match_players(self) -> tuple[int, int]:
        """(player A's entry id, player B's entry id) as this battle was started for.

        A has the first side in battle 1 and the second side in battle 2; the result of the
        match is recorded only if the match still names these two.
        """
        first, second = self.first_entry_id, self.second_entry_id
        if first is None or second is None:
            raise ValueError(f"battle {self.pk} is casual: entries play no part in it")
        return (first, second) if self.number == 1 else (second, first)

    @property
    def reason_display(self) -> str:
        """Why the battle ended or is paused, for people."""
        reason = self.finished_reason or self.paused_reason
        return str(REASONS.get(reason, reason))

    def entry_for(self, side: str):
        return self.first_entry if side == side_keys(self.rules)[0] else self.second_entry

    def side_name(self, side: str) -> str:
        """The translated name of ``side`` in this battle's game ("White")."""
        names = {info.key: info.name for info in self.rules.sides}
        return gettext(names[side]) if side in names else side

    @property
    def first_side_name(self) -> str:
        """The translated name of the side that moves first ("White")."""
        return self.side_name(side_keys(self.rules)[0])

    @property
    def second_side_name(self) -> str:
        return self.side_name(side_keys(self.rules)[1])

    def user_for(self, side: str):
        """The user who plays ``side`` in a casual battle."""
        return self.first_user if side == side_keys(self.rules)[0] else self.second_user


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
        "forfeits_first": state.forfeits_first,
        "forfeits_second": state.forfeits_second,
        "finished_reason": state.finished_reason,
    }
