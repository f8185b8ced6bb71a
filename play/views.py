"""Casual play pages: thin views over ``play.challenges`` and ``play.queries``."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import UserProfile
from games.engines import registry
from thud_site.http import AuthedRequest, HtmxHttpRequest

from . import bots, challenges, computer, matches, queries, suggest
from . import stats as stats_lib
from .forms import ChallengeForm, ComputerForm, NotificationsForm
from .models import Challenge
from .paging import paginate

ACTIONS = {"accept", "decline", "cancel"}


@login_required
@require_http_methods(["GET", "POST"])
def start(request: HtmxHttpRequest) -> HttpResponse:
    """Challenge a user or open a seek; answer the challenges and seeks open to you."""
    now = timezone.now()
    form = ChallengeForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            form.create(by=request.user, now=now)
        except challenges.ChallengeError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Your challenge is waiting for an answer."))
            return redirect("play:start")
    return _start_page(request, form, now=now, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def play_computer(request: HtmxHttpRequest) -> HttpResponse:
    """Start a battle against the computer (→ the battle page), or say why not."""
    now = timezone.now()
    form = ComputerForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            battle = computer.start(
                by=request.user,
                game=data["game"],
                level=data["level"],
                side=data["side"],
                time_control=data["time_control"],
                move_limit=data["move_limit"],
                now=now,
            )
        except computer.ComputerError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("games:battle", battle_id=battle.pk)
    challenge = ChallengeForm(user=request.user)
    return _start_page(request, challenge, computer_form=form, now=now, status=400)


def _start_page(
    request: HtmxHttpRequest,
    form: ChallengeForm,
    *,
    computer_form: ComputerForm | None = None,
    now: datetime,
    status: int,
) -> HttpResponse:
    # The profiles come with the users: the names' BOT marks cost no query each.
    live = Challenge.objects.live(now).select_related("challenger__profile", "opponent__profile")
    seeks = live.filter(opponent__isnull=True).exclude(challenger=request.user)
    # Accepted challenges whose battles wait for the players (found here without
    # JavaScript too; with it, the page turns into the battle at once).
    waiting = list(
        queries.waiting_for_players(request.user).select_related(
            "first_user__profile", "second_user__profile"
        )
    )
    context = {
        "form": form,
        "computer_form": computer_form or ComputerForm(),
        "received": paginate(
            request,
            queries.challenges_received(request.user, now=now),
            param="received",
            anchor="received",
        ),
        "seeks": paginate(request, seeks, param="page", anchor="seeks"),
        "made": paginate(
            request, queries.challenges_made(request.user, now=now), param="made", anchor="made"
        ),
        "waiting": waiting,
        "match_numbers": matches.numbers_of([b.pk for b in waiting]),
        "rules_links": rules_links(),
    }
    return render(request, "play/start.html", context, status=status)


def rules_links() -> list[dict[str, str]]:
    """Each game's rules page, its name translated: the default game's at ``/rules/``."""
    return [
        {
            "url": reverse("rules")
            if game.key == registry.DEFAULT
            else reverse("rules_game", args=[game.key]),
            "name": _(game.name),
        }
        for game in registry.all_games()
    ]


@require_GET
def users(request: HtmxHttpRequest) -> JsonResponse:
    """Usernames for the challenge form's suggestions (``play.suggest``), as JSON:
    ``{"users": [...]}``, or ``{"error": "..."}`` with 400, 403 or 429."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": _("Log in to look up players.")}, status=403)
    if not suggest.allowed(request.user):
        return JsonResponse(
            {"error": _("Too many look-ups: wait a minute and try again.")}, status=429
        )
    try:
        q = suggest.clean_query(request.GET.get("q", ""))
    except suggest.SuggestError as exc:
        return JsonResponse({"error": str(exc.message)}, status=400)
    return JsonResponse({"users": suggest.usernames(q, asker=request.user)})


@login_required
@require_POST
def answer(request: HtmxHttpRequest, challenge_id: int, action: str) -> HttpResponse:
    """Accept (→ the new battle), decline or cancel an open challenge."""
    if action not in ACTIONS:
        raise Http404("No such action")
    get_object_or_404(Challenge, pk=challenge_id)
    now = timezone.now()
    try:
        if action == "accept":
            battle = challenges.accept(challenge_id, by=request.user, now=now)
            return redirect("games:battle", battle_id=battle.pk)
        if action == "decline":
            challenges.decline(challenge_id, by=request.user, now=now)
        else:
            challenges.cancel(challenge_id, by=request.user, now=now)
    except challenges.ChallengeError as exc:
        messages.error(request, exc.message)
        return _start_page(request, ChallengeForm(user=request.user), now=now, status=409)
    return redirect("play:start")


