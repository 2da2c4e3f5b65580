"""The seam a game family plugs into (docs/rules.md: "Rummy 500", "Basic Rummy family", "Board Rummy").

The shared engine (``engine``) does what every game does: it shuffles and commits to the deck, checks
a move's envelope (a known type with its fields, a player of the round, a round still running), logs
and numbers the moves, replays them and builds the view's envelope. Everything else is the family's:
the deck and the deal, the phases and moves it allows, legality, applying a move, scoring, and what a
player's view adds. A family module implements ``Family`` and is listed in ``families.FAMILIES``;
family modules never import each other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .deal import DealShape
from .moves import Move, MoveJson
from .rules import Ruleset
from .state import Result, RoundState


@dataclass(frozen=True)
class Deal:
    """What a family's deal leaves on the table: every hand (seat order), the pile, the stock, the
    phase and seat the round starts with, and the family's own bookkeeping (``RoundState.own``)."""

    hands: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]
    stock: tuple[str, ...]
    phase: str
    turn: int
    own: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Bots:
    """A family's own timeout move and greedy bot (``bots.auto_move`` and ``bots.greedy_move`` ask for them):
    each gives the JSON of a move ``player``, who may act now, makes."""

    auto_move: Callable[[RoundState, str], MoveJson]
    greedy_move: Callable[[RoundState, str], MoveJson]


class Family(Protocol):
    """One family of games. Methods get a typed move (``moves.parse_move``) of its types and a running round."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str:
        """Its name for people, in English, marked for the catalogs (``rules.N_``): a rating's name."""
        ...

    @property
    def phases(self) -> tuple[str, ...]:
        """The phases its rounds pass through (``state.PHASES`` lists every family's), ``over`` last."""
        ...

    @property
    def move_fields(self) -> Mapping[str, frozenset[str]]:
        """Its move types, in the order error messages list them, each with the fields it allows: the kinds of
        ``moves`` it plays (``moves.fields_of``), whose fields ``move_fields.FIELD_SCHEMAS`` describes for the API."""
        ...

    def parse_code(self, value: object) -> str:
        """One card (or tile) code of a stacked deck, canonical; ``cards.CardError`` when bad."""
        ...

    def full_deck(self, rules: Ruleset, n_players: int) -> tuple[str, ...]:
        """The unshuffled deck of a round with ``n_players``."""
        ...

    def deal_shape(self, rules: Ruleset, n_players: int) -> DealShape:
        """How its deal is laid out (``deal`` follows it; ``engine.stacked_deck`` builds decks by it)."""
        ...

    def deal(self, rules: Ruleset, n_players: int, dealer: int, order: Sequence[str]) -> Deal:
        """Deal ``order`` (top first); ``ValueError`` when there are not enough cards."""
        ...

    def legal_moves(self, state: RoundState, player: str) -> list[MoveJson]:
        """Every legal move of ``player``, who may act now, canonical and each once (their JSON)."""
        ...

    def apply(self, state: RoundState, player: str, move: Move) -> tuple[RoundState, Move]:
        """The state after the move and the move as logged (canonical); ``IllegalMove`` when refused."""
        ...

    def score(self, state: RoundState, reason: str, out_seat: int | None) -> Result:
        """The result of the round ending now: ``reason`` (``out``, ``stock``, ``stall``, ``end_round`` ...)
        and the seat that went out (or closed), if any."""
        ...

    def close_claims(self, state: RoundState) -> RoundState:
        """End an open claim window at the server's deadline (unnumbered, unlogged here)."""
        ...

    def view(self, state: RoundState, player: str | None) -> dict[str, Any]:
        """The family's own fields of ``player``'s view (None: a spectator); no hidden information."""
        ...

    # ------------------------------------------------------------------ what the bots ask (``bots``)

    @property
    def bots(self) -> Bots | None:
        """The family's own timeout move and greedy bot; None: the shared ones (``bots``) play it."""
        ...

    @property
    def pile_draw_depth(self) -> int | None:
        """How deep into the discard pile a draw may reach (1: the top card only; None: any card)."""
        ...

    @property
    def placed_cards_score(self) -> bool:
        """Whether placed cards score for their placer (so that going out early can lose a round)."""
        ...

    @property
    def limits_placements(self) -> bool:
        """Whether the family limits placing beyond the shared rules (one meld a turn, openings judged as
        a whole): a bot then tries each placement and looks for several-meld moves among the legal ones."""
        ...

    def pile_draw_obligation(self, state: RoundState, index: int) -> bool:
        """Whether drawing pile card ``index`` now obliges the player to use it this turn."""
        ...
