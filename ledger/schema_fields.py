"""The published schema of a transfer's `computation` (schema only: the JSON answer is the stored record).

The record has no field of its own naming its shape (the transfer's `kind` beside it does, and several
kinds share a shape), so the schema is one object listing every key a posting writes, each optional and
typed, and open: a posting may add keys (a table policy's `settlement_record`). Who writes what:

- a round's settlement and its bonus (`ledger.settlement.Settlement.computation`, tournaments' `round_end`):
  `rule` to `transfers`, plus the table policy's `table_pcr`/`multiplier` (a cash table) or `tournament`,
  `level`, `level_pcr`, `multiplier` (a tournament's table);
- a tournament entry and its refund: `buy_in`, `fee`, with `why` (refund) or `reentries` (re-entry);
- a tournament's chips: `starting_stack` (and `seats`), a move `from_table`/`to_table`, a bust's `chips`;
  the mint of a guarantee: `guarantee`, `buy_ins`; the payout: `pool`, `payouts`, `shares`, `why`;
- a final-table deal's payment: `deal`, `why`, `method`, `keep_percent`, `unpaid`, `keep`, `prizes`, `stacks`,
  `icm`, `chip_count`, `place_chances`, `amounts`;
- a reversal: `reverses`; a wallet adjustment: `username`, `amount`; buy-in and cash-out: `{}`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ledger.settlement import TIE_RULE_BROKEN, TIE_RULE_BROKEN_SHARED, TIE_RULE_NONE, TIE_RULE_SHARED

_INT: dict[str, Any] = {"type": "integer"}
_STR: dict[str, Any] = {"type": "string"}
_NAMES: dict[str, Any] = {"type": "array", "items": _STR}
_PER_PLAYER_INT: dict[str, Any] = {"type": "object", "additionalProperties": _INT}


def _closed(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


_SHARE = _closed(
    {
        "payee": _STR,
        "due": _INT,
        "paid": _INT,
        "capped_at_winner_stack": {"type": "boolean"},
    }
)
_PAYER = _closed(
    {
        "player": _STR,
        "score": _INT,
        "difference": _INT,
        "owed": _INT,
        "stack": {**_INT, "nullable": True},
        "payable": _INT,
        "capped_at_own_stack": {"type": "boolean"},
        "shares": {"type": "array", "items": _SHARE},
        "paid": _INT,
        "kept": _INT,
    }
)

COMPUTATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": __doc__.split("\n\n", 1)[1] if __doc__ else "",
    "properties": {
        # a settlement (ledger.settlement)
        "rule": {"type": "string", "enum": ["pcr"]},
        "pcr": {**_INT, "description": "The round's PCR: the table's (or level's) PCR times the multiplier."},
        "seat_order": _NAMES,
        "scores": _PER_PLAYER_INT,
        "stacks": {**_PER_PLAYER_INT, "nullable": True, "description": "Null: settled without caps."},
        "top_score": _INT,
        "tied_at_top": _NAMES,
        "tie_keys": {
            "type": "object",
            "nullable": True,
            "additionalProperties": {"type": "array", "items": {}},
            "description": "Each tied player's tie-break key; null where a tie is shared.",
        },
        "tie_rule": {
            "type": "string",
            "enum": [TIE_RULE_NONE, TIE_RULE_SHARED, TIE_RULE_BROKEN, TIE_RULE_BROKEN_SHARED],
        },
        "winners": _NAMES,
        "payers": {"type": "array", "items": _PAYER},
        "transfers": {
            "type": "array",
            "description": "[payer, payee, chips] triples.",
            "items": {
                "type": "array",
                "minItems": 3,
                "maxItems": 3,
                "items": {"oneOf": [_STR, _INT]},
            },
        },
        "table_pcr": _INT,
        "multiplier": _INT,
        "tournament": _INT,
        "level": _INT,
        "level_pcr": _INT,
        # a tournament's entry, refund, chips, mint and payout
        "buy_in": _INT,
        "fee": _INT,
        "why": _STR,
        "reentries": _INT,
        "starting_stack": _INT,
        "seats": _INT,
        "from_table": _INT,
        "to_table": _INT,
        "chips": _INT,
        "guarantee": _INT,
        "buy_ins": _INT,
        "pool": _INT,
        "payouts": {"type": "array", "items": _INT, "description": "The tournament's payout percentages."},
        "shares": {**_PER_PLAYER_INT, "description": "Chips paid to each player."},
        # a final-table deal's payment (tournaments/deals)
        "deal": _INT,
        "method": {"type": "string", "enum": ["icm", "chips"]},
        "keep_percent": _INT,
        "unpaid": _INT,
        "keep": _INT,
        "prizes": {"type": "array", "items": _INT, "description": "The unpaid prizes by place."},
        "icm": {**_PER_PLAYER_INT, "description": "Each player's ICM amount."},
        "chip_count": {**_PER_PLAYER_INT, "description": "Each player's chip-count amount."},
        "amounts": {**_PER_PLAYER_INT, "description": "The amounts paid (the method's)."},
        "place_chances": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": _STR},
            "description": "Each player's chance of each place (Malmuth-Harville), exact fractions p/q.",
        },
        # a reversal and a wallet adjustment
        "reverses": _INT,
        "username": _STR,
        "amount": _INT,
    },
    "additionalProperties": True,
}


@extend_schema_field(COMPUTATION_SCHEMA)
class ComputationField(serializers.JSONField):
    """A transfer's computation record, shown as stored."""
