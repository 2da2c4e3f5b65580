"""The one base of every service's refusal, which the API's exception handler (config.api.exceptions) turns
into the error envelope `{"error": {"code", "message", "details"}}` with the error's HTTP status.

Each app lists its codes in one enum (`config.api.errors.ApiCode`, `config.accounts.errors.AccountCode`,
`ledger.errors.LedgerCode`, `tournaments.errors.PlayCode`; the engine's rule codes are
`tournaments.engine`'s, in docs/rules.md); every code is in docs/api.md's error table (a test checks both
ways). Callers outside HTTP (tasks, the admin) catch `ServiceError` or the app's subclass.
"""

from __future__ import annotations

from typing import Any

from config.api.errors import ApiCode


class ServiceError(Exception):
    """A refusal: a stable dotted `code`, a `message` for humans, machine-readable `details`, the HTTP
    status it answers and, for a 429 or 503, the seconds after which to retry. `code` is a member of the
    app's enum, or an engine rule code passed on (a refused move)."""

    code: str = ApiCode.ERROR
    http_status: int = 400
    default_message: str = "The request was refused."
    retry_after: int | None = None

    def __init__(
        self, message: str | None = None, *, code: str | None = None, details: dict[str, Any] | None = None
    ) -> None:
        self.message = message or self.default_message
        if code is not None:
            self.code = code
        self.details: dict[str, Any] = details or {}
        super().__init__(self.message)
