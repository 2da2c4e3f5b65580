"""The words of the how-to-play pages' pictures (/play/learn/<preset>/; the rules are play/learn/rules.py): the
captions of the illustrations (play/learn/ builds the pictures through the engine; a caption's figures and cards
are filled in from them, never typed here), and cards and tiles in words. Italian in locale/it/LC_MESSAGES/django.po, block "# -- how to play"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from play.learn import LEARNER, Frame

# ---------------------------------------------------------------------- the illustrations' captions

CAPTIONS: Mapping[str, Promise] = {
    "deal": _("The deal: you hold %(count)s cards and Anna %(others)s. Anna dealt, so you play first."),
    "draw": _("Your turn: you draw the top card of the stock, the %(cards)s."),
    "set": _("You lay down a set: %(cards)s, cards of the same rank, all of different suits."),
    "run": _("You lay down a run: %(cards)s, cards of one suit in a row."),
    "run_joker": _(
        "You lay down a run with a joker: %(cards)s. The joker stands for the %(joker)s and stays that card on "
        "the table."
    ),
    "discard": _("You end your turn by discarding the %(cards)s."),
    "other_meld": _("Anna draws from the stock and lays down a run: %(cards)s."),
    "other_discard": _("Anna ends her turn by discarding the %(cards)s."),
    "lay_off": _("You lay off the %(cards)s on Anna's run: you may add cards to any meld on the table."),
    "out": _("You discard your last card, the %(cards)s, and go out: the round is over."),
    "out_meld": _("You go out by laying down your last cards: %(cards)s. No final discard is needed."),
    "out_lay_off": _(
        "You go out by laying off your last card, the %(cards)s, on Anna's run. No final discard is needed."
    ),
    "score": _("You went out, so you collect what Anna has left in hand: %(points)s points."),
}

OVERRIDES: Mapping[str, Mapping[str, Promise]] = {
    "rummy500": {
        "lay_off": _(
            "You lay off the %(cards)s on Anna's run: you may add cards to any meld on the table, and the card "
            "counts for you, not for Anna."
        ),
        "out": _(
            "You discard your last card, the %(cards)s, and go out: the round is over. The last card must be "
            "discarded, never melded."
        ),
        "score": _(
            "The round is scored: each player counts the cards they placed and takes off the cards left in hand."
        ),
    },
    "rummy500_household": {
        "draw_pile": _(
            "Your turn: you take the %(cards)s from the discard pile. With household rules a card taken from the "
            "pile must go on the table in the same turn."
        ),
        "set_from_pile": _("You use it at once, in a set: %(cards)s."),
        "lay_off": _(
            "You lay off the %(cards)s on Anna's run: you may add cards to any meld on the table, and the card "
            "counts for you, not for Anna."
        ),
        "score": _(
            "The round is scored: each player counts the cards they placed and takes off the cards left in hand "
            "(the joker and the kings count on the table for you)."
        ),
    },
    "wrotham": {
        "deal": _(
            "The deal: you hold %(count)s cards and Anna %(others)s. You play first, so you got the eighth card and "
            "start without drawing."
        ),
        "set": _(
            "You start by laying down a set: %(cards)s, cards of the same rank, all of different suits."
        ),
    },
    "romme": {
        "opening": _(
            "Your opening, in one move: %(cards)s, worth %(points)s points, at least the 40 needed. Now you may go "
            "on placing cards in the same turn."
        ),
        "other_opening": _("Anna draws from the stock and opens with %(cards)s, worth %(points)s points."),
    },
    "board": {
        "deal": _(
            "The deal: you hold %(count)s tiles and Anna %(others)s, since you play first. The trump tile is the "
            "%(trump)s; you were dealt its twin."
        ),
        "discard": _("You open the round by discarding the %(cards)s: the first player does not draw."),
        "other_discard": _("Anna draws from the stock and discards the %(cards)s."),
        "draw": _("Your turn: you draw the top tile of the stock, the %(cards)s."),
        "close": _(
            "You close: you discard the %(cards)s and show your other 14 tiles as combinations: %(groups)s."
        ),
        "score": _(
            "Your hand is %(row)s: %(points)s points from each opponent. The trump's twin adds %(bonus)s points "
            "from each opponent."
        ),
    },
}

# Board Rummy's hands (docs/rules.md "Hands"), as the result names them.
BOARD_ROWS: Mapping[str, Promise] = {
    "simple": _("a simple hand"),
    "mosaic": _("a mosaic"),
    "bicolour": _("a two-colour hand"),
    "minor": _("a low hand (every tile 1 to 7)"),
    "major": _("a high hand (every tile 8 to 13 or 1)"),
    "doubles": _("seven pairs"),
    "grand": _("the eight tiles of one number"),
    "monocolour": _("a one-colour hand"),
    "joker_close": _("a hand closed with a joker"),
    "big_joker_close": _("a big hand closed with a joker"),
    "thrown_and_joker_close": _("a hand closed with a joker after throwing one"),
    "two_jokers_thrown": _("a hand after throwing two jokers"),
}

PLAYER_NAMES: Mapping[str, Promise] = {LEARNER: _("You"), "anna": _("Anna")}

# ---------------------------------------------------------------------- cards and tiles, as the client shows them

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}
RANK_NAMES = {"A": _("ace"), "J": _("jack"), "Q": _("queen"), "K": _("king"), "T": "10"}
TILE_COLOURS = {"R": _("red"), "Y": _("yellow"), "B": _("blue"), "K": _("black")}


def _is_tile(code: str) -> bool:
    return code[:1] in TILE_COLOURS and code[1:].isdigit()


def card_name(code: str) -> str:
    """A card or tile in words: "7 of hearts", "joker as the 6 of hearts", "red 7"."""
    if code.startswith("JK"):
        stands = code.partition(":")[2]
        return gettext("joker as the %(card)s") % {"card": card_name(stands)} if stands else gettext("joker")
    if _is_tile(code):
        return gettext("%(colour)s %(number)s") % {"colour": TILE_COLOURS[code[0]], "number": code[1:]}
    rank, suit = code[:-1], code[-1]
    return gettext("%(rank)s of %(suit)s") % {"rank": RANK_NAMES.get(rank, rank), "suit": SUIT_NAMES[suit]}


def card_face(code: str) -> dict[str, str]:
    """What the page draws: the face text, the classes play.css colours (the client's cards.js look) and the
    name read by screen readers."""
    stands = code.partition(":")[2] if code.startswith("JK") else ""
    if code.startswith("JK"):
        text = "★" + (card_face(stands)["text"] if stands else "")
        colour = "joker"
    elif _is_tile(code):
        text, colour = code[1:], f"black tile tile-{code[0].lower()}"
    else:
        rank, suit = code[:-1], code[-1]
        text = ("10" if rank == "T" else rank) + SUIT_SIGNS[suit]
        colour = "red" if suit in "HD" else "black"
    if stands and _is_tile(stands):
        colour = "joker tile"
    return {"code": code, "text": text, "classes": f"card {colour}", "name": card_name(code)}


def cards_words(codes: Sequence[str]) -> str:
    return ", ".join(card_name(c) for c in codes)


def player_name(username: str) -> str:
    return str(PLAYER_NAMES.get(username, username))


def caption(preset: str, frame: Frame) -> str:
    """The caption of one illustration, its cards and figures read from the frame (so from the engine)."""
    text = OVERRIDES.get(preset, {}).get(frame.key) or CAPTIONS[frame.key]
    others = sum(n for p, n in frame.hand_counts.items() if p != LEARNER)
    params: dict[str, Any] = {
        "cards": cards_words(frame.touched),
        "count": frame.hand_counts[LEARNER],
        "others": others,
        "points": frame.points,
        "joker": "",
        "trump": card_name(str(frame.view.get("trump", ""))) if frame.view.get("trump") else "",
        "groups": "",
        "row": "",
        "bonus": 0,
    }
    jokers = [c for c in frame.touched if c.startswith("JK:")]
    if jokers:
        params["joker"] = card_name(jokers[0].partition(":")[2])
    result = frame.view.get("result")
    if result:
        details = result["details"]
        params["points"] = result["game_points"][LEARNER]
        if "hand" in details and isinstance(details["hand"], Mapping):  # Board Rummy's closing hand
            params["row"] = BOARD_ROWS.get(details["hand"]["row"], details["hand"]["row"])
            params["points"] = details["hand"]["points"]
            params["bonus"] = sum(b["points"] for b in result["bonuses"] if b["player"] == LEARNER)
    if frame.key == "close" and result:
        params["groups"] = "; ".join(cards_words(g) for g in result["details"]["arrangement"]["groups"])
    return str(text) % params
