"""Reading `/metrics` in the tests: the text parsed with prometheus_client's own parser (so a malformed
exposition fails), as {(sample name, sorted labels): value}."""

from __future__ import annotations

from typing import Any

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> Samples:
    found: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def scrape(client: Any, **extra: Any) -> Samples:
    """`client`: Django's test client; loopback unless `extra` says otherwise."""
    extra.setdefault("REMOTE_ADDR", "127.0.0.1")
    answer = client.get("/metrics", **extra)
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"].startswith("text/plain; version=0.0.4")
    return parse(answer.content.decode())


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def names(samples: Samples) -> set[str]:
    return {name for name, _ in samples}
