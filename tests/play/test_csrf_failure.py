"""People's pages answer a form sent without its CSRF token with a page of the site in the person's language
(`CSRF_FAILURE_VIEW`: play.views.csrf_failure), never Django's own "CSRF verification failed" text."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

PAGES = ["/", "/play/", "/audit/", "/admin/login/"]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "The form could not be sent"), ("it", "Impossibile inviare il modulo")],
)
def test_a_form_without_its_token_gets_a_page_of_the_site(path: str, language: str, title: str) -> None:
    answer = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language).post(
        path, {"username": "ann", "password": "x"}
    )
    assert answer.status_code == 403
    assert answer["Content-Type"].startswith("text/html")
    html = answer.content.decode()
    assert f'<html lang="{language}"' in html
    assert title in html
    assert 'data-role="csrf-failure"' in html and 'href="/"' in html
    for django_text in ("CSRF verification failed", "Forbidden", "CSRF_FAILURE_VIEW", "Verifica CSRF"):
        assert django_text not in html


def test_the_page_follows_the_language_cookie() -> None:
    client = Client(enforce_csrf_checks=True)
    client.cookies["django_language"] = "it"
    answer = client.post("/admin/login/", {})
    assert answer.status_code == 403 and "Impossibile inviare il modulo" in answer.content.decode()


def test_with_its_token_the_admin_s_form_still_works(django_user_model: object) -> None:
    client = Client(enforce_csrf_checks=True)
    page = client.get("/admin/login/")
    token = page.cookies["csrftoken"].value
    answer = client.post("/admin/login/", {"username": "x", "password": "y", "csrfmiddlewaretoken": token})
    assert answer.status_code == 200  # the form again, with its error: no CSRF refusal
    assert 'data-role="csrf-failure"' not in answer.content.decode()
