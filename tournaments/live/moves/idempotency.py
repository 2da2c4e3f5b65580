"""First answers kept under an `Idempotency-Key` (docs/api.md "Idempotency": keys are scoped to (user, method,
path); a replay returns the first answer; the same key with another body is 409 `idempotency.key_reused`).

Sit, join and leave run through `run_once`: the key's row is inserted before the request runs, in its
transaction, so two concurrent requests with one key never both run (the second waits on the unique index,
then replays the first's answer; or runs itself if the first rolled back). A refusal (4xx) is an answer like
any other and is kept; a failure that is not an answer (5xx, a 503 when the database was unavailable) rolls
everything back, the key included, so that a retry runs. Moves keep their accepted answers in the move log
and only their refusals here (`record_refusal`), under the game's row lock.

Rows are kept `RAMINO_IDEMPOTENCY_KEEP_HOURS` and then deleted by a beat job (`forget_expired`): retries come
within seconds or minutes, and a refused move the client sends again once that much later meets a game that
has long moved on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from api.errors import error_body
from tournaments.errors import KeyReused, PlayError
from tournaments.live.models import IdempotentRequest

MAX_KEY_LENGTH = 255


@dataclass(frozen=True)
class RequestKey:
    """What a key is scoped to, and the key."""

    user_id: int
    method: str
    path: str
    key: str

    def lookup(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "method": self.method, "path": self.path, "key": self.key}


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any


def fingerprint(payload: Mapping[str, Any]) -> str:
    """The request body's identity: its canonical JSON, hashed."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def refusal(error: BaseException) -> Answer | None:
    """The answer the API gives for a service's refusal (what api.exceptions renders), or None when
    `error` is not one: anything else becomes a 5xx, which is not kept, so a retry runs again."""
    code = getattr(error, "code", None)
    status = getattr(error, "http_status", None)
    if not isinstance(code, str) or not isinstance(status, int) or not 400 <= status < 500:
        return None
    # in the request's language, as the exception handler would write it (the key keeps this first answer)
    localized = getattr(error, "localized_message", None)
    message = str(localized()) if callable(localized) else str(getattr(error, "message", str(error)))
    details = dict(getattr(error, "details", None) or {})
    return Answer(status, error_body(code, message, details))


def replayed_error(status: int, body: Any) -> PlayError:
    """A kept refusal as an error the exception handler renders to the same status and body."""
    error = body.get("error", {}) if isinstance(body, dict) else {}
    replayed = PlayError(
        str(error.get("message", "")), code=str(error.get("code", "")), details=error.get("details") or {}
    )
    replayed.http_status = status
    return replayed


def _replay(earlier: IdempotentRequest, request_fingerprint: str) -> Answer:
    if earlier.fingerprint != request_fingerprint:
        raise KeyReused()
    # Never null once committed (the row is written with its answer in the transaction that inserted it).
    assert earlier.status is not None
    return Answer(earlier.status, earlier.body)


def run_once(*, request_key: RequestKey, request_fingerprint: str, action: Callable[[], Answer]) -> Answer:
    """`action`'s answer, or the first answer given under `request_key`. `action` runs in a savepoint inside
    the transaction holding the key: a refusal undoes its writes and keeps the key with the refusal."""
    for _attempt in range(3):
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotentRequest.objects.create(
                        **request_key.lookup(), fingerprint=request_fingerprint
                    )
            except IntegrityError:
                # Taken: the insert waited for the transaction that took it, which has committed.
                earlier = IdempotentRequest.objects.filter(**request_key.lookup()).first()
                if earlier is None:
                    continue  # forgotten (expired) in between: take it again
                return _replay(earlier, request_fingerprint)
            try:
                with transaction.atomic():
                    answer = action()
            except Exception as exc:
                refused = refusal(exc)
                if refused is None:
                    raise
                answer = refused
            record.status = answer.status
            record.body = answer.body
            record.save(update_fields=["status", "body"])
            return answer
    raise RuntimeError("an idempotency key was taken and forgotten three times running")


def record_refusal(*, request_key: RequestKey, request_fingerprint: str, answer: Answer) -> None:
    """Keep a refused move's answer, in the move's transaction (which holds the game's row lock, so no
    concurrent move with the key can have looked for it yet)."""
    IdempotentRequest.objects.create(
        **request_key.lookup(), fingerprint=request_fingerprint, status=answer.status, body=answer.body
    )


def keep_hours() -> float:
    return float(settings.RAMINO_IDEMPOTENCY_KEEP_HOURS)


def forget_expired(*, older_than: timedelta | None = None) -> int:
    """Delete the answers kept longer than `older_than` (default `RAMINO_IDEMPOTENCY_KEEP_HOURS`)."""
    if older_than is None:
        older_than = timedelta(hours=keep_hours())
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted
