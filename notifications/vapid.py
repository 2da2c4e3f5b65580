"""The site's VAPID key pair (Web Push): `RAMINO_VAPID_PRIVATE_KEY` (the P-256 private key, its 32 bytes in
base64url) and `RAMINO_VAPID_PUBLIC_KEY` (the uncompressed public point in base64url: the `applicationServerKey`
a browser subscribes with). Without both, Web Push is off: nothing is pushed and the client offers no
subscription. `make run` makes a pair for the laptop on first start (deploy/run_local.py, `generate`)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def configured() -> bool:
    return bool(settings.RAMINO_VAPID_PRIVATE_KEY and settings.RAMINO_VAPID_PUBLIC_KEY)


def public_key() -> str:
    return str(settings.RAMINO_VAPID_PUBLIC_KEY)


def signer() -> Vapid02:
    """The private key, as pywebpush signs each push's VAPID header with it (RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`)."""
    return Vapid02.from_raw(str(settings.RAMINO_VAPID_PRIVATE_KEY).encode("ascii"))


def generate() -> tuple[str, str]:
    """A new pair: (private key, public key), each in base64url as the settings take them."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(private), _b64url(public)
