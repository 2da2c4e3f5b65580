from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The HTTP boundary every app's API stands on (error codes and envelope, parser, negotiation, pagination,
    the schema's errors, the probes); no models. An app so that the ReDoc page's template lives here."""

    name = "api"
    verbose_name = "API"
