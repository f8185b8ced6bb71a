"""Player claims: a registered user asks to be linked to a Player; an organiser decides.

A claimant may add a message for the organiser (``ClaimNote``, at most ``CLAIM_NOTE_MAX``
characters), saved with the claim or not at all.

Invariants: at most one pending claim per player (a database constraint); a Player is
linked to at most one user and a user to at most one Player (``Player.user`` is
one-to-one); a claim is decided once.

An account that has played a rated casual match has a Player made for it (in its name,
no tournament entries: a *casual player*, ``tournaments.rating.sources``). That player does
not block a claim: the account may still claim its tournament player, and approving the
claim moves the casual history onto the claimed player (the casual player is unlinked and
deleted, and the account's games' ratings are recomputed, so its casual matches are rated
as the claimed player's, in time order with the tournament rounds). A Player with
tournament entries linked to the account still blocks a claim: that is a real conflict,
for an administrator.

A bot account (``UserProfile.is_bot``) claims no player, and a claim made before its
account became one is not approved: a bot plays in a tournament only as the player its
organiser entered it as (``tournaments.organising.bots``), never as a person's record.

Claims fill the organisers' queue, so an account may have at most
``PENDING_CLAIMS_MAX`` claims waiting at once (counted under a lock on the account's row,
so parallel claims cannot all see room) and make at most ``CLAIMS_PER_DAY`` claims a day
(``thud_site.limits``, counted before the claim is saved).

The claim page lists the *claimable* players (no account linked, no claim pending, entered
in at least one tournament), each labelled with their tournaments and club, in two groups:
players of a tournament that is not finished first, then players only of finished ones
(still claimable: a player of last year's open may register now to see their results).
``claim_groups`` is that rule over plain records; ``claimable_records`` reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch, QuerySet
from django.utils.translation import gettext as _

from accounts.models import CLAIM_NOTE_MAX, ClaimNote, UserProfile
from thud_site import limits
from tournaments.models.countries import country_name
from tournaments.models.people import Player, PlayerClaim
from tournaments.models.ratings import SiteRating
from tournaments.models.tournament import Entry, Tournament
from tournaments.rating.update import recompute

PENDING_CLAIMS_MAX = 3
CLAIMS_PER_DAY = 10
CLAIMS_WINDOW_S = 24 * 3600
CLAIMS_SCOPE = "player-claims"


class ClaimError(ValueError):
    """A claim that cannot be made or decided; the message is shown to the user."""


def _refuse_a_bot(user_id: int) -> None:
    """``ClaimError`` when the account is a bot account (see the module's docstring)."""
    if UserProfile.objects.filter(user_id=user_id, is_bot=True).exists():
        raise ClaimError(
            _(
                "A bot account cannot claim a player: an organiser enters it in a "
                "tournament that allows bot accounts."
            )
        )


@dataclass(frozen=True)
class ClaimableRecord:
    """A player one may claim, with the tournaments they were entered in: ``(name,
    finished)`` pairs, most recent first."""

    pk: int
    name: str
    club: str = ""
    country: str = ""  # its name in the reader's language
    tournaments: tuple[tuple[str, bool], ...] = ()


def claim_label(record: ClaimableRecord) -> str:
    """ "Anna B — Koom Valley Open (Ankh-Morpork Club)": tournaments not finished first.

    >>> claim_label(ClaimableRecord(1, "Anna B", "AM Club", "", (("Old", True), ("New", False))))
    'Anna B — New, Old (AM Club)'
    """
    names = [name for name, _finished in sorted(record.tournaments, key=lambda t: t[1])]
    label = f"{record.name} — {', '.join(names)}" if names else record.name
    where = ", ".join(x for x in (record.club, record.country) if x)
    return f"{label} ({where})" if where else label


def claim_groups(
    records: Iterable[ClaimableRecord],
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """``(current, finished)`` choices, in the records' order: players of a tournament that
    is not finished, and players only of finished tournaments."""
    current: list[tuple[int, str]] = []
    finished: list[tuple[int, str]] = []
    for record in records:
        done = all(is_finished for _name, is_finished in record.tournaments)
        (finished if done else current).append((record.pk, claim_label(record)))
    return current, finished


def claimable_players() -> QuerySet[Player]:
    """Players entered in a tournament that no account is linked to and nobody has a
    pending claim on."""
    return (
        Player.objects.filter(user__isnull=True, entries__isnull=False)
        .exclude(claims__status=PlayerClaim.Status.PENDING)
        .distinct()
    )


def claimable_records(players: QuerySet[Player]) -> list[ClaimableRecord]:
    """``players`` (by name) with their tournaments, in two queries."""
    entries = Entry.objects.select_related("tournament").order_by(
        F("tournament__start_date").desc(nulls_last=True), "-tournament__pk"
    )
    players = players.order_by("name", "pk").prefetch_related(Prefetch("entries", entries))
    return [
        ClaimableRecord(
            pk=p.pk,
            name=p.name,
            club=p.club,
            country=country_name(str(p.country)),
            tournaments=tuple(
                (e.tournament.name, e.tournament.status == Tournament.Status.FINISHED)
                for e in p.entries.all()
            ),
        )
        for p in players
    ]


def make_claim(*, user, player: Player, message: str = "") -> PlayerClaim:
    """Claim ``player`` for ``user``, with an optional ``message`` to the organiser."""
    message = message.strip()
    if len(message) > CLAIM_NOTE_MAX:
        raise ClaimError(
            _("Your message is too long: at most %(n)d characters.") % {"n": CLAIM_NOTE_MAX}
        )
    if Player.objects.filter(user=user, entries__isnull=False).exists():
        raise ClaimError(_("Your account is already linked to a player."))
    _refuse_a_bot(user.pk)
    try:
        with transaction.atomic():
            # The account's row lock queues its own parallel claims behind one another.
            get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)
            pending = PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING)
            if pending.count() >= PENDING_CLAIMS_MAX:
                raise ClaimError(
                    _(
                        "You have %(n)d claims waiting for an organiser's decision; "
                        "wait until one is decided before claiming another player."
                    )
                    % {"n": PENDING_CLAIMS_MAX}
                )
            if not limits.allow(
                CLAIMS_SCOPE, str(user.pk), limit=CLAIMS_PER_DAY, window_s=CLAIMS_WINDOW_S
            ):
                raise ClaimError(
                    _(
                        "Your account has reached the limit of %(n)d claims a day. Try again tomorrow."
                    )
                    % {"n": CLAIMS_PER_DAY}
                )
            claim = PlayerClaim.objects.create(user=user, player=player)
            if message:
                ClaimNote.objects.create(claim=claim, text=message)
            return claim
    except IntegrityError:
        raise ClaimError(_("Someone has already claimed this player.")) from None


