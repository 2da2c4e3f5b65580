"""The pattern check that marks chat messages arranging chip transfers (chat/transfer_talk.py, pure)."""

from __future__ import annotations

import pytest

from chat.transfer_talk import arranges_transfer


@pytest.mark.parametrize(
    "text",
    [
        "ti mando 5000 fiches",
        "vendo fiches a 10 euro",
        "send me your chips",
        "give me 500 chips for 10 euro",
        "pay me on paypal and I lose on purpose",
        "ti passo 2000 fiches, poi me le ridai",
        "compro fiches, scrivimi",
        "5000 chips for 20 euro",
    ],
    ids=lambda text: text.replace(" ", "-")[:30],
)
def test_talk_of_chips_changing_hands_is_marked(text: str) -> None:
    assert arranges_transfer(text)


@pytest.mark.parametrize(
    "text",
    [
        "Buona fortuna",
        "Ben giocato",
        "che bella mano, 500 punti",
        "I have 3000 chips left",
        "gg, well played",
    ],
    ids=lambda text: text.replace(" ", "-")[:30],
)
def test_ordinary_talk_is_not(text: str) -> None:
    assert not arranges_transfer(text)
