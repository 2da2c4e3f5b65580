"""The browser pages. The landing page is for players: what Ramino is, the games and their short rules, Play, and
the next tournaments open for registration (read on the server from the tournaments' selector, for no one in
particular). The player client is a static shell: it learns everything through the public API with the
player's own token (docs/web.md), so its view reads nothing and knows no one."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.generic import TemplateView

from api.machine import csrf_refused, is_machine_path
from play import learn_pages
from tournaments.tournament import selectors as tournament_selectors

# How many tournaments open for registration the landing page lists.
LANDING_TOURNAMENTS = 5

# A tournament's game and kind, as a person reads them (the lobby names them the same way).
GAME_NAMES = {
    "rummy500": _("Rummy 500"),
    "rummy500_household": _("Rummy 500, household rules"),
    "basic": _("Basic Rummy"),
    "block": _("Block Rummy"),
    "wrotham": _("Wrotham"),
    "romme": _("Rommé"),
    "board": _("Board Rummy"),
}
KIND_NAMES = {
    "quick": _("Quick game"),
    "single": _("Sit-and-go"),
    "multi": _("Multi-table tournament"),
}


class LandingView(TemplateView):
    template_name = "play/landing.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        rows = tournament_selectors.open_for_registration(limit=LANDING_TOURNAMENTS)
        context["tournaments"] = [
            {
                "row": row,
                "game": GAME_NAMES.get(row.tournament.game, row.tournament.game),
                "kind": KIND_NAMES.get(row.tournament.kind, row.tournament.kind),
            }
            for row in rows
        ]
        return context


class ClientView(TemplateView):
    template_name = "play/client.html"


class LearnView(TemplateView):
    """How to play one preset (/play/learn/<preset>/): its rules in a few paragraphs and a round on a stacked deck,
    step by step, every picture the engine's own view of it (play/learn/). Server-rendered: it reads nothing of
    anyone, works without JavaScript and is the same page for every visitor in a language."""

    template_name = "play/learn.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        preset = kwargs["preset"]
        if preset not in learn_pages.PRESETS:
            raise Http404
        context.update(learn_pages.page(preset))
        return context


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """`CSRF_FAILURE_VIEW`: a form without its token (or with a stale one) gets a page of the site in the
    person's language (LocaleMiddleware runs before the CSRF check), never Django's own page; a machine endpoint
    gets the API's envelope (api.machine). 403 either way; `reason` (Django's, in English) is not shown."""
    if is_machine_path(request.path):
        return csrf_refused(request, reason)
    return render(request, "play/csrf_failure.html", status=403)


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """`/favicon.ico`, which browsers ask for on pages that name no icon (the Django admin's): the site's icon,
    the SVG every page of ours links (`play/base.html`). A temporary redirect, kept a day: the static file's
    name changes with its content in production."""
    return HttpResponseRedirect(static("play/favicon.svg"))