@login_required
@require_GET
def my_games(request: HtmxHttpRequest) -> HttpResponse:
    """The user's casual battles, the ones waiting for their move first."""
    mine = queries.casual_battles_of(request.user).select_related(
        "first_user__profile", "second_user__profile"
    )
    your_move = queries.your_move(request.user)
    first = list(mine.filter(your_move).order_by("deadline", "pk"))
    others = list(mine.exclude(your_move).order_by("-updated_at", "-pk")[:100])
    names = {game.key: _(game.name) for game in registry.all_games()}  # noqa: INT001
    context = {
        "your_move": first,
        "others": others,
        "match_numbers": matches.numbers_of([b.pk for b in first + others]),
        "against_computer": [
            (names.get(line.game, line.game), line)
            for line in stats_lib.against_computer(queries.computer_result_rows(request.user))
        ],
    }
    return render(request, "play/games.html", context)


@require_GET
def stats(request: HtmxHttpRequest) -> HttpResponse:
    """Wins of the first side, the second side and draws, per game (site-wide, per player)."""
    games = registry.all_games()
    keys = [g.key for g in games]
    name = request.GET.get("player", "").strip()
    player = queries.user_named(name) if name else None
    if name and player is None:
        # The page itself, saying so: a 404 for any name, a NUL or 100 kB of text alike.
        return render(request, "play/stats.html", {"not_found": True}, status=404)
    if not name and request.user.is_authenticated:
        player = request.user
    site = stats_lib.by_side(keys, queries.site_result_rows())
    per_player = stats_lib.for_player(keys, queries.player_result_rows(player)) if player else {}
    rows = [
        {
            "game": game,
            "first_side": _(game.sides[0].name),  # noqa: INT001
            "second_side": _(game.sides[1].name),  # noqa: INT001
            "name": _(game.name),  # noqa: INT001
            "site": site[game.key],
            "player": per_player.get(game.key),
        }
        for game in games
    ]
    return render(request, "play/stats.html", {"rows": rows, "player": player})


#: The form field the site's confirmation dialog adds (``static/js/site.js``).
CONFIRM_FIELD = "confirm"


def bot_question() -> str:
    """What the "become a bot account" button asks before it does it."""
    return _(
        "Turn this account into a bot account for good? A program will play it through the "
        "API; it can then play people only in unrated games, and it can never become a "
        "person's account again."
    )


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: AuthedRequest) -> HttpResponse:
    """The user's email setting (on the profile), and the bot account section."""
    profile, _created = UserProfile.objects.get_or_create(user=request.user)
    form = NotificationsForm(request.POST if request.method == "POST" else None, instance=profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
        return redirect("play:settings")
    return _settings_page(request, form, profile=profile)


def _settings_page(
    request: AuthedRequest,
    form: NotificationsForm,
    *,
    profile: UserProfile,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "form": form,
        "is_bot": profile.is_bot,
        "bot_question": bot_question(),
        "bot_refusal": refusal,
    }
    return render(request, "play/settings.html", context, status=status)


@login_required
@require_POST
def become_bot(request: AuthedRequest) -> HttpResponse:
    """Turn the account into a bot account (asked first; refused once it has played)."""
    if request.POST.get(CONFIRM_FIELD) != "1":
        # Nothing done: the same question, on a page of its own (no JavaScript ran).
        context = {
            "question": bot_question(),
            "yes": _("Make this a bot account"),
            "fields": [],
            "back": reverse("play:settings"),
        }
        return render(request, "tournaments/confirm.html", context, status=400)
    try:
        bots.become_bot(request.user, now=timezone.now())
    except bots.BotRefused as exc:
        profile, _created = UserProfile.objects.get_or_create(user=request.user)
        form = NotificationsForm(instance=profile)
        return _settings_page(request, form, profile=profile, refusal=exc.message, status=409)
    messages.success(request, _("This account is a bot account now."))
    return redirect("play:settings")
