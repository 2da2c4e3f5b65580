"""Round settlement by PCR (point-chip ratio), docs/rules.md "Settlement (PCR)". Pure: plain values in, plain
values out.

The round's winner is the player with the highest settlement score. Every other player owes
``(top - own score) * pcr`` (callers pass ``pcr = PCR * multiplier``). Applied in this order:

1. the amount owed is capped at the payer's stack (the chips they had when the round began);
2. with ``k`` winners tied at the top it is split by integer division, and the ``amount % k`` leftover
   chips go one each to the tied winners in seat order (``seat_order`` starts at the dealer's left);
3. each winner's share is capped at that winner's own stack (nobody wins more from one opponent than
   they had at risk, as an all-in); the excess stays with the payer.

``tie_keys`` ({player: tuple}) breaks a tie for the top score first (multi-table tournaments: the melded
and built value, then the player who went out): only the tied players with the highest key win; a tie
that remains is shared. A player tied on score who loses the tie-break owes ``0 * pcr`` and receives
nothing.

Output order is deterministic and independent of dict ordering: transfers are sorted by the payer's
seat, then by the payee's seat; zero-chip transfers are omitted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Transfer = tuple[str, str, int]
"""(payer, payee, chips)"""

TIE_RULE_NONE = "single_winner"
TIE_RULE_SHARED = "tie_shared"
TIE_RULE_BROKEN = "tie_broken_by_keys"
TIE_RULE_BROKEN_SHARED = "tie_keys_then_shared"


class SettlementInputError(ValueError):
    """Bad input to the settlement; ``code`` names the rule that was broken."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Share:
    """What one payer owes one winner: ``due`` after the split, ``paid`` after the winner's cap."""

    payee: str
    due: int
    paid: int


@dataclass(frozen=True, slots=True)
class PayerLine:
    """How one losing player's payment was reached."""

    payer: str
    score: int
    difference: int
    owed: int
    stack: int | None
    payable: int
    shares: tuple[Share, ...]

    @property
    def paid(self) -> int:
        return sum(share.paid for share in self.shares)

    @property
    def kept(self) -> int:
        """Chips the payer keeps because of the caps (own stack and the winners' stacks)."""
        return self.owed - self.paid


