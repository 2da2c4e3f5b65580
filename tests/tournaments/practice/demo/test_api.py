"""`POST /api/v1/demo/` (docs/api.md "The demo"): a guest (or the signed-in caller) at a practice
table of Rummy 500 against Bot Anna on the demo's stacked deal; guests have no password and no chips, whatever
the house grant gives players; the round played by the script through the server's own paths, no chips moved."""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.selectors import is_guest
from accounts.usernames import GUEST_ALPHABET
from ledger.models import Transfer
from ledger.selectors import wallet_balance
from ledger.services import grants
from tests.clients import api_client
from tests.factories import PlayerFactory
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Game, MoveLog, Seat, Table
from tournaments.live.moves.pipeline import submit_move
from tournaments.live.rounds import start as round_start
from tournaments.practice.demo import script as demo_script
from tournaments.practice.demo.views import DemoAddressThrottle
from tournaments.practice.models import PracticeTable
from tournaments.practice.services import bot_turn

pytestmark = pytest.mark.django_db

GUEST = re.compile(rf"^Guest [{GUEST_ALPHABET}]{{6}}$")


def _demo(client: Any = None, **extra: Any) -> Any:
    return (client or api_client()).post("/api/v1/demo/", **extra)


def test_an_anonymous_caller_gets_a_guest_its_token_and_a_demo_table() -> None:
    grants.configure(enabled=True, welcome_chips=1500, daily_floor=1000)  # the house gives players chips...
    transfers = Transfer.objects.count()
    response = _demo()
    assert response.status_code == 201, response.content
    body = response.json()
    assert GUEST.match(body["username"]) and body["token"]
    assert [s["key"] for s in body["steps"]] == [s.key for s in demo_script.STEPS]
    table = Table.objects.get(pk=body["table"])
    assert table.practice and Game.objects.get(table=table).pk == body["game"]
    practice = PracticeTable.objects.get(table=table)
    bots = list(
        Seat.objects.filter(table=table)
        .exclude(player=practice.player)
        .values_list("player__username", flat=True)
    )
    assert practice.demo and practice.level == "medium" and bots == [demo_script.BOT]
    assert practice.first_deal == {"deck": list(demo_script.deck()), "dealer": demo_script.DEALER}
    assert table.game == "rummy500" and table.options["turn_seconds"] == 300
    guest = practice.player
    assert guest.get_username() == body["username"]
    assert not guest.has_usable_password() and is_guest(user=guest)
    # The token plays: the table and its game are the guest's.
    client = api_client(token=body["token"])
    assert client.get(f"/api/v1/tables/{table.pk}/").json()["practice"] is True
    assert client.get("/api/v1/games/{}/".format(body["game"])).status_code == 200
    # ...but not to guests: no welcome chips, no daily top-up (it would have granted 1000).
    assert Transfer.objects.count() == transfers
    wallet = client.get("/api/v1/wallet/").json()
    assert (
        wallet["balance"] == 0 and wallet["top_up"]["state"] == "guest" and not wallet["top_up"]["available"]
    )
    refused = client.post("/api/v1/wallet/top-up/")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "grant.guest"
    assert Transfer.objects.count() == transfers
    # Nobody signs in as a guest (no password): the sign-in refuses the name whatever is sent.
    signed = api_client().post("/api/v1/auth/token/", {"username": body["username"], "password": ""})
    assert signed.status_code == 400
    assert_reconciled()


def test_two_guests_have_two_names() -> None:
    first, second = _demo().json(), _demo().json()
    assert first["username"] != second["username"] and first["table"] != second["table"]


def test_a_signed_in_caller_plays_the_demo_as_themself() -> None:
    ann = PlayerFactory.create(username="ann", chips=500)
    before = Transfer.objects.count()
    response = _demo(api_client(ann))
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["username"] == "ann" and body["token"] is None
    assert PracticeTable.objects.get(table_id=body["table"]).player == ann
    assert list(
        Seat.objects.filter(table_id=body["table"])
        .order_by("number")
        .values_list("player__username", flat=True)
    ) == ["ann", demo_script.BOT]
    assert not is_guest(user=ann) and wallet_balance(user=ann) == 500
    assert Transfer.objects.count() == before
    # A second demo ends the first (one practice table at a time).
    again = _demo(api_client(ann)).json()
    assert Table.objects.get(pk=body["table"]).status == "closed"
    assert Table.objects.get(pk=again["table"]).status == "open"


def test_a_bad_token_is_refused_not_turned_into_a_guest() -> None:
    response = _demo(api_client(token="not-a-token"))
    assert response.status_code == 401
    assert not Table.objects.exists()


def test_the_demo_is_throttled_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DemoAddressThrottle, "THROTTLE_RATES", {"demo": "2/min"})
    statuses = [_demo(REMOTE_ADDR="198.51.100.9").status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert _demo(REMOTE_ADDR="198.51.100.9").json()["error"]["code"] == "throttled"
    # Another address is not held back, and signing in does not escape the address's count.
    assert _demo(REMOTE_ADDR="198.51.100.10").status_code == 201
    ann = PlayerFactory.create(username="ann")
    assert _demo(api_client(ann), REMOTE_ADDR="198.51.100.9").status_code == 429
    assert Table.objects.count() == 3


def test_the_demo_round_follows_the_script_at_the_table_without_chips() -> None:
    """The round at the server, moved as the worker and the client move it: the bot by its task's body, the guest
    by the move service, each step coming up in order, the guest going out with 59 points, no chips moved."""
    body = _demo().json()
    guest = PracticeTable.objects.get(table_id=body["table"]).player
    name = guest.get_username()
    transfers = Transfer.objects.count()
    assert round_start.start_round(game_id=body["game"]) is not None
    seen: list[str] = []
    for _ in range(40):
        game = Game.objects.get(pk=body["game"])
        view = api_client(token=body["token"]).get(f"/api/v1/games/{game.pk}/").json()
        legal = view.get("legal_moves") or []
        step = demo_script.current_step(view, name, legal)
        assert step is not None, (seen, view)
        if not seen or seen[-1] != step.key:
            seen.append(step.key)
        if step.key == "score":
            break
        if step.key == "bot_turn":
            # The bot's whole turn (draw, meld, discard) in one task, after one pause.
            assert bot_turn(game_id=game.pk, version=game.version)
            continue
        assert step.move is not None
        move = next(m for m in legal if demo_script.same_move(m, step.move))
        submit_move(
            user=guest, game_id=game.pk, move=move, expected_version=game.version, idempotency_key=None
        )
    assert seen == [s.key for s in demo_script.STEPS]
    game = Game.objects.select_related("current_round").get(pk=body["game"])
    round_ = game.current_round
    assert round_ is not None and round_.ended_at is not None
    assert round_.scores == {name: 59, demo_script.BOT: 16}
    assert round_.transfers == []
    made = [m.move for m in MoveLog.objects.filter(round=round_, player=demo_script.BOT).order_by("pk")]
    expected = next(s for s in demo_script.STEPS if s.key == "bot_turn").bot_moves
    assert len(made) == len(expected)
    assert all(demo_script.same_move(a, b) for a, b in zip(made, expected, strict=True)), made
    assert Transfer.objects.count() == transfers
    assert_reconciled()
