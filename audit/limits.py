"""A player's limits on the audit pages (docs/web.md "The staff audit pages"): the limits in force and pending on
the player's page, and every change as CSV (/audit/players/<name>/limits.csv). Staff only, like every audit page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from audit import exports
from audit import selectors as audit
from audit.views import _missing, staff_page
from responsible.limits import selectors

COLUMNS = (
    "id",
    "username",
    "limit",
    "value",
    "previous",
    "requested_at",
    "applies_at",
    "withdrawn_at",
    "requested_by",
)


@staff_page
@require_GET
def limits_csv(request: HttpRequest, username: str) -> HttpResponseBase:
    user = audit.player(username=username)
    if user is None:
        return _missing(request, _("No player is named %(name)s.") % {"name": username})
    rows = (
        (
            change.pk,
            change.player.username,
            change.limit,
            "" if change.value is None else change.value,
            "" if change.previous is None else change.previous,
            change.requested_at.isoformat(),
            change.applies_at.isoformat(),
            change.withdrawn_at.isoformat() if change.withdrawn_at else "",
            change.requested_by.username if change.requested_by else "",
        )
        for change in selectors.history(player_id=user.pk).iterator()
    )
    return exports.csv_response(exports.csv_lines(COLUMNS, rows), f"limits_{user.get_username()}.csv")
