"""Who may read `/metrics`: a client connecting from one of the networks `RAMINO_METRICS_NETWORKS` names
(loopback by default), or any client presenting `RAMINO_METRICS_TOKEN` as `Authorization: Bearer <token>`.

The address is the TCP peer's (REMOTE_ADDR). A request that came through a proxy (it carries X-Forwarded-For,
Forwarded or X-Real-IP) is never let in by address, whatever NUM_PROXIES says: behind a proxy on the same host
every client would otherwise look like loopback. Such requests need the token."""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable, Mapping
from enum import Enum

ProxyHeaders = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Verdict(Enum):
    ALLOWED = "allowed"
    # No token and not from an allowed network: answered as if /metrics did not exist (404).
    UNKNOWN = "unknown"
    # A token that is not the configured one (or tokens are off): 403.
    BAD_TOKEN = "bad_token"


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """`RAMINO_METRICS_NETWORKS`' entries (addresses or networks, e.g. 127.0.0.0/8, ::1, 10.0.0.0/8); a wrong
    one raises ValueError at start-up."""
    return tuple(ipaddress.ip_network(value.strip(), strict=False) for value in values if value.strip())


def _address_in(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


def _bearer(meta: Mapping[str, str]) -> str | None:
    scheme, _, credentials = meta.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        return None
    return credentials.strip()


def verdict(meta: Mapping[str, str], *, networks: tuple[Network, ...], token: str) -> Verdict:
    """`meta`: a request's META (WSGI environ)."""
    presented = _bearer(meta)
    if presented is not None:
        if token and hmac.compare_digest(presented.encode(), token.encode()):
            return Verdict.ALLOWED
        return Verdict.BAD_TOKEN
    if any(meta.get(header) for header in ProxyHeaders):
        return Verdict.UNKNOWN
    if _address_in(meta.get("REMOTE_ADDR", ""), networks):
        return Verdict.ALLOWED
    return Verdict.UNKNOWN
