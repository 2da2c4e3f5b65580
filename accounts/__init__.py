"""Player accounts: registration, API tokens (django-rest-knox) and their lifecycle."""
