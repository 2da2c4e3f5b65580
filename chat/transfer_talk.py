"""The pattern check (pure): does a message seem to arrange a chip transfer? (docs/integrity.md "Chat
evidence"). A message that does is kept as it is and marked; the integrity flags of its author show it.

The check is deliberately simple: a word about chips or money together with a word about giving, sending,
dumping, losing on purpose or paying outside the game, in Italian or English, or a chip amount with such a
word. It marks talk for a person to read; it refuses nothing."""

from __future__ import annotations

import re
import unicodedata

_CHIPS = (
    r"(chips?|fiches?|gettoni|soldi|money|cash|euro|eur|€|paypal|satispay|postepay|iban|bonifico|ricarica)"
)
_ARRANGE = (
    r"(send|give|transfer|dump|pass|pay|sell|buy|trade|lose on purpose|"
    r"mand[oa]|manda(mi|ci|re)?|d[àa]mmi|dammi|ti do|pass[oa]|passa(mi|re)?|regal[oa]|vend[oi]|compr[oa]|"
    r"scambi[oa]?|perd[io] apposta|faccio perdere|trasferi(sci|re|mento)|pag[oa])"
)
_PATTERNS = (
    re.compile(rf"\b{_ARRANGE}\b.{{0,40}}\b{_CHIPS}", re.IGNORECASE),
    re.compile(rf"{_CHIPS}.{{0,40}}\b{_ARRANGE}\b", re.IGNORECASE),
    re.compile(r"\b\d[\d.,]*\s*(k\b|mila\b)?\s*" + _CHIPS + r".{0,40}\b(for|per)\b", re.IGNORECASE),
)


def _plain(text: str) -> str:
    # Letters as written without their accents' variants and look-alike widths (NFKC), one space between words.
    return " ".join(unicodedata.normalize("NFKC", text).split())


def arranges_transfer(text: str) -> bool:
    plain = _plain(text)
    return any(pattern.search(plain) for pattern in _PATTERNS)
