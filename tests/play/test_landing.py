"""The landing page for players, rendered by Django: Play up front, the tournaments open for registration (read
from the tournaments' selector, soonest first), the games with their short rules, the developer links in the
footer; in English and in Italian."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import MultiTournamentFactory, PlayerFactory, TournamentFactory
from tournaments.tournament import registration, selectors
from tournaments.tournament.models import TournamentStatus

pytestmark = pytest.mark.django_db


def _section(html: str, role: str) -> str:
    found = re.search(rf'<(section|footer)[^>]*data-role="{role}"[^>]*>(.*?)</\1>', html, re.S)
    assert found, role
    return found.group(2)


def test_open_for_registration_lists_the_registering_ones_soonest_start_first() -> None:
    later = MultiTournamentFactory.create(name="Later", starts_at=timezone.now() + timedelta(hours=5))
    sooner = MultiTournamentFactory.create(name="Sooner", starts_at=timezone.now() + timedelta(hours=1))
    sit_and_go = TournamentFactory.create(name="Sit")
    newer_sit_and_go = TournamentFactory.create(name="Newer sit")
    TournamentFactory.create(name="Running", status=TournamentStatus.RUNNING)
    TournamentFactory.create(name="Over", status=TournamentStatus.FINISHED)
    MultiTournamentFactory.create(name="Not yet open", status=TournamentStatus.SCHEDULED)
    ann = PlayerFactory.create(username="ann")
    registration.register(user=ann, tournament_id=sit_and_go.pk)

    rows = selectors.open_for_registration(limit=10)
    assert [row.tournament.pk for row in rows] == [sooner.pk, later.pk, newer_sit_and_go.pk, sit_and_go.pk]
    assert [row.entrants for row in rows] == [0, 0, 0, 1]
    assert all(row.entry_status is None for row in rows)  # read for no one in particular
    assert [row.tournament.pk for row in selectors.open_for_registration(limit=2)] == [sooner.pk, later.pk]


def test_the_landing_page_puts_play_and_the_open_tournaments_first_and_the_developer_links_last() -> None:
    sooner = MultiTournamentFactory.create(name="Sunday multi", buy_in=1_000, fee=100, guarantee=25_000)
    sit_and_go = TournamentFactory.create(name="Friday sit-and-go")
    TournamentFactory.create(name="Finished one", status=TournamentStatus.FINISHED)

    html = Client().get("/").content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    assert re.search(r'<a class="button primary big" href="/play/" data-role="link-play">Play now</a>', main)
    assert main.index('data-role="link-play"') < main.index('data-role="landing-tournaments"')
    assert len(re.findall(r"<h1\b", html)) == 1

    listed = _section(html, "landing-tournaments")
    assert re.findall(r'data-tournament="(\d+)"', listed) == [str(sooner.pk), str(sit_and_go.pk)]
    assert f'href="/play/#/tournament/{sooner.pk}"' in listed and "Finished one" not in listed
    assert "1,000 + 100 chips" in listed and "25,000 chips" in listed  # buy-in + fee; the guaranteed pool
    assert (
        "when the table is full" in listed and "Multi-table tournament" in listed and "Sit-and-go" in listed
    )

    games = re.findall(r'data-role="game" data-game="(\w+)"', _section(html, "landing-games"))
    assert games == ["rummy500", "rummy500_household", "basic", "block", "wrotham", "romme", "board"]
    learn = re.findall(r'href="/play/learn/(\w+)/" data-role="learn-link" data-game="(\w+)"', html)
    assert [a for a, b in learn if a == b] == games  # each game links to its how-to-play page

    # the developer links: in the footer, none of them in the page's main part
    footer = _section(html, "footer")
    links = dict(re.findall(r'<a href="([^"]+)" data-role="(link-[a-z]+)"', footer))
    assert set(links) == {
        "/api/docs/",
        "/api/redoc/",
        "/api/schema/",
        "/admin/",
        "/audit/",
        "/health/",
        "/ready/",
    }
    for href in links:
        assert f'href="{href}"' not in main, href


def test_with_no_tournament_open_the_landing_page_says_so() -> None:
    html = Client().get("/").content.decode()
    assert 'data-role="no-tournaments"' in _section(html, "landing-tournaments")


def test_the_landing_page_in_italian() -> None:
    MultiTournamentFactory.create(name="Domenica", buy_in=1_000, fee=100)
    html = Client(HTTP_ACCEPT_LANGUAGE="it").get("/").content.decode()
    assert '<html lang="it"' in html
    assert "Gioca ora" in html and "Tornei con iscrizioni aperte" in html
    assert "Vai al contenuto principale" in html and "Per sviluppatori e staff" in html
    assert "1.000 + 100 fiches" in html and "Multi Torneo" in html  # Italian digit grouping
    games = _section(html, "landing-games")
    assert "Ramino 500" in games and "tallone" in games and "pozzo" in games and "Rommé" in games
    assert "Draw the top card" not in games
