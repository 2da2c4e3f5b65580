"""The staff page of a tournament shows, from the ledger, what each entrant paid and won, with their place."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.tournament_helpers import new_tournament, play_to_the_end
from tournaments.tournament import registration
from tournaments.tournament.models import TournamentEntry

pytestmark = pytest.mark.django_db


def test_a_finished_tournament_shows_places_and_prizes(
    make_player: Any, admin_user: Any, staff_user: Any
) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=1, max_entrants=3, payouts=[70, 30])
    for name in ("ann", "bob", "cid"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    play_to_the_end(tournament)
    staff = Client()
    staff.force_login(staff_user)
    html = staff.get(f"/audit/tournaments/{tournament.pk}/").content.decode()
    places = re.findall(r'<td data-role="place">(\d*)</td><td><a href="[^"]+">(\w+)</a>', html)
    entries = TournamentEntry.objects.filter(tournament=tournament).select_related("player")
    assert sorted(places) == sorted((str(e.place), e.player.username) for e in entries)
    assert [int(p) for p, _ in places] == sorted(int(p) for p, _ in places)
    winner = next(e for e in entries if e.place == 1 and e.prize)
    assert f'data-kind="payout" data-value="{winner.prize}"' in html
