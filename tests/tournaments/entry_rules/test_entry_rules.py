"""Entry rules (docs/rules.md "Entry rules"): a rating band in the tournament's game family (no rating: the
starting rating), newcomers only, private tournaments (listed to no one, joined with a code), freerolls; each
refusal names its rule and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Account
from ledger.services import accounts
from ratings.models import Rating
from tests.factories import TournamentFactory
from tests.ledger.utils import assert_reconciled
from tournaments.entry_rules import rules
from tournaments.tournament.models import TournamentEntry, TournamentStatus

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

SNG = {
    "name": "Band",
    "kind": "single",
    "game": "rummy500",
    "buy_in": 100,
    "fee": 10,
    "max_entrants": 2,
    "target_score": 1,
}


@pytest.mark.parametrize(
    ("band", "rating", "results", "refused"),
    [
        (rules.EntryRules(min_rating=900, max_rating=1100), 900, 0, None),
        (rules.EntryRules(min_rating=900, max_rating=1100), 1100, 0, None),
        (rules.EntryRules(min_rating=900, max_rating=1100), 899, 0, rules.RATING_BAND),
        (rules.EntryRules(min_rating=900, max_rating=1100), 1101, 0, rules.RATING_BAND),
        (rules.EntryRules(max_rated_results=5), 1000, 4, None),
        (rules.EntryRules(max_rated_results=5), 1000, 5, rules.NEWCOMERS),
        (rules.EntryRules(min_rating=1200, max_rated_results=5), 1000, 9, rules.RATING_BAND),
        (rules.EntryRules(), -50, 10_000, None),
    ],
)
def test_the_rules_on_plain_values(
    band: rules.EntryRules, rating: int, results: int, refused: str | None
) -> None:
    found = rules.refusal(band, rating=rating, rated_results=results)
    assert (found.rule if found else None) == refused


def _wallet(user: Any) -> int:
    return int(accounts.get_wallet(user=user).balance)


def test_a_rating_outside_the_band_is_refused_and_nothing_moves(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    tournament = TournamentFactory.create(created_by=admin_user, min_rating=1100, max_rating=1300)
    strong, other_family, newcomer = make_player("strong"), make_player("otherfam"), make_player("fresh")
    Rating.objects.create(player=strong, family="rummy500", rating=1400, games=30)
    Rating.objects.create(player=other_family, family="rummy500", rating=1200, games=3)
    Rating.objects.create(player=other_family, family="basic", rating=2000, games=3)
    before = _wallet(strong)
    refused = client_for(strong).post(f"/api/v1/tournaments/{tournament.pk}/register/")
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "tournament.entry_rule"
    assert error["details"] == {"rule": "rating_band", "min_rating": 1100, "max_rating": 1300, "rating": 1400}
    assert _wallet(strong) == before and not TournamentEntry.objects.filter(player=strong).exists()
    # Only the tournament's family counts; a player with no rating has the starting rating (1000).
    assert client_for(other_family).post(f"/api/v1/tournaments/{tournament.pk}/register/").status_code == 201
    fresh = client_for(newcomer).post(f"/api/v1/tournaments/{tournament.pk}/register/")
    assert fresh.json()["error"]["details"]["rating"] == 1000
    # In Italian, the same code and details.
    italian = client_for(strong).post(
        f"/api/v1/tournaments/{tournament.pk}/register/", HTTP_ACCEPT_LANGUAGE="it"
    )
    assert italian.json()["error"]["code"] == "tournament.entry_rule"
    assert italian.json()["error"]["message"] != error["message"]
    assert_reconciled()


def test_newcomers_only(admin_user: Any, make_player: Any, client_for: Any) -> None:
    tournament = TournamentFactory.create(created_by=admin_user, max_rated_results=5)
    veteran, novice = make_player("veteran"), make_player("novice")
    Rating.objects.create(player=veteran, family="rummy500", rating=1000, games=5)
    Rating.objects.create(player=novice, family="rummy500", rating=1000, games=4)
    refused = client_for(veteran).post(f"/api/v1/tournaments/{tournament.pk}/register/").json()["error"]
    assert refused["details"] == {"rule": "newcomers", "max_rated_results": 5, "rated_results": 5}
    assert client_for(novice).post(f"/api/v1/tournaments/{tournament.pk}/register/").status_code == 201


def test_a_private_tournament_is_listed_to_no_one_and_joined_with_its_code(
    admin_user: Any, make_player: Any, client_for: Any
) -> None:
    created = client_for(admin_user).post("/api/v1/tournaments/", {**SNG, "private": True}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    code, tournament_id = body["code"], body["id"]
    assert body["private"] is True and len(code) == 8
    ann = make_player("ann")
    assert tournament_id not in [
        t["id"] for t in client_for(ann).get("/api/v1/tournaments/").json()["results"]
    ]
    assert client_for(ann).get(f"/api/v1/tournaments/{tournament_id}/").status_code == 404
    for part in ("standings/", "tables/", "events/", "deal/"):
        assert client_for(ann).get(f"/api/v1/tournaments/{tournament_id}/{part}").status_code == 404, part
    by_id = client_for(ann).post(f"/api/v1/tournaments/{tournament_id}/register/")
    assert by_id.status_code == 404 and by_id.json()["error"]["code"] == "tournament.not_found"
    wrong = client_for(ann).post("/api/v1/tournaments/join/", {"code": "NOTACODE"}, format="json")
    assert wrong.status_code == 404
    joined = client_for(ann).post(
        "/api/v1/tournaments/join/", {"code": f" {code[:4].lower()} {code[4:]}"}, format="json"
    )
    assert joined.status_code == 201 and joined.json()["tournament"] == tournament_id
    assert client_for(ann).get(f"/api/v1/tournaments/{tournament_id}/").json()["code"] == code
    mine = client_for(ann).get("/api/v1/tournaments/?registered=true").json()["results"]
    assert [t["id"] for t in mine] == [tournament_id]
    assert client_for(None).get(f"/api/v1/tournaments/{tournament_id}/").status_code == 404
    assert client_for(ann).get(f"/api/v1/tournaments/{tournament_id}/standings/").status_code == 200
    assert_reconciled()


def test_a_freeroll_with_a_guarantee_and_a_band(admin_user: Any, make_player: Any, client_for: Any) -> None:
    settings = {**SNG, "buy_in": 0, "fee": 0, "guarantee": 500, "min_rating": 900, "max_rating": 1100}
    created = client_for(admin_user).post("/api/v1/tournaments/", settings, format="json").json()
    assert created["freeroll"] is True and created["min_rating"] == 900
    players = [make_player("f1"), make_player("f2")]
    before = [_wallet(p) for p in players]
    for player in players:
        assert client_for(player).post(f"/api/v1/tournaments/{created['id']}/register/").status_code == 201
    assert [_wallet(p) for p in players] == before
    from tournaments.tournament.models import Tournament

    tournament = Tournament.objects.get(pk=created["id"])
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament.pool_account_id is not None
    assert Account.objects.get(pk=tournament.pool_account_id).balance == 500
    assert_reconciled()


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"min_rating": 1200, "max_rating": 1100}, "max_rating"),
        ({"max_rated_results": 0}, "max_rated_results"),
        ({"private": "yes"}, "private"),
        ({"deal_keep": 20}, "deal_keep"),
    ],
)
def test_bad_settings_are_refused(
    admin_user: Any, client_for: Any, extra: dict[str, Any], field: str
) -> None:
    refused = client_for(admin_user).post("/api/v1/tournaments/", {**SNG, **extra}, format="json")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] in ("tournament.invalid", "request.invalid"), error


ADMIN_FORM = {
    "name": "Admin's band",
    "game": "rummy500",
    "options": "{}",
    "buy_in": "0",
    "fee": "0",
    "guarantee": "300",
    "max_entrants": "3",
    "min_entrants": "2",
    "target_score": "200",
    "tiebreak_rounds": "5",
    "multiplier": "1",
    "payouts": "[70, 30]",
    "entries-TOTAL_FORMS": "0",
    "entries-INITIAL_FORMS": "0",
}


def test_the_admin_form_sets_entry_rules_in_words_and_refuses_a_band_upside_down(admin_user: Any) -> None:
    from django.test import Client

    from tournaments.tournament.models import Tournament

    browser = Client()
    browser.force_login(admin_user)
    add = "/admin/tournaments/tournament/add/?kind=single"
    page = browser.get(add).content.decode()
    assert "Lowest rating admitted" in page and "Private (joined with a code)" in page
    wrong = browser.post(add, {**ADMIN_FORM, "kind": "single", "min_rating": "1200", "max_rating": "1100"})
    assert wrong.status_code == 200 and "max_rating" in wrong.context["adminform"].form.errors
    made = browser.post(
        add,
        {**ADMIN_FORM, "kind": "single", "min_rating": "900", "max_rated_results": "10", "private": "on"},
    )
    assert made.status_code == 302, made.context["adminform"].form.errors if made.context else ""
    tournament = Tournament.objects.get()
    assert (tournament.min_rating, tournament.max_rating, tournament.max_rated_results) == (900, None, 10)
    assert tournament.private and tournament.code and tournament.buy_in == 0