@dataclass(frozen=True, slots=True)
class Settlement:
    pcr: int
    seat_order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    stacks: tuple[tuple[str, int], ...] | None
    top_score: int
    tied_at_top: tuple[str, ...]
    tie_keys: tuple[tuple[str, tuple[Any, ...]], ...] | None
    winners: tuple[str, ...]
    tie_rule: str
    lines: tuple[PayerLine, ...]
    transfers: tuple[Transfer, ...]

    def computation(self) -> dict[str, Any]:
        """The JSON-ready record stored with the ledger transfer (scores, PCR, caps, tie rule applied)."""
        return {
            "rule": "pcr",
            "pcr": self.pcr,
            "seat_order": list(self.seat_order),
            "scores": dict(self.scores),
            "stacks": dict(self.stacks) if self.stacks is not None else None,
            "top_score": self.top_score,
            "tied_at_top": list(self.tied_at_top),
            "tie_keys": (
                {player: list(key) for player, key in self.tie_keys} if self.tie_keys is not None else None
            ),
            "tie_rule": self.tie_rule,
            "winners": list(self.winners),
            "payers": [
                {
                    "player": line.payer,
                    "score": line.score,
                    "difference": line.difference,
                    "owed": line.owed,
                    "stack": line.stack,
                    "payable": line.payable,
                    "capped_at_own_stack": line.payable < line.owed,
                    "shares": [
                        {
                            "payee": share.payee,
                            "due": share.due,
                            "paid": share.paid,
                            "capped_at_winner_stack": share.paid < share.due,
                        }
                        for share in line.shares
                    ],
                    "paid": line.paid,
                    "kept": line.kept,
                }
                for line in self.lines
            ],
            "transfers": [list(transfer) for transfer in self.transfers],
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(
    *,
    scores: Mapping[str, int],
    pcr: int,
    stacks: Mapping[str, int] | None,
    seat_order: Sequence[str],
    tie_keys: Mapping[str, tuple[Any, ...]] | None,
) -> None:
    if not _is_int(pcr):
        raise SettlementInputError("settlement.pcr_not_integer", f"PCR must be an integer, not {pcr!r}.")
    if pcr <= 0:
        raise SettlementInputError("settlement.pcr_not_positive", f"PCR must be positive, not {pcr}.")
    if isinstance(seat_order, str):
        raise SettlementInputError(
            "settlement.seat_order_invalid", "seat_order must be a sequence of players."
        )
    seats = list(seat_order)
    if len(set(seats)) != len(seats):
        raise SettlementInputError("settlement.seat_order_duplicate", "seat_order lists a player twice.")
    if not all(isinstance(player, str) for player in seats):
        raise SettlementInputError("settlement.player_invalid", "Players are identified by strings.")
    if set(scores) != set(seats):
        raise SettlementInputError(
            "settlement.players_mismatch", "scores and seat_order must name the same players."
        )
    if len(seats) < 2:
        raise SettlementInputError(
            "settlement.too_few_players", "A round is settled between two or more players."
        )
    for player, score in scores.items():
        if not _is_int(score):
            raise SettlementInputError(
                "settlement.score_not_integer", f"Score of {player!r} must be an integer, not {score!r}."
            )
    if stacks is not None:
        if set(stacks) != set(seats):
            raise SettlementInputError(
                "settlement.stacks_mismatch", "stacks must give the stack of every player and nobody else."
            )
        for player, stack in stacks.items():
            if not _is_int(stack) or stack < 0:
                raise SettlementInputError(
                    "settlement.stack_invalid",
                    f"Stack of {player!r} must be a non-negative integer, not {stack!r}.",
                )
    if tie_keys is not None:
        unknown = set(tie_keys) - set(seats)
        if unknown:
            raise SettlementInputError(
                "settlement.tie_keys_unknown_player",
                f"tie_keys names players not in the round: {sorted(unknown)}.",
            )
        for player, key in tie_keys.items():
            if not isinstance(key, tuple):
                raise SettlementInputError(
                    "settlement.tie_key_invalid", f"Tie key of {player!r} must be a tuple, not {key!r}."
                )


def _winners(*, tied: list[str], tie_keys: Mapping[str, tuple[Any, ...]] | None) -> tuple[list[str], str]:
    if len(tied) == 1:
        return tied, TIE_RULE_NONE
    if tie_keys is None:
        return tied, TIE_RULE_SHARED
    missing = [player for player in tied if player not in tie_keys]
    if missing:
        raise SettlementInputError(
            "settlement.tie_key_missing", f"tie_keys must rank every player tied for the top: {missing}."
        )
    try:
        best = max(tie_keys[player] for player in tied)
        winners = [player for player in tied if tie_keys[player] == best]
    except TypeError as exc:
        raise SettlementInputError(
            "settlement.tie_key_incomparable", f"Tie keys of the tied players cannot be compared: {exc}."
        ) from exc
    return winners, TIE_RULE_BROKEN if len(winners) == 1 else TIE_RULE_BROKEN_SHARED


def pcr_settlement(
    *,
    scores: Mapping[str, int],
    pcr: int,
    stacks: Mapping[str, int] | None = None,
    seat_order: Sequence[str],
    tie_keys: Mapping[str, tuple[Any, ...]] | None = None,
) -> Settlement:
    """Settle one round by PCR and keep every intermediate figure (see the module docstring)."""
    _validate(scores=scores, pcr=pcr, stacks=stacks, seat_order=seat_order, tie_keys=tie_keys)
    seats = tuple(seat_order)
    top = max(scores.values())
    tied = [player for player in seats if scores[player] == top]
    winners, tie_rule = _winners(tied=tied, tie_keys=tie_keys)
    winner_set = set(winners)
    k = len(winners)

    lines: list[PayerLine] = []
    transfers: list[Transfer] = []
    for payer in seats:
        if payer in winner_set:
            continue
        difference = top - scores[payer]
        owed = difference * pcr
        payer_stack = stacks[payer] if stacks is not None else None
        payable = owed if payer_stack is None else min(owed, payer_stack)
        each, leftover = divmod(payable, k)
        shares: list[Share] = []
        # `winners` follows seat order, so the leftover chips go to the first tied winners from the dealer's left.
        for index, payee in enumerate(winners):
            due = each + (1 if index < leftover else 0)
            paid = due if stacks is None else min(due, stacks[payee])
            shares.append(Share(payee=payee, due=due, paid=paid))
            if paid > 0:
                transfers.append((payer, payee, paid))
        lines.append(
            PayerLine(
                payer=payer,
                score=scores[payer],
                difference=difference,
                owed=owed,
                stack=payer_stack,
                payable=payable,
                shares=tuple(shares),
            )
        )

    return Settlement(
        pcr=pcr,
        seat_order=seats,
        scores=tuple((player, scores[player]) for player in seats),
        stacks=tuple((player, stacks[player]) for player in seats) if stacks is not None else None,
        top_score=top,
        tied_at_top=tuple(tied),
        tie_keys=(
            tuple((player, tie_keys[player]) for player in seats if player in tie_keys)
            if tie_keys is not None
            else None
        ),
        winners=tuple(winners),
        tie_rule=tie_rule,
        lines=tuple(lines),
        transfers=tuple(transfers),
    )


def pcr_transfers(
    *,
    scores: Mapping[str, int],
    pcr: int,
    stacks: Mapping[str, int] | None = None,
    seat_order: Sequence[str],
    tie_keys: Mapping[str, tuple[Any, ...]] | None = None,
) -> list[Transfer]:
    """The settlement of docs/rules.md "Settlement (PCR)": [(payer, payee, chips)], by payer seat then payee
    seat, no zero transfers."""
    settlement = pcr_settlement(
        scores=scores, pcr=pcr, stacks=stacks, seat_order=seat_order, tie_keys=tie_keys
    )
    return list(settlement.transfers)
