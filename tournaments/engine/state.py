"""Immutable round state and its exact JSON (de)serialisation for storage.

``RoundState`` holds hidden information (every hand, the stock, the deck and the salt): never send it
to a client; ``views.player_view`` is what a client may see. ``state_to_dict``/``state_from_dict``
round-trip a state exactly (for a PostgreSQL JSON column).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .rules import Ruleset

# Every family's phases (docs/rules.md "Views and storage"); each family lists those it uses
# (``Family.phases``): ``deal`` is Board Rummy's deal-refusal phase (docs/rules.md "Board Rummy"), ``claims``
# Rummy 500's "Rummy!" window.
PHASES = ("deal", "draw", "play", "claims", "over")
STATE_FORMAT = 1


@dataclass(frozen=True)
class Meld:
    """A meld on the table: canonical ``cards`` and, per card, the player it scores for."""

    id: str
    owner: str  # who first placed it
    cards: tuple[str, ...]
    placers: tuple[str, ...]


@dataclass(frozen=True)
class Claim:
    """A "Rummy!" call (``card`` at pile ``index`` laid off on ``meld``) or a pass (card None)."""

    player: str
    card: str | None = None
    index: int | None = None
    meld: str | None = None


@dataclass(frozen=True)
class Claims:
    """An open "Rummy!" claim window after ``discarder``'s discard."""

    discarder: str
    eligible: tuple[str, ...]  # seat order from the discarder's left
    answers: tuple[Claim, ...] = ()

    @property
    def acted(self) -> tuple[str, ...]:
        return tuple(a.player for a in self.answers)


