"""Practice tables through their services and API, in the test's process (the worker's part is
test_worker.py): a table of any preset with 1-3 bots, no chips moved, never listed, hidden from others,
rounds played to the end by the bots' task body and the player, a stacked first deal, the player's earlier table
closed, leaving closes it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger.models import Transfer
from ratings.results import round_places
from tests.ledger.utils import assert_reconciled
from tests.tournaments.practice.helpers import play_out_round
from tournaments.engine import PRESETS
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, MoveLog, Round, Seat, SeatStatus, Table, TableStatus
from tournaments.live.rounds import start as round_start
from tournaments.practice import services
from tournaments.practice.bots import BOT_NAMES
from tournaments.practice.models import PracticeTable
from tournaments.practice.services import StackedDeal
from tournaments.practice.task_names import CLOSE_PRACTICE

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def _start(client: Any, **body: Any) -> Any:
    return client.post("/api/v1/practice/", {"game": "rummy500", "bots": 1, "level": "medium", **body})


def test_a_practice_table_over_the_api(make_player: Any, client_for: Any, staff_user: Any) -> None:
    ann = make_player("ann")
    response = _start(client_for(ann), bots=3, level="hard")
    assert response.status_code == 201, response.content
    body = response.json()
    table = Table.objects.get(pk=body["table"])
    assert body == {"table": table.pk, "game": Game.objects.get(table=table).pk}
    assert table.practice and not table.private and table.tournament_id is None
    seats = list(
        Seat.objects.filter(table=table).order_by("number").values_list("player__username", "status")
    )
    assert seats == [("ann", "active"), *((name, "active") for name in BOT_NAMES)]
    assert PracticeTable.objects.get(table=table).level == "hard"
    # Its player and staff read it; nobody else learns it exists; it is never listed.
    detail = client_for(ann).get(f"/api/v1/tables/{table.pk}/").json()
    assert detail["practice"] is True and [p["chips"] for p in detail["players"]] == [0, 0, 0, 0]
    assert client_for(staff_user).get(f"/api/v1/tables/{table.pk}/").status_code == 200
    bob = make_player("bob")
    assert client_for(bob).get(f"/api/v1/tables/{table.pk}/").json()["error"]["code"] == "table.not_found"
    assert client_for(bob).get(f"/api/v1/games/{body['game']}/").status_code == 404
    listed = client_for(bob).get("/api/v1/tables/").json()["results"]
    assert table.pk not in [row["id"] for row in listed]
    # Nobody sits down at it, its player included: it takes no chips.
    for user in (ann, bob):
        refused = client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100})
        assert refused.status_code in (404, 409)
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 100}).json()["error"][
        "code"
    ] == ("table.practice")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "chess"}, "game"),
        ({"bots": 0}, "bots"),
        ({"bots": 4}, "bots"),
        ({"bots": "2"}, "bots"),
        ({"bots": True}, "bots"),
        ({"level": "grandmaster"}, "level"),
        ({"level": None}, "level"),
    ],
)
def test_a_bad_request_is_refused_and_changes_nothing(
    make_player: Any, client_for: Any, body: dict[str, Any], field: str
) -> None:
    response = _start(client_for(make_player("ann")), **body)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] in ("request.invalid", "table.invalid_options")
    assert field in str(error["details"])
    assert not Table.objects.exists()


def test_only_a_signed_in_player_practises(client_for: Any) -> None:
    response = _start(client_for(None))
    assert response.status_code == 401
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("game", "level"), [(game, ("easy", "medium", "hard")[i % 3]) for i, game in enumerate(sorted(PRESETS))]
)
def test_a_round_of_every_preset_is_played_out_without_chips(make_player: Any, game: str, level: str) -> None:
    ann = make_player("ann")
    transfers_before = Transfer.objects.count()
    table = services.start_practice(player=ann, game=game, bots=2, level=level)
    game_row = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game_row.pk) is not None
    round_ = play_out_round(game_id=game_row.pk, player=ann)
    round_.refresh_from_db()
    assert round_.ended_at is not None and round_.settled and round_.scores
    assert round_.transfers == []
    assert Transfer.objects.count() == transfers_before
    # The bots moved through the server's own path; the player's moves are theirs. The deal is the CSPRNG's, and
    # it may let the player go out before any bot's turn (seen once in CI: three moves of ann's ended the round);
    # a bot that failed to move would leave the round unfinished (play_out_round: "nobody moves").
    bot_moves = MoveLog.objects.filter(round=round_, player__in=BOT_NAMES)
    players = set(MoveLog.objects.filter(round=round_).values_list("player", flat=True))
    assert bot_moves.exists() or players == {"ann"}, players
    assert not bot_moves.filter(server_played=False).exists()
    assert not MoveLog.objects.filter(round=round_, player="ann", server_played=True).exists()
    # Never rated; everyone stays for the next deal.
    assert round_places(round_) is None
    assert Seat.objects.filter(table=table, status=SeatStatus.ACTIVE).count() == 3
    game_row.refresh_from_db()
    assert game_row.next_round_at is not None
    assert_reconciled()


def test_a_stacked_first_deal(make_player: Any) -> None:
    ann = make_player("ann")
    from tournaments.engine import Ruleset, new_round

    deck = list(new_round(Ruleset.preset("rummy500"), ["x", "y"], seed=7).deck)
    table = services.start_practice(
        player=ann,
        game="rummy500",
        bots=1,
        level="medium",
        deal=StackedDeal(deck=tuple(deck), dealer="Bot Anna"),
    )
    game_row = Game.objects.get(table=table)
    first = round_start.start_round(game_id=game_row.pk)
    assert first is not None
    assert first.deck == deck and first.players[first.dealer] == "Bot Anna"
    play_out_round(game_id=game_row.pk, player=ann)
    second = round_start.start_round(game_id=game_row.pk)
    assert second is not None and second.number == 2 and second.deck != deck


def test_a_new_practice_table_ends_the_earlier_one(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    first = services.start_practice(player=ann, game="rummy500", bots=1, level="easy")
    game_row = Game.objects.get(table=first)
    round_start.start_round(game_id=game_row.pk)  # a round running at the first table
    second = services.start_practice(player=ann, game="basic", bots=2, level="medium")
    first.refresh_from_db()
    assert first.status == TableStatus.CLOSED and second.status == TableStatus.OPEN
    # The running round is dropped at once, not played out by the bots: every seat freed, the game closed,
    # the round left unfinished (never scored) and no bot move played after the player left.
    assert not Seat.objects.filter(table=first).exclude(status=SeatStatus.LEFT).exists()
    game_row.refresh_from_db()
    assert game_row.status == "closed"
    dropped = Round.objects.get(game=game_row)
    assert dropped.ended_at is None and dropped.scores is None and not dropped.settled
    assert not MoveLog.objects.filter(round=dropped).exists()
    # A bot message still on its way finds nothing to play.
    assert services.bot_turn(game_id=game_row.pk, version=game_row.version) is False
    assert PracticeTable.objects.get(table=first).current is False


def test_leaving_between_rounds_closes_the_table(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    table = services.start_practice(player=ann, game="rummy500", bots=1, level="easy")
    with dispatch.captured() as sent:
        response = client_for(ann).post(f"/api/v1/tables/{table.pk}/leave/")
    assert response.status_code == 200, response.content
    assert sent == [(CLOSE_PRACTICE, [table.pk])]
    services.close_practice(table_id=table.pk)  # the task's body, as the worker runs it
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED
    assert not Seat.objects.filter(table=table).exclude(status=SeatStatus.LEFT).exists()
    assert Game.objects.get(table=table).status == "closed"
    assert Transfer.objects.filter(table_id=table.pk).count() == 0


def test_the_bots_move_hook_costs_no_query_at_other_tables(make_table: Any) -> None:
    from tournaments.live.tables import policy as table_policy
    from tournaments.practice.bots import send_bot_move

    ring = make_table()
    with CaptureQueriesContext(connection) as queries:
        hook = table_policy.change_hook(ring)
    assert len(queries) == 0
    # A ring table's changes may be watched (the notifications' "your turn"), never by the practice bots.
    assert hook is not send_bot_move


def test_a_finished_practice_round_is_never_rated(make_player: Any) -> None:
    ann = make_player("ann")
    table = services.start_practice(player=ann, game="rummy500", bots=1, level="easy")
    game_row = Game.objects.get(table=table)
    round_start.start_round(game_id=game_row.pk)
    round_ = play_out_round(game_id=game_row.pk, player=ann)
    assert round_places(Round.objects.select_related("game__table").get(pk=round_.pk)) is None
