"""The `Idempotency-Key` header of the tables and play endpoints (docs/api.md "Idempotency"); the keeping of
answers is `tournaments.live.moves.idempotency`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiCode
from tournaments.errors import InvalidRequest
from tournaments.live.moves import idempotency

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "maxLength": idempotency.MAX_KEY_LENGTH},
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Send a fresh key per intended action and the same key on its retries: a replay returns the first "
        "answer (refusals included); the same key with another body is 409 idempotency.key_reused. Longer than "
        "255 characters: 400 idempotency.key_invalid."
    ),
)


def idempotency_key(request: Request) -> str | None:
    """The request's key; None when it sent none."""
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > idempotency.MAX_KEY_LENGTH:
        raise InvalidRequest(
            "Idempotency-Key is at most %(limit)s characters.",
            params={"limit": idempotency.MAX_KEY_LENGTH},
            code=ApiCode.IDEMPOTENCY_KEY_INVALID,
        )
    return key


def answer_once(request: Request, *, body: Mapping[str, Any], respond: Callable[[], Response]) -> Response:
    """`respond()`, or, for a key used before, the first answer given under it. `body` is the request's
    parsed body: what a replay must repeat."""
    key = idempotency_key(request)
    if key is None:
        return respond()

    def run() -> idempotency.Answer:
        response = respond()
        return idempotency.Answer(response.status_code, response.data)

    user_id = int(request.user.pk or 0)  # every view here requires authentication
    answer = idempotency.run_once(
        request_key=idempotency.RequestKey(user_id, request.method or "POST", request.path, key),
        request_fingerprint=idempotency.fingerprint(body),
        action=run,
    )
    return Response(answer.body, status=answer.status)