def freeze(d: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy of JSON-like data (nested mappings and lists too), as states hold it."""
    return _ro(d)


def _ro(d: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy, nested values included: a finished state stays an immutable value."""
    return MappingProxyType({k: _freeze(v) for k, v in d.items()})


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return _ro(value)
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Result:
    """A finished round: settlement ``scores``, ``game_points``, ``bonuses``, ``details``, ``redeal``.

    ``deck`` (top first) and ``salt`` reveal the deal so ``verify_deal`` can check the commitment.
    """

    scores: Mapping[str, int]
    game_points: Mapping[str, int]
    bonuses: tuple[Mapping[str, Any], ...]
    details: Mapping[str, Any]
    redeal: bool
    deck: tuple[str, ...]
    salt: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": dict(self.scores),
            "game_points": dict(self.game_points),
            "bonuses": [_plain(b) for b in self.bonuses],
            "details": _plain(self.details),
            "redeal": self.redeal,
            "deck": list(self.deck),
            "salt": self.salt,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Result:
        return make_result(
            scores=d["scores"],
            game_points=d["game_points"],
            bonuses=d["bonuses"],
            details=d["details"],
            redeal=d["redeal"],
            deck=d["deck"],
            salt=d["salt"],
        )


def make_result(
    *,
    scores: Mapping[str, int],
    game_points: Mapping[str, int],
    bonuses: Any,
    details: Mapping[str, Any],
    redeal: bool,
    deck: Any,
    salt: str,
) -> Result:
    return Result(
        scores=_ro(scores),
        game_points=_ro(game_points),
        bonuses=tuple(_ro(b) for b in bonuses),
        details=_ro(details),
        redeal=bool(redeal),
        deck=tuple(deck),
        salt=str(salt),
    )


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class RoundState:
    """One round, between two moves. Never mutate; ``apply_move`` returns a new one.

    ``hands[i]`` belongs to ``players[i]`` (sorted canonical codes); ``stock`` is top first;
    ``discard`` bottom first. The turn bookkeeping is the shared turn-completion search's (docs/rules.md
    "Turn-completion invariant", every meld family): ``must_use`` (a card that must be placed this turn),
    ``chosen`` and ``reserved`` (codes that may not be discarded this turn), ``jokers_to_meld``; and the
    shared stalling rule's: ``progress`` (this turn drew from the stock or placed a card), ``stall``
    (completed turns without progress). ``claims`` is the open claim window of phase ``claims``.

    ``own`` is the round's family bookkeeping that no shared module reads, as read-only JSON-like data
    (``freeze``), so that storage and replay stay family-blind: Board Rummy keeps its trump tile, who was
    dealt its twin, the jokers each player threw and, in phase ``deal``, ``deal_pending`` (the seats of
    the players still to answer, who are ``may_act``). Empty for Rummy 500, and then left out of ``state_to_dict``.
    """

    rules: Ruleset
    players: tuple[str, ...]
    dealer: int
    round_number: int
    version: int
    phase: str
    turn: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    discard: tuple[str, ...]
    melds: tuple[Meld, ...]
    deck: tuple[str, ...]
    salt: str
    commitment: str
    must_use: str | None = None
    chosen: str | None = None  # the card taken from the discard pile this turn
    reserved: tuple[str, ...] = ()
    jokers_to_meld: int = 0
    progress: bool = False
    stall: int = 0
    claims: Claims | None = None
    result: Result | None = None
    own: Mapping[str, Any] = field(default_factory=lambda: _ro({}))
    log: tuple[tuple[str, str], ...] = field(default=(), compare=True)  # (player, move JSON)

    @property
    def to_act(self) -> str | None:
        """Whose turn it is (in ``claims`` and ``deal``: whose turn comes next); None once over."""
        return None if self.phase == "over" else self.players[self.turn]

    @property
    def may_act(self) -> tuple[str, ...]:
        """Who may move now."""
        if self.phase == "over":
            return ()
        if self.phase == "claims" and self.claims is not None:
            acted = set(self.claims.acted)
            return tuple(p for p in self.claims.eligible if p not in acted)
        if self.phase == "deal" and "deal_pending" in self.own:
            return tuple(self.players[seat] for seat in self.own.get("deal_pending", ()))
        return (self.players[self.turn],)

    def hand_of(self, player: str) -> tuple[str, ...]:
        return self.hands[self.players.index(player)]

    @property
    def moves(self) -> list[tuple[str, dict[str, Any]]]:
        """The applied moves as (player, move) pairs, for ``replay``."""
        import json

        return [(p, json.loads(m)) for p, m in self.log]


def state_to_dict(state: RoundState) -> dict[str, Any]:
    """Everything in the state as JSON-ready values (hidden information included: server-side only).

    ``own`` appears only when a family keeps something there, so a Rummy 500 state stores as before."""
    data: dict[str, Any] = {
        "format": STATE_FORMAT,
        "rules": state.rules.to_dict(),
        "players": list(state.players),
        "dealer": state.dealer,
        "round_number": state.round_number,
        "version": state.version,
        "phase": state.phase,
        "turn": state.turn,
        "hands": [list(h) for h in state.hands],
        "stock": list(state.stock),
        "discard": list(state.discard),
        "melds": [
            {"id": m.id, "owner": m.owner, "cards": list(m.cards), "placers": list(m.placers)}
            for m in state.melds
        ],
        "deck": list(state.deck),
        "salt": state.salt,
        "commitment": state.commitment,
        "must_use": state.must_use,
        "chosen": state.chosen,
        "reserved": list(state.reserved),
        "jokers_to_meld": state.jokers_to_meld,
        "progress": state.progress,
        "stall": state.stall,
        "claims": None
        if state.claims is None
        else {
            "discarder": state.claims.discarder,
            "eligible": list(state.claims.eligible),
            "answers": [
                {"player": a.player, "card": a.card, "index": a.index, "meld": a.meld}
                for a in state.claims.answers
            ],
        },
        "result": None if state.result is None else state.result.to_dict(),
        "log": [[p, m] for p, m in state.log],
    }
    if state.own:
        data["own"] = _plain(state.own)
    return data


def state_from_dict(data: Mapping[str, Any]) -> RoundState:
    """Inverse of ``state_to_dict``: ``state_from_dict(state_to_dict(s)) == s``."""
    if data.get("format") != STATE_FORMAT:
        raise ValueError(f"Unknown state format {data.get('format')!r}.")
    c = data["claims"]
    return RoundState(
        rules=Ruleset.from_dict(data["rules"]),
        players=tuple(data["players"]),
        dealer=int(data["dealer"]),
        round_number=int(data["round_number"]),
        version=int(data["version"]),
        phase=str(data["phase"]),
        turn=int(data["turn"]),
        hands=tuple(tuple(h) for h in data["hands"]),
        stock=tuple(data["stock"]),
        discard=tuple(data["discard"]),
        melds=tuple(Meld(m["id"], m["owner"], tuple(m["cards"]), tuple(m["placers"])) for m in data["melds"]),
        deck=tuple(data["deck"]),
        salt=str(data["salt"]),
        commitment=str(data["commitment"]),
        must_use=data["must_use"],
        chosen=data["chosen"],
        reserved=tuple(data["reserved"]),
        jokers_to_meld=int(data["jokers_to_meld"]),
        progress=bool(data["progress"]),
        stall=int(data["stall"]),
        claims=None
        if c is None
        else Claims(
            discarder=c["discarder"],
            eligible=tuple(c["eligible"]),
            answers=tuple(Claim(a["player"], a["card"], a["index"], a["meld"]) for a in c["answers"]),
        ),
        result=None if data["result"] is None else Result.from_dict(data["result"]),
        own=_ro(data.get("own") or {}),
        log=tuple((p, m) for p, m in data["log"]),
    )
