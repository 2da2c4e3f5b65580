"""What a request may hold before any view, form or query sees it (docs/api.md, "Limits of a request").

PostgreSQL refuses a NUL character in text (psycopg raises `DataError`) and no UTF-8 encoder takes a lone
surrogate, so either one anywhere a view might pass on (a query filter, a header such as `Authorization` or
`Idempotency-Key`, the session cookie, a JSON string) is refused here with a 400, before it can become a 500.
A JSON body nested deeper than a move or a tournament ever is, or larger than any of them, is refused by the
parser, before code that recurses (hashing, serializers, JSON columns) meets it; the URI and header limits
are Django's to answer, in the envelope, under the higher ceilings gunicorn keeps (deploy/gunicorn.conf.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import unquote_to_bytes

import orjson
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_
from rest_framework import exceptions, parsers, renderers, status

from api.errors import ApiCode, error_json, translate_message

# A request line's URI (path, `?` and query string) longer than this is 414; gunicorn's ceiling is above it.
MAX_URI_LENGTH = 4096
# One header (name and value) longer than this, or all of them together, is 431.
MAX_HEADER_LENGTH = 8192
MAX_HEADERS_LENGTH = 32768
# A JSON body: at most this many bytes (413) and this many nested arrays and objects (400).
MAX_BODY_BYTES = 65536
MAX_JSON_DEPTH = 32

# What no text the API stores or looks up may hold: NUL, and the surrogates (never a character of UTF-8).
_FORBIDDEN = re.compile("[\x00\ud800-\udfff]")
_PLAIN_QUERY = re.compile(r"[\x21-\x7e]*")  # printable ASCII: nothing percent-decoding could make bad
_BODY_HEADERS = ("CONTENT_TYPE", "CONTENT_LENGTH")


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = f"The body is larger than {MAX_BODY_BYTES} bytes."
    default_code = "too_large"

    def __init__(self) -> None:
        super().__init__(
            translate_message(N_("The body is larger than %(limit)s bytes."), {"limit": MAX_BODY_BYTES})
        )


def _envelope(
    code: ApiCode, message: str, http_status: int, params: dict[str, Any] | None = None, **details: Any
) -> JsonResponse:
    """The refusal in the envelope, its message in the active language (RequestGuardMiddleware activates the
    request's: this runs before LocaleMiddleware)."""
    return error_json(code, message, http_status, params, **details)


def _header_name(meta_key: str) -> str:
    return meta_key.removeprefix("HTTP_").replace("_", "-").title()


def _headers(meta: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [
        (key, value)
        for key, value in meta.items()
        if isinstance(value, str) and (key.startswith("HTTP_") or key in _BODY_HEADERS)
    ]


def _text(part: str) -> str | None:
    """A query string's name or value, decoded; None unless it is UTF-8 text without NUL or surrogates."""
    try:
        text = unquote_to_bytes(part.replace("+", " ").encode("latin-1")).decode("utf-8")
    except UnicodeError:
        return None
    return None if _FORBIDDEN.search(text) else text


def _query_refusal(query: str) -> JsonResponse | None:
    """A 400 for a query string with NUL, a surrogate or bytes that are not UTF-8 in a name or a value."""
    if _PLAIN_QUERY.fullmatch(query) and "%" not in query:
        return None
    for field in query.split("&"):
        raw_name, _, raw_value = field.partition("=")
        name = _text(raw_name)
        if name is None:
            return _envelope(
                ApiCode.REQUEST_MALFORMED,
                N_("The query string must be UTF-8 text without NUL characters."),
                status.HTTP_400_BAD_REQUEST,
            )
        if _text(raw_value) is None:
            return _envelope(
                ApiCode.INVALID_PARAMETER,
                N_("%(name)s must be UTF-8 text without NUL characters."),
                status.HTTP_400_BAD_REQUEST,
                {"name": name},
                parameter=name,
            )
    return None


def refusal(request: HttpRequest) -> JsonResponse | None:
    """The answer to a request no view should see, or None."""
    query = request.META.get("QUERY_STRING", "")
    if len(request.path) + len(query) + 1 > MAX_URI_LENGTH:
        return _envelope(
            ApiCode.URI_TOO_LONG,
            N_("The path and query string are longer than %(limit)s characters."),
            status.HTTP_414_REQUEST_URI_TOO_LONG,
            {"limit": MAX_URI_LENGTH},
            limit=MAX_URI_LENGTH,
        )
    headers = _headers(request.META)
    total = 0
    for key, value in headers:
        size = len(key) + len(value)
        total += size
        if size > MAX_HEADER_LENGTH or total > MAX_HEADERS_LENGTH:
            too_long = size > MAX_HEADER_LENGTH
            return _envelope(
                ApiCode.HEADERS_TOO_LARGE,
                N_("A header is longer than %(limit)s characters.")
                if too_long
                else N_("The headers are longer than %(limit)s characters together."),
                status.HTTP_431_REQUEST_HEADER_FIELDS_TOO_LARGE,
                {"limit": MAX_HEADER_LENGTH if too_long else MAX_HEADERS_LENGTH},
                limit=MAX_HEADER_LENGTH if too_long else MAX_HEADERS_LENGTH,
                **({"header": _header_name(key)} if too_long else {}),
            )
    if _FORBIDDEN.search(request.path):
        return _envelope(
            ApiCode.REQUEST_MALFORMED,
            N_("The path must not hold NUL characters."),
            status.HTTP_400_BAD_REQUEST,
        )
    for key, value in headers:
        if _FORBIDDEN.search(value):
            return _envelope(
                ApiCode.REQUEST_MALFORMED,
                N_("A header must not hold NUL characters."),
                status.HTTP_400_BAD_REQUEST,
                header=_header_name(key),
            )
    return _query_refusal(query)


def _language(request: HttpRequest) -> str:
    """The request's language (cookie, else Accept-Language), or the default when the very headers that hold
    it are what the guard refuses (a cookie that is not text)."""
    try:
        return translation.get_language_from_request(request)
    except (UnicodeError, ValueError):
        return str(settings.LANGUAGE_CODE)


class RequestGuardMiddleware:
    """Refuses what `refusal` refuses, in the API's envelope, on every path, before the session or any view
    reads the request (config/settings/base.py, MIDDLEWARE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if refusal(request) is None:
            return self.get_response(request)
        # Refused: answered again in the request's language (the cookie, else Accept-Language), which
        # LocaleMiddleware, further on, has not activated yet.
        with translation.override(_language(request)):
            answer = refusal(request)
        return answer if answer is not None else self.get_response(request)


def _too_deep(value: Any) -> bool:
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            yield from item.keys()
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class JSONParser(parsers.BaseParser):
    """JSON bodies read by orjson (strict: no NaN or Infinity, no lone surrogate, UTF-8 only), within the
    size and nesting limits and without NUL characters."""

    media_type = "application/json"
    renderer_class = renderers.JSONRenderer

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        raw: bytes = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_BODY_BYTES:
            raise BodyTooLarge()
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise exceptions.ParseError(
                translate_message(N_("JSON parse error - %(error)s"), {"error": exc})
            ) from None
        # Cheap tests first: a body can nest no deeper than it has brackets, and holds a NUL only as \u0000.
        if raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH and _too_deep(data):
            raise exceptions.ParseError(
                translate_message(
                    N_("The body nests more than %(limit)s arrays and objects deep."),
                    {"limit": MAX_JSON_DEPTH},
                )
            )
        if b"\\u0000" in raw and any("\x00" in text for text in _strings(data)):
            raise exceptions.ParseError(gettext("Text in the body must not hold NUL characters."))
        return data
