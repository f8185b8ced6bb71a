"""Round 1 on the organiser's round page (issue 41): the draft says the rule that paired it
(the fold of the seeds, the bye to the lowest: ``pairing.first_round``, the same costs as
the Swiss pairing), in the order the check-in left; the swap and bye forms have headings;
the bye is offered only to players present and paired in the round."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.factories import tournament_with_players
from tests.tournaments.web.organiser.pages import HTMX, url
from tournaments.models.rounds import Round
from tournaments.models.tournament import Entry
from tournaments.rounds.draw import pair_next_round
from tournaments.rounds.edits import set_bye, swap_players
from tournaments.rounds.locks import RoundError

pytestmark = pytest.mark.django_db


def check_in_tournament(n: int, *, absent: tuple[int, ...] = ()):
    """``n`` players seeded 1..n, all checked in but the seeds in ``absent``."""
    t = tournament_with_players(n, rounds=3, check_in_required=True)
    Entry.objects.filter(tournament=t).exclude(seed__in=absent).update(checked_in=True)
    return t


def seed(t, n: int) -> Entry:
    return Entry.objects.select_related("player").get(tournament=t, seed=n)


def headings(html: str) -> list[str]:
    """The page's h2 texts (the confirmation dialog's empty one aside)."""
    texts = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h2[^>]*>(.*?)</h2>", html)]
    return [text for text in texts if text]


def test_the_round_one_draft_explains_its_fold_of_the_present_seeds(client):
    t = check_in_tournament(8, absent=(3,))  # seven present: 1 2 4 5 6 7 8
    client.force_login(t.owner)
    pair_next_round(t, by=None, now=timezone.now())
    html = client.get(url(t, "rounds/1/")).content.decode()
    assert "round 1 pairs the players by seed, folded" in html
    assert "Here, by seed: 1–7, 2–6, 4–5." in html  # what the pairing made: no table differs
    assert "Here, seed 8." in html
    assert 'id="round-one-differs"' not in html
    assert "seed 1</span>" in html
    # An edit moves the draft away from the rule; the page says where.
    swap_players(Round.objects.get(), seed(t, 1), seed(t, 2))
    html = client.get(url(t, "rounds/1/")).content.decode()
    assert re.search(r"differs from that rule at tables \d, \d\.", html)


def test_later_rounds_and_round_robins_do_not_explain_a_fold(client):
    t = tournament_with_players(4, rounds=3, format="round_robin")
    client.force_login(t.owner)
    pair_next_round(t, by=None, now=timezone.now())
    assert "How round 1 is paired" not in client.get(url(t, "rounds/1/")).content.decode()


def test_the_swap_and_bye_forms_have_headings_after_the_rule(client):
    t = check_in_tournament(5)
    client.force_login(t.owner)
    pair_next_round(t, by=None, now=timezone.now())
    html = client.get(url(t, "rounds/1/")).content.decode()
    assert headings(html) == ["How round 1 is paired", "Swap two players", "Give the bye"]
    fragment = client.post(url(t, "rounds/1/bye/"), {"entry": seed(t, 1).pk}, **HTMX)
    assert headings(fragment.content.decode())[1:] == ["Swap two players", "Give the bye"]


def test_the_bye_is_offered_only_to_players_present_and_paired_in_the_round(client):
    t = check_in_tournament(6, absent=(6,))  # seed 6 never checked in: not paired
    client.force_login(t.owner)
    round_ = pair_next_round(t, by=None, now=timezone.now())
    # After the draft, seed 2 leaves the desk and seed 3 withdraws: both still in the draft.
    Entry.objects.filter(pk=seed(t, 2).pk).update(checked_in=False)
    Entry.objects.filter(pk=seed(t, 3).pk).update(withdrawn_from_round=1)
    html = client.get(url(t, "rounds/1/")).content.decode()
    select = re.search(r'<select name="entry".*?</select>', html, re.S).group(0)
    offered = {int(v) for v in re.findall(r'value="(\d+)"', select)}
    assert offered == {seed(t, n).pk for n in (1, 4, 5)}

    before = list(round_.matches.order_by("table").values_list("player_a", "player_b"))
    for n in (2, 3, 6):  # refused with a clear message; nothing changed
        response = client.post(url(t, "rounds/1/bye/"), {"entry": seed(t, n).pk}, **HTMX)
        assert "Choose a player present and paired in this round." in response.content.decode()
        with pytest.raises(RoundError, match="not playing this round"):
            set_bye(round_, seed(t, n))
    after = list(round_.matches.order_by("table").values_list("player_a", "player_b"))
    assert after == before
