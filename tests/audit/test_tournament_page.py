"""The staff page of a tournament shows, from the ledger, what each entrant paid and won, with their place."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.single_table.helpers import new_tournament, play_to_the_end
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


def test_a_satellites_page_shows_its_ticket_flows_in_words(
    make_player: Any, admin_user: Any, staff_user: Any
) -> None:
    from tests.tournaments.multi_table.helpers import new_multi
    from tournaments.tournament.models import Tournament

    target = new_multi(admin_user, buy_in=100, fee=10)
    satellite = new_tournament(admin_user, kind="quick", rounds=1, max_entrants=2, buy_in=100, fee=0)
    Tournament.objects.filter(pk=satellite.pk).update(satellite_target=target)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=satellite.pk)
    play_to_the_end(satellite)
    staff = Client()
    staff.force_login(staff_user)
    html = staff.get(f"/audit/tournaments/{satellite.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "ticket issued" in html or "Tickets won in tournament" in html, html
    italian = staff.get(f"/audit/tournaments/{satellite.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "ticket emesso" in italian or "Ticket vinti nel torneo" in italian
