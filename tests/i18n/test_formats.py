"""Numbers on server pages: a chip count shown with `intcomma` is written as the page's language writes it,
while a plain `{{ number }}` (ids, data-* attributes) stays plain, and so do JSON and CSV."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation

PAGE = Template('{% load humanize %}<td data-amount="{{ n }}">{{ n|intcomma }}</td>')


def test_chip_counts_follow_the_language_and_attributes_stay_plain() -> None:
    with translation.override("it"):
        assert PAGE.render(Context({"n": 10000})) == '<td data-amount="10000">10.000</td>'
    with translation.override("en"):
        assert PAGE.render(Context({"n": 10000})) == '<td data-amount="10000">10,000</td>'


def test_json_numbers_stay_numbers_in_italian() -> None:
    from rest_framework.renderers import JSONRenderer

    with translation.override("it"):
        assert JSONRenderer().render({"balance": 10000}) == b'{"balance":10000}'
