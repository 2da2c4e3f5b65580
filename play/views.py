"""The browser pages. Both are static shells: the player client learns everything through the public API
with the player's own token (docs/web.md), so these views read nothing and know no one."""

from __future__ import annotations

from django.views.generic import TemplateView


class LandingView(TemplateView):
    template_name = "play/landing.html"


class ClientView(TemplateView):
    template_name = "play/client.html"
