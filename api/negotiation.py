"""Content negotiation that answers the common cases at once.

DRF's `DefaultContentNegotiation` parses the Accept header of every request; for the clients of this API it is
nearly always absent, `*/*` or `application/json`, and the first renderer is JSON. Those are answered as DRF
would answer them; anything else (another media type, a `?format=`, a format suffix) goes to DRF's.

A `?format=` no renderer of the view offers is a 400 (`request.invalid_parameter`), where DRF answers 404 as
if the resource did not exist.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_noop as N_
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

from api.params import InvalidParameter

_PLAIN_ACCEPTS = frozenset({"", "*/*", "application/json"})


class JSONFirstNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str] | Any:
        renderers = list(renderers)
        accept = request.META.get("HTTP_ACCEPT", "")
        if (
            accept in _PLAIN_ACCEPTS
            and not format_suffix
            and renderers
            and renderers[0].media_type == "application/json"
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)

    def filter_renderers(self, renderers: Iterable[BaseRenderer], format: str) -> list[BaseRenderer]:
        renderers = list(renderers)
        matching = [renderer for renderer in renderers if renderer.format == format]
        if not matching:
            offered = ", ".join(dict.fromkeys(str(renderer.format) for renderer in renderers))
            raise InvalidParameter(
                str(self.settings.URL_FORMAT_OVERRIDE),
                N_("format must be one of: %(formats)s."),
                {"formats": offered},
            )
        return matching
