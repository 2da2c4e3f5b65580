"""The HTTP API of tables and live games: views, serializers, the `Idempotency-Key` header, rate limits and the
schema's fields."""
