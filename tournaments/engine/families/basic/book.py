"""What the Basic family remembers between moves, kept in ``RoundState.own`` (the one field a family owns).

- ``restocks``: how often the discard pile has become the stock this round (``restock_limit``);
- ``opened``: who has placed a card this round, in seat order (Rommé's opening, Wrotham's late deals);
- ``opened_now``: the player in turn placed their first card this turn (going rummy: out in one turn
  with no earlier meld or lay-off);
- ``turn_melds``: melds placed this turn (one meld per turn unless ``multiple_melds_per_turn``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...state import RoundState, freeze


@dataclass(frozen=True)
class Book:
    restocks: int = 0
    opened: tuple[str, ...] = ()
    opened_now: bool = False
    turn_melds: int = 0


def book_of(state: RoundState) -> Book:
    data = state.own
    return Book(
        restocks=int(data.get("restocks", 0)),
        opened=tuple(data.get("opened", ())),
        opened_now=bool(data.get("opened_now", False)),
        turn_melds=int(data.get("turn_melds", 0)),
    )


def with_book(state: RoundState, book: Book) -> RoundState:
    own = {
        "opened": list(book.opened),
        "opened_now": book.opened_now,
        "restocks": book.restocks,
        "turn_melds": book.turn_melds,
    }
    return replace(state, own=freeze(own))


def placed(state: RoundState, player: str, melds: int) -> RoundState:
    """Book a placement by ``player`` (``melds`` new melds in it)."""
    book = book_of(state)
    if player not in book.opened:
        order = [p for p in state.players if p in book.opened or p == player]
        book = replace(book, opened=tuple(order), opened_now=True)
    return with_book(state, replace(book, turn_melds=book.turn_melds + melds))


def new_turn(state: RoundState) -> RoundState:
    """Nothing of the last turn carries over."""
    return with_book(state, replace(book_of(state), opened_now=False, turn_melds=0))
