"""OpenAPI: the project's token authentication (and its subclasses) under the scheme name the schema has
always used, `tokenAuth` (drf-spectacular's knox extension matches knox's class only, as `knoxApiToken`)."""

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = "accounts.authentication.TokenAuthentication"
    name = "tokenAuth"
    match_subclasses = True

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.authenticate_header(None)
        )
