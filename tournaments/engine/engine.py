"""The referee's entry points: deal a round, apply a move, list legal moves, close claims, replay.

Pure functions over immutable ``RoundState`` values. This module does what every game does (the
shuffle and the deal commitment, the move envelope, numbering and logging moves, replay) and hands
the rest to the round's family (``families.family_of``). Every rule that refuses a move raises
``IllegalMove`` with a stable code (docs/rules.md lists them); the input state is never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .cards import CardError
from .deal import deal_commitment, naturals_first, new_salt, shuffled, verify_deal
from .deal import stacked_deck as stacked_by_shape
from .errors import IllegalMove, RuleCode
from .families import FAMILIES, family_of
from .moves import Move, MoveJson, log_entry, parse_move
from .rules import Ruleset
from .state import RoundState, freeze

__all__ = [
    "MOVE_TYPES",
    "apply_move",
    "close_claims",
    "deal_commitment",
    "full_deck",
    "legal_moves",
    "new_round",
    "replay",
    "stacked_deck",
    "verify_deal",
]

# Rummy 500's move types (the fuzz tests' vocabulary); a family lists its own in ``move_fields``.
MOVE_TYPES = tuple(FAMILIES["rummy500"].move_fields)


def full_deck(rules: Ruleset, n_players: int) -> tuple[str, ...]:
    """The unshuffled deck a round with ``n_players`` uses."""
    return family_of(rules).full_deck(rules, n_players)


def stacked_deck(
    rules: Ruleset,
    hands: Sequence[Sequence[str]],
    *,
    dealer: int = 0,
    up: str | None = None,
    stock: Sequence[str] = (),
    fillers: Callable[[list[str]], list[str]] = naturals_first,
) -> list[str]:
    """A deck (top first) for ``new_round(deck=...)`` that deals ``hands[seat]`` to each seat of ``len(hands)``,
    turns ``up`` (the up-card, Board Rummy's trump) and puts ``stock`` on top of the rest; unnamed cards come in
    the order ``fillers`` gives (the unshuffled deck's, jokers last). Tests' scenarios, the how-to-play pages
    and the demo all build their decks here, by the family's own ``deal_shape``."""
    family = family_of(rules)
    n = len(hands)
    shape = family.deal_shape(rules, n)
    return stacked_by_shape(
        shape, family.full_deck(rules, n), hands, dealer=dealer, up=up, stock=stock, fillers=fillers
    )


def new_round(
    rules: Ruleset,
    players: Sequence[str],
    dealer: int = 0,
    round_number: int = 1,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    *,
    salt: str | None = None,
) -> RoundState:
    """Shuffle (CSPRNG unless ``seed``), commit to the deck, deal, and start the first turn.

    ``deck`` stacks the deck (tests): every card, top first. The family deals it (Rummy 500: one card
    at a time clockwise from the dealer's left, then one card starts the discard pile, the rest is the
    stock).
    """
    players = tuple(players)
    n = len(players)
    if not all(isinstance(p, str) and p for p in players) or len(set(players)) != n:
        raise ValueError("players must be distinct non-empty strings.")
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {n}.")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat index 0..{n - 1}.")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise ValueError("round_number must be a positive integer.")
    family = family_of(rules)
    base = family.full_deck(rules, n)
    if deck is not None:
        try:
            order = tuple(family.parse_code(c) for c in deck)
        except CardError as exc:
            raise ValueError(f"Stacked deck: {exc}") from None
        if sorted(order) != sorted(base):
            raise ValueError(f"A stacked deck must hold exactly the {len(base)} cards of this game.")
    else:
        order = shuffled(base, seed)
    if salt is None:
        salt = new_salt(seed)
    dealt = family.deal(rules, n, dealer, order)
    return RoundState(
        rules=rules,
        players=players,
        dealer=dealer,
        round_number=round_number,
        version=0,
        phase=dealt.phase,
        turn=dealt.turn,
        hands=dealt.hands,
        stock=dealt.stock,
        discard=dealt.discard,
        melds=(),
        deck=order,
        salt=salt,
        commitment=deal_commitment(order, salt),
        own=freeze(dealt.own or {}),
    )


def apply_move(state: RoundState, player: str, move: Move | Mapping[str, Any]) -> RoundState:
    """The state after ``player`` makes ``move`` (its JSON, or a ``moves.parse_move`` value); ``IllegalMove``
    (state unchanged) when not allowed."""
    family = family_of(state.rules)
    typed = parse_move(move, family.move_fields)
    if not isinstance(player, str) or player not in state.players:
        raise IllegalMove(RuleCode.TURN_UNKNOWN_PLAYER, f"{player!r} does not play in this round.")
    if state.phase == "over":
        raise IllegalMove(RuleCode.ROUND_OVER, "The round is over.")
    new, logged = family.apply(state, player, typed)
    return replace(new, version=state.version + 1, log=(*state.log, log_entry(player, logged)))


def legal_moves(state: RoundState, player: str) -> list[MoveJson]:
    """Every legal move of ``player`` now, each once, canonical; [] when the player may not act."""
    if player not in state.may_act:
        return []
    return family_of(state.rules).legal_moves(state, player)


def close_claims(state: RoundState) -> RoundState:
    """End an open "Rummy!" window (the server's deadline); the same state when none is open."""
    if state.phase != "claims" or state.claims is None:
        return state
    entry = ("", '{"type":"close_claims"}')  # logged so that replay closes the window at the same point
    closed = family_of(state.rules).close_claims(state)
    return replace(closed, version=state.version + 1, log=(*state.log, entry))


def replay(
    rules: Ruleset,
    players: Sequence[str],
    dealer: int,
    deck: Sequence[str],
    moves: Iterable[tuple[str, Move | Mapping[str, Any]] | Sequence[Any]],
    *,
    salt: str | None = None,
    round_number: int = 1,
    close_claims_at: Iterable[int] = (),
) -> RoundState:
    """Rebuild a round from its deal and move log: (player, move) pairs in order.

    A logged ``{"type": "close_claims"}`` move (player ignored) or a version in ``close_claims_at``
    replays the server closing a claim window.
    """
    state = new_round(rules, players, dealer, round_number, deck=deck, salt=salt)
    closes = set(close_claims_at)
    for player, move in moves:
        if state.version in closes and state.phase == "claims":
            state = close_claims(state)
        if isinstance(move, Mapping) and move.get("type") == "close_claims":
            state = close_claims(state)
            continue
        state = apply_move(state, player, move)
    return state
