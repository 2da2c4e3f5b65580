"""What the notifications' tests send to: a real SMTP server (aiosmtpd, on a free loopback port) and a local HTTP
endpoint standing in for a browser's push service, which records each request and can decrypt its payload
with the stand-in browser's own keys (the push service itself never can)."""

from __future__ import annotations

import base64
import email
import email.policy
import json
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from aiosmtpd.controller import Controller
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ------------------------------------------------------------------------------------------------- SMTP


@dataclass
class Mailbox:
    messages: list[EmailMessage] = field(default_factory=list)
    envelopes: list[tuple[str, list[str]]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 OK"


@contextmanager
def smtp_server() -> Iterator[tuple[Mailbox, int]]:
    """A real SMTP server on the loopback: (its mailbox, its port)."""
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield mailbox, port
    finally:
        controller.stop()


# -------------------------------------------------------------------------------------------- push service


@dataclass
class Pushed:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Answers every push with `status` (201 as a push service accepts one) and keeps what it received."""

    port: int
    status: int = 201
    received: list[Pushed] = field(default_factory=list)

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService(port=free_port())

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            service.received.append(
                Pushed(path=self.path, headers={k.lower(): v for k, v in self.headers.items()}, body=body)
            )
            self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", service.port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True)
class Browser:
    """A stand-in browser's push keys: what it subscribes with, and what decrypts a push for it."""

    key: ec.EllipticCurvePrivateKey
    auth: bytes

    @classmethod
    def new(cls) -> Browser:
        return cls(key=ec.generate_private_key(ec.SECP256R1()), auth=os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {"endpoint": endpoint, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return dict(json.loads(plain))


def vapid_claims(authorization: str, public_key: str) -> dict[str, Any]:
    """The claims of a `vapid t=<JWT>, k=<key>` header, once its ES256 signature is checked against the site's
    public key (and `k` is that key); AssertionError otherwise."""
    assert authorization.startswith("vapid "), authorization
    parts = dict(item.strip().split("=", 1) for item in authorization[len("vapid ") :].split(","))
    assert parts["k"] == public_key, parts
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(header))["alg"] == "ES256"
    raw = unb64url(signature)
    r, s = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
    try:
        key.verify(encode_dss_signature(r, s), f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not match the site's public key") from None
    return dict(json.loads(unb64url(claims)))
