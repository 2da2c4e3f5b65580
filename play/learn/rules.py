"""The rules of each game for the how-to-play pages (/play/learn/<preset>/), a few paragraphs a section, in words
for people: what docs/rules.md says of each preset. Italian in locale/it/LC_MESSAGES/django.po ("# -- how to
play")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# ---------------------------------------------------------------------- the games' rules, in a few paragraphs

DEAL = _("The deal")
TURN = _("A turn")
MELDS = _("Melds")
LAY_OFF = _("Laying off")
JOKERS = _("Jokers")
OUT = _("Going out")
SCORING = _("Scoring")

SET_AND_RUN = _(
    "A set is 3 or 4 cards of the same rank, all of different suits; a run is 3 or more cards of one suit in a row. "
    "A new meld needs at least two natural cards."
)
LAY_OFF_ANY = _(
    "Add cards from your hand to either end of a run or to a set's missing suits, on any meld on the table, yours "
    "or another player's. Melds are never rearranged."
)
JOKER_SWAP = _(
    "A joker stands for any card: you place it as that card, and once on the table it stays that card. After "
    "drawing you may swap a joker on the table for the natural card it stands for and take the joker into your "
    "hand; you may not discard it in the same turn."
)
BASIC_SCORING = _(
    "Cards on the table score nothing: what counts is what is left in hand (J, Q, K 10, ace 1, the others their "
    "number). Whoever goes out collects the value of every other hand, doubled when they go out in the same turn "
    "they first place a card (going rummy). If nobody goes out, the lowest hand collects the difference to every "
    "other hand."
)

Sections = Sequence[tuple[Promise, Sequence[Promise]]]

RUMMY500_RULES: Sections = (
    (
        DEAL,
        (
            _(
                "2 to 4 players, one deck of 52 cards and 2 jokers. Each player gets 7 cards, dealt one at a time "
                "from the dealer's left; the next card starts the discard pile and the rest is the stock. The "
                "player on the dealer's left plays first."
            ),
        ),
    ),
    (
        TURN,
        (
            _("Draw one card, lay down melds and lay off as you like, then discard a card to end your turn."),
            _(
                "Draw the top card of the stock, or any card of the discard pile together with every card above "
                "it: a card taken from below the top must go on the table in the same turn, so you may take it "
                "only when you can use it. The card you chose from the pile may not be discarded in the same turn."
            ),
        ),
    ),
    (MELDS, (SET_AND_RUN, _("An ace goes low (A-2-3) or high (Q-K-A), never around the corner (K-A-2)."))),
    (
        LAY_OFF,
        (LAY_OFF_ANY, _("You may lay off before your own first meld. The cards you lay off count for you.")),
    ),
    (JOKERS, (JOKER_SWAP,)),
    (
        OUT,
        (
            _(
                "You go out when you discard your last card: the last card must be discarded, never melded or "
                "laid off. The round also ends when the stock runs out."
            ),
        ),
    ),
    (
        SCORING,
        (
            _(
                "Your score for the round is the value of the cards you placed minus the value of the cards left "
                "in your hand; it can be negative."
            ),
            _(
                "On the table 2 to 10 count their number, J, Q and K 10, an ace 11 (1 in A-2-3) and a joker the "
                "card it stands for. In hand an ace costs 15 and a joker 15."
            ),
            _("A game ends after the round in which someone reaches 500 points."),
        ),
    ),
)

HOUSEHOLD_RULES: Sections = (
    (
        DEAL,
        (
            _(
                "2 to 8 players: one deck and 2 jokers, two decks and 4 jokers from 5 players. 13 cards each with "
                "two players, 7 with more; the next card starts the discard pile and the rest is the stock."
            ),
        ),
    ),
    (
        TURN,
        (
            _("Draw one card, lay down melds and lay off as you like, then discard a card to end your turn."),
            _(
                "Draw the top card of the stock, or any card of the discard pile together with every card above "
                "it. With household rules a card taken from the pile, even the top one, must go on the table in "
                "the same turn."
            ),
        ),
    ),
    (MELDS, (SET_AND_RUN, _("An ace goes low (A-2-3) or high (Q-K-A), never around the corner (K-A-2)."))),
    (
        LAY_OFF,
        (LAY_OFF_ANY, _("You may lay off before your own first meld. The cards you lay off count for you.")),
    ),
    (JOKERS, (JOKER_SWAP,)),
    (
        _("“Rummy!”"),
        (
            _(
                "When the card just discarded could be laid off on a meld on the table, every other player may "
                "call “Rummy!” for a few seconds: the caller nearest the discarder's left takes the card and lays "
                "it off at once, scoring it."
            ),
        ),
    ),
    (
        OUT,
        (
            _(
                "You go out when you discard your last card. When the stock runs out the round goes on: a player "
                "may take from the discard pile only a card they use at once, or end the round."
            ),
        ),
    ),
    (
        SCORING,
        (
            _(
                "Your score for the round is the value of the cards you placed minus the value of the cards left "
                "in your hand; it can be negative."
            ),
            _(
                "2 to 10 count their number, J, Q and K 10; an ace 15 (1 in A-2-3 on the table) and a joker 15, on "
                "the table and in hand. A game is played to 5000 points."
            ),
        ),
    ),
)


def _basic_rules(*, block: bool) -> Sections:
    stock = (
        _(
            "The discard pile never becomes a new stock: once the stock is empty, the player to draw takes the top "
            "card of the discard pile or ends the round."
        )
        if block
        else _(
            "When the stock runs out the discard pile is shuffled into a new stock, twice at most; after that the "
            "player to draw takes the top card of the discard pile or ends the round."
        )
    )
    scoring: tuple[Promise, ...] = (BASIC_SCORING, _("A game is played to 100 points."))
    if block:
        scoring = (
            BASIC_SCORING,
            _(
                "A round that ends with nobody out is a block: the lowest hand collects the difference to every "
                "other hand (hands of 6, 15, 7 and 21: the 6 scores 9 + 1 + 15 = 25)."
            ),
            _("A game is played to 100 points."),
        )
    return (
        (
            DEAL,
            (
                _(
                    "2 to 6 players, one deck of 52 cards, no jokers. 10 cards each with two players, 7 with three "
                    "or four, 6 with five or six; the next card starts the discard pile and the rest is the stock."
                ),
            ),
        ),
        (
            TURN,
            (
                _(
                    "Draw the top card of the stock or of the discard pile, lay down at most one meld, lay off as "
                    "many cards as you like, then discard. The card you took from the pile may not be discarded in "
                    "the same turn."
                ),
            ),
        ),
        (MELDS, (SET_AND_RUN, _("The ace is low: A-2-3 is a run, Q-K-A is not."))),
        (LAY_OFF, (LAY_OFF_ANY,)),
        (
            OUT,
            (
                _("Go out by melding, laying off or discarding your last card: no final discard is needed."),
                stock,
            ),
        ),
        (SCORING, scoring),
    )


WROTHAM_RULES: Sections = (
    (
        DEAL,
        (
            _(
                "2 to 6 players, one deck of 52 cards and 3 jokers. 7 cards each and an eighth to the player who "
                "starts; no card is turned up, so the discard pile starts empty."
            ),
        ),
    ),
    (
        TURN,
        (
            _(
                "The player who starts does not draw: they may meld, then discard. After that every turn is: draw "
                "the top card of the stock or of the discard pile, lay down as many melds as you like, lay off, "
                "then discard."
            ),
        ),
    ),
    (MELDS, (SET_AND_RUN, _("The ace is low: A-2-3 is a run, Q-K-A is not."))),
    (LAY_OFF, (LAY_OFF_ANY,)),
    (JOKERS, (JOKER_SWAP, _("A joker left in your hand costs 15."))),
    (
        OUT,
        (
            _("Go out by melding, laying off or discarding your last card."),
            _(
                "A game is six deals. In deals 4 to 6 your first placement must lay your cards down all at once, "
                "in one move that leaves at most one card, which you then discard."
            ),
        ),
    ),
    (SCORING, (BASIC_SCORING, _("The highest total after six deals wins."))),
)

ROMME_RULES: Sections = (
    (
        DEAL,
        (
            _(
                "2 to 6 players, two decks and 6 jokers (110 cards), 13 cards each; the next card starts the "
                "discard pile and the rest is the stock."
            ),
        ),
    ),
    (
        TURN,
        (
            _(
                "Draw the top card of the stock or of the discard pile, lay down and lay off what you can, then "
                "discard. The card you took from the pile may not be discarded in the same turn."
            ),
        ),
    ),
    (
        _("The opening"),
        (
            _(
                "Your first placement is melds worth at least 40 points, laid down in one move (an ace 11, or 1 in "
                "A-2-3; J, Q, K 10; the others their number; a joker the card it stands for). Before it you may not "
                "lay off or swap a joker; after it you may go on placing cards in the same turn."
            ),
        ),
    ),
    (
        MELDS,
        (
            SET_AND_RUN,
            _("Even with two decks a set never holds a suit twice. A-2-3 and Q-K-A are both runs."),
            _("Lay down as many melds as you like each turn."),
        ),
    ),
    (LAY_OFF, (LAY_OFF_ANY,)),
    (JOKERS, (JOKER_SWAP,)),
    (OUT, (_("Go out by melding, laying off or discarding your last card."),)),
    (
        SCORING,
        (
            _(
                "Whoever goes out collects the value of every other hand: J, Q, K 10, an ace 15, a joker 15, the "
                "others their number; doubled when they go out in the same turn they first place a card."
            ),
            _("A game is played to 100 points."),
        ),
    ),
)

BOARD_RULES: Sections = (
    (
        _("The tiles"),
        (
            _(
                "106 tiles: the numbers 1 to 13 in four colours (red, yellow, blue and black), two of each, and 2 "
                "jokers. 2 to 4 players, each with a private board: nothing is laid down in public."
            ),
        ),
    ),
    (
        DEAL,
        (
            _(
                "14 tiles each, and a 15th to the player on the dealer's left, who starts. The next tile is turned "
                "face up: the trump tile, which stays beside the stock."
            ),
            _(
                "A player dealt three or more pairs of identical tiles may refuse the deal: the same dealer deals again."
            ),
        ),
    ),
    (
        TURN,
        (
            _(
                "The first player opens by discarding a tile. Then each turn: draw the top tile of the stock or the "
                "tile the previous player just discarded (never a thrown joker), then discard a tile, never the one "
                "you just took."
            ),
        ),
    ),
    (
        _("Combinations"),
        (
            _(
                "A run is 3 or more tiles of one colour in a row (12-13-1 is a run, 13-1-2 is not); a group is 3 or "
                "4 tiles of the same number in different colours. A joker stands for any tile."
            ),
        ),
    ),
    (
        _("Closing"),
        (
            _(
                "Close by discarding one tile and showing the other 14 as combinations, as seven pairs of identical "
                "tiles, or as a mosaic (1 to 13 and a second 1, the colours alternating). The best reading of your "
                "tiles is scored, whatever order you show them in."
            ),
        ),
    ),
    (
        SCORING,
        (
            _(
                "The player who closes collects from each opponent: 250 points for a simple hand, 500 for a big one "
                "(runs in at most two colours, every tile 1 to 7, every tile 8 to 13 or 1, or a simple hand closed "
                "with a joker), 1000 for a special one (seven pairs, the eight tiles of one number, runs of a single "
                "colour, and more). Each joker in your combinations takes 50 off a small hand and 100 off the others."
            ),
            _(
                "The trump's twin: the player dealt the other copy of the trump tile gets 100 points from each "
                "opponent, even when nobody closes."
            ),
        ),
    ),
)

GAMES: Mapping[str, Mapping[str, Any]] = {
    "rummy500": {
        "name": _("Rummy 500"),
        "meta": _("2 to 4 players · 52 cards and 2 jokers · 7 cards each"),
        "rules": RUMMY500_RULES,
    },
    "rummy500_household": {
        "name": _("Rummy 500, household rules"),
        "meta": _("2 to 8 players · one or two decks with their jokers · 13 cards each with two players"),
        "rules": HOUSEHOLD_RULES,
    },
    "basic": {
        "name": _("Basic Rummy"),
        "meta": _(
            "2 to 6 players · 52 cards, no jokers · 10 cards each with two players, 7 with three or four, 6 with "
            "five or six"
        ),
        "rules": _basic_rules(block=False),
    },
    "block": {
        "name": _("Block Rummy"),
        "meta": _("Basic Rummy without a second stock"),
        "rules": _basic_rules(block=True),
    },
    "wrotham": {
        "name": _("Wrotham"),
        "meta": _("2 to 6 players · 52 cards and 3 jokers · 7 cards each, 8 to the player who starts"),
        "rules": WROTHAM_RULES,
    },
    "romme": {
        "name": _("Rommé"),
        "meta": _("2 to 6 players · two decks and 6 jokers (110 cards) · 13 cards each"),
        "rules": ROMME_RULES,
    },
    "board": {
        "name": _("Board Rummy"),
        "meta": _("2 to 4 players · 106 tiles · 14 tiles each, 15 to the player who starts"),
        "rules": BOARD_RULES,
    },
}
