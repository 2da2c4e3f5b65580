"""The one exception of the engine: a move against the rules (or not a move at all)."""

from __future__ import annotations

from typing import Any

# Codes that mean "this is not a well-formed move" (HTTP 400); every other code is a rule (HTTP 422).
MALFORMED_CODES = frozenset({"move.malformed", "move.unknown_type", "card.malformed", "card.unknown"})


class IllegalMove(Exception):
    """A move refused by the rules; the state it was tried on is unchanged.

    ``code`` is dotted and stable (every code is listed in docs/rules.md), ``message`` is for humans.
    ``details`` and ``http_status`` let the API envelope render it directly.
    """

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = details or {}

    @property
    def http_status(self) -> int:
        return 400 if self.code in MALFORMED_CODES else 422

    def __reduce__(self) -> tuple[Any, ...]:
        return (IllegalMove, (self.code, self.message, self.details))
