"""Every answer the API gives during a test, checked against the published schema (`/api/schema/`) of its
operation and status.

`recording_answers` records what Django's request handler answers (the test client's requests and a live
server's, which runs in the test's process); `check_answers` validates each against its operation's
response schema. The check reads the schema strictly: an object the schema describes field by field is
closed (a field it does not list fails, unless the schema itself says `additionalProperties`), so a passing
check proves the schema and the answer name the same fields, each of the type the schema says.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, resolve
from jsonschema import validators
from openapi_schema_validator import OAS30ReadValidator, oas30_format_checker

_METHODS = ("get", "post", "put", "patch", "delete")


def template_of(url: str) -> str:
    """The schema's path template of a URL (`/api/v1/tables/7/` -> `/api/v1/tables/{table_id}/`)."""
    route = resolve(url.split("?")[0]).route
    # drf-spectacular names a `pk` path parameter `id`.
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route).replace("{pk}", "{id}")


_ALL_OF = OAS30ReadValidator.VALIDATORS["allOf"]
_ANY_OF = OAS30ReadValidator.VALIDATORS["anyOf"]


def _allof_or_null(validator: Any, all_of: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    # drf-spectacular writes a nullable nested object as `{allOf: [$ref], nullable: true}`, which tools read
    # as "that object or null"; the validator's strict OAS 3.0.3 reading would only let null through beside
    # a `type`.
    if instance is None and schema.get("nullable") is True:
        return
    yield from _ALL_OF(validator, all_of, instance, schema)


def _anyof_or_null(validator: Any, any_of: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    # The same for a nullable field whose schema is a union (`{anyOf: [...], nullable: true}`: a round's
    # `details`).
    if instance is None and schema.get("nullable") is True:
        return
    yield from _ANY_OF(validator, any_of, instance, schema)


ResponseValidator = validators.extend(OAS30ReadValidator, {"allOf": _allof_or_null, "anyOf": _anyof_or_null})


def closed(schema: Any) -> Any:
    """`schema` with every object that lists its properties, and says nothing of others, closed."""
    if isinstance(schema, list):
        return [closed(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: closed(value) for key, value in schema.items()}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def response_schema(spec: dict[str, Any], method: str, template: str, status: int) -> dict[str, Any] | None:
    """The JSON schema of an answer (None when the operation documents no such status)."""
    response = spec["paths"][template][method]["responses"].get(str(status))
    if response is None:
        return None
    schema: dict[str, Any] = response.get("content", {}).get("application/json", {}).get("schema", {})
    return schema


def problems(spec: dict[str, Any], method: str, url: str, status: int, body: Any) -> list[str]:
    """What is wrong with an answer, each naming the operation and the JSON path; [] when it conforms."""
    template = template_of(url)
    where = f"{method.upper()} {template} {status}"
    operation = spec["paths"].get(template, {}).get(method)
    if operation is None:
        return [f"{where}: no such operation in the schema"]
    if str(status) not in operation["responses"]:
        return [f"{where}: status not listed (documented: {', '.join(operation['responses'])})"]
    schema = response_schema(spec, method, template, status)
    if not schema:
        return [] if body is None else [f"{where}: a body where the schema documents none"]
    validator = _validator(spec, (method, template, status), schema)
    return [f"{where}: {error.json_path}: {error.message}" for error in validator.iter_errors(body)]


@dataclass
class _Validators:
    """The strict validators of one spec, by operation and status. Keyed by the spec's identity, not its text:
    writing the schema's components out as a key for every answer made most of a test's teardown (the
    hostile-input test's: 8.15 s, 1.26 s without it; the suite checks thousands of answers). A spec is never
    changed in place."""

    spec: dict[str, Any] | None = None
    components: Any = None
    by_operation: dict[tuple[str, str, int], Any] = field(default_factory=dict)


_validators = _Validators()


def _validator(spec: dict[str, Any], operation: tuple[str, str, int], schema: dict[str, Any]) -> Any:
    if _validators.spec is not spec:
        _validators.spec = spec
        _validators.components = closed(spec["components"])
        _validators.by_operation = {}
    found = _validators.by_operation.get(operation)
    if found is None:
        strict = {"allOf": [closed(schema)], "components": _validators.components}
        found = _validators.by_operation[operation] = ResponseValidator(
            strict, format_checker=oas30_format_checker
        )
    return found


@dataclass(frozen=True)
class Answer:
    method: str
    path: str
    status: int
    content_type: str
    content: bytes


@dataclass
class Recording:
    answers: list[Answer] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, request: HttpRequest, response: HttpResponseBase) -> None:
        if response.streaming:
            return
        content: bytes = response.content  # type: ignore[attr-defined]
        answer = Answer(
            method=(request.method or "GET").lower(),
            path=request.path,
            status=response.status_code,
            content_type=response.get("Content-Type", "").split(";")[0],
            content=content,
        )
        with self.lock:
            self.answers.append(answer)


def is_operation(spec: dict[str, Any], method: str, path: str) -> bool:
    """An API request the schema could describe: a documented method on a path of the API."""
    if method not in _METHODS or not path.startswith("/api/v1/"):
        return False
    try:
        template = template_of(path)
    except Resolver404:
        return False  # no route: Django's 404, the same envelope everywhere (api.errors)
    # A method the path does not document (DRF's OPTIONS metadata, a 405) is no operation of the contract.
    return method in spec["paths"].get(template, {})


def check_answers(spec: dict[str, Any], answers: list[Answer]) -> tuple[int, list[str]]:
    """(how many answers were checked, what is wrong with them)."""
    checked = 0
    found: list[str] = []
    for answer in answers:
        if not is_operation(spec, answer.method, answer.path):
            continue
        template = template_of(answer.path)
        checked += 1
        if answer.content_type == "text/csv":
            documented = spec["paths"][template][answer.method]["responses"].get(str(answer.status), {})
            if "text/csv" not in documented.get("content", {}):
                found.append(f"{answer.method.upper()} {template} {answer.status}: CSV not documented")
            continue
        body = json.loads(answer.content) if answer.content else None
        found += problems(spec, answer.method, answer.path, answer.status, body)
    return checked, found


def summary(found: list[str]) -> str:
    """Each distinct problem once, list positions folded (`$.events[*]`), with how often it occurred."""
    counts: dict[str, int] = {}
    for problem in found:
        folded = re.sub(r"\[\d+\]", "[*]", problem)
        counts[folded] = counts.get(folded, 0) + 1
    return "\n".join(f"{problem} (x{count})" for problem, count in sorted(counts.items()))


def record_answers(recording: Recording) -> Any:
    """A replacement of `BaseHandler.get_response` that records into `recording` (see the fixture)."""
    original = BaseHandler.get_response

    def get_response(self: BaseHandler, request: HttpRequest) -> HttpResponseBase:
        response = original(self, request)
        recording.add(request, response)
        return response

    return get_response


def published_schema() -> dict[str, Any]:
    from rest_framework.test import APIClient

    response = APIClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    loaded: dict[str, Any] = json.loads(response.content)
    return loaded