def decide_claim(claim: PlayerClaim, *, approve: bool, by, now: datetime) -> PlayerClaim:
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
        if claim.status != PlayerClaim.Status.PENDING:
            raise ClaimError(_("This claim has already been decided."))
        if approve:
            player = Player.objects.select_for_update().get(pk=claim.player_id)
            linked = Player.objects.select_for_update().filter(user=claim.user_id).first()
            casual = linked is not None and not linked.entries.exists()
            if player.user_id is not None or (linked is not None and not casual):
                raise ClaimError(_("The player or the account is already linked."))
            _refuse_a_bot(claim.user_id)
            if linked is not None:
                _unlink_casual(linked)
            player.user_id = claim.user_id
            player.save(update_fields=["user"])
            if linked is not None:
                _move_casual_history(linked, now=now)
            _rate_imported_entries(player, now=now)
        claim.status = PlayerClaim.Status.APPROVED if approve else PlayerClaim.Status.REJECTED
        claim.decided_by = by
        claim.decided_at = now
        claim.save(update_fields=["status", "decided_by", "decided_at"])
        return claim


def _rate_imported_entries(player: Player, *, now: datetime) -> None:
    """A rated imported tournament counts a match once both its entries are claimed
    (``rating.sources``): this claim may complete some, so their games are recomputed. A
    copy (``archive.copies``) is never rated: claiming its entries rates nothing."""
    imported = Tournament.objects.filter(
        imported=True, rated=True, copy_of__isnull=True, entries__player=player
    )
    for game in sorted(set(imported.values_list("game", flat=True))):
        recompute(game, now=now)


def _unlink_casual(casual: Player) -> None:
    """The account's casual player lets go of it (``Player.user`` is one-to-one)."""
    casual.user = None
    casual.save(update_fields=["user"])


def _move_casual_history(casual: Player, *, now: datetime) -> None:
    """Recompute the games the casual player was rated in: the account's casual matches
    are now its claimed player's (``sources.players_of_users`` reads the link). Then the
    casual player, rated in nothing and entered nowhere, is deleted."""
    games = set(SiteRating.objects.filter(player=casual).values_list("game", flat=True))
    for game in sorted(games):
        recompute(game, now=now)
    casual.delete()
