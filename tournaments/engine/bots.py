"""Bots that play a round through the public engine API, and the server's timeout move.

A bot is anything with ``choose(state, player) -> move``; it returns one move dict in the JSON form of
docs/rules.md "A turn", which ``apply_move`` accepts, and is asked again after every move (a turn is several
moves).

- ``RandomBot``: uniform over ``legal_moves`` (seeded), the baseline.
- ``GreedyBot``: driven by ``solver.best_arrangement``: takes from the discard pile when that improves
  its best arrangement, melds what the solver places (keeping a card to discard), lays off and swaps
  jokers where that gains, and discards the card whose loss hurts its hand least.
- ``auto_move``: what the server plays for a player whose clock ran out (docs/rules.md "Ring tables, clocks
and timeouts").
- ``play_round``: drives a round to its end with one bot per player (tests, simulations, benchmark).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .cards import JOKER, RANKS, hand_value, rank_char, stands_for, suit_of, table_value
from .engine import apply_move, close_claims, legal_moves
from .errors import IllegalMove
from .families import family_of
from .melds import card_values as melds_card_values
from .melds import enumerate_lay_offs, joker_slots, meld_value, single_extensions
from .moves import MoveJson
from .solver import Arrangement, best_arrangement, discard_values
from .state import RoundState

__all__ = [
    "Bot",
    "GreedyBot",
    "RandomBot",
    "auto_move",
    "greedy_move",
    "play_round",
]

Move = MoveJson

# The greedy bot looks this deep into the discard pile: deeper pickups are rarely worth their cards and
# each candidate costs a solver call on a bigger hand.
PILE_DEPTH = 52
# Below this many stock cards the greedy bot goes out even when behind (holding cards is then a loss).
WAIT_STOCK = 4
PLACED_WEIGHT = 5
NEIGHBOUR_WEIGHT = 10
# Estimated penalty of one card in an opponent's hand. The mean card is worth about 7.5, but tuning
# against the random bot (seeds 0-399) found 10 best: it makes the bot wait less, since an opponent
# who has picked up many cards rarely goes out.
AVERAGE_PENALTY = 10


class Bot(Protocol):
    def choose(self, state: RoundState, player: str) -> Move: ...


# ================================================ timeouts (docs/rules.md "Ring tables, clocks and timeouts")


def auto_move(state: RoundState, player: str) -> Move:
    """The move the server makes for ``player`` when their clock has run out.

    A family with bots of its own plays its own (``Family.bots``; Board Rummy: the highest number, never a
    joker).
    In a claim window: pass. Before drawing: the stock, or ``end_round`` where the stock is empty.
    After drawing: meet a pending obligation (the chosen pile card, a retrieved joker that must be
    melded) with the first legal way in canonical order; then discard the card with the highest in-hand
    penalty that may legally be discarded, ties in canonical order. ``ValueError`` when ``player`` may
    not act.
    """
    if player not in state.may_act:
        raise ValueError(f"{player!r} may not act now.")
    own = family_of(state.rules).bots
    if own is not None:
        return own.auto_move(state, player)
    if state.phase == "claims":
        return {"type": "pass_claim"}
    if state.phase == "draw" and state.stock:
        return {"type": "draw", "source": "stock"}
    if state.phase == "play" and state.must_use is None and not state.jokers_to_meld:
        # The common case, without listing every legal move (the timer path runs on the server):
        # with no obligation pending, any held card not reserved this turn may be discarded.
        rules = state.rules
        top: str | None = None
        for card in state.hand_of(player):
            if card not in state.reserved and (
                top is None or hand_value(card, rules) > hand_value(top, rules)
            ):
                top = card
        if top is not None:
            return {"type": "discard", "card": top}
    moves = legal_moves(state, player)
    if state.phase == "draw":
        if {"type": "end_round"} in moves:
            return {"type": "end_round"}
        return moves[0]  # an empty stock the rules do not let end the round: the first legal draw
    if state.must_use is not None:
        for move in moves:
            if _places(move, state.must_use):
                return move
    if state.jokers_to_meld:
        for move in moves:
            if _places(move, JOKER):
                return move
    discards = [m for m in moves if m["type"] == "discard"]
    if discards:
        rules = state.rules
        best = discards[0]
        for move in discards[1:]:
            if hand_value(move["card"], rules) > hand_value(best["card"], rules):
                best = move
        return best
    return moves[0]


def _places(move: Mapping[str, Any], card: str) -> bool:
    """Whether ``move`` puts ``card`` (``JK``: any joker) on the table."""
    if move["type"] == "swap_joker":
        return bool(move["card"] == card)
    if move["type"] not in ("meld", "lay_off"):
        return False
    cards: list[str] = list(move["cards"])
    if card == JOKER:
        return any(stands_for(c) is not None for c in cards)
    return card in cards


# ====================================================================== random


class RandomBot:
    """Uniformly random over ``legal_moves``; reproducible with a seed."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: RoundState, player: str) -> Move:
        moves = legal_moves(state, player)
        if not moves:
            raise ValueError(f"{player!r} may not act now.")
        return self.rng.choice(moves)


# ====================================================================== greedy


class GreedyBot:
    """A one-turn-greedy player built on the exact solver; deterministic, holds no state."""

    def __init__(
        self,
        pile_depth: int = PILE_DEPTH,
        wait_stock: int = WAIT_STOCK,
        placed_weight: int = PLACED_WEIGHT,
        neighbour_weight: int = NEIGHBOUR_WEIGHT,
    ) -> None:
        self.neighbour_weight = neighbour_weight
        self.pile_depth = pile_depth
        self.placed_weight = placed_weight
        self.wait_stock = wait_stock

    def choose(self, state: RoundState, player: str) -> Move:
        if player not in state.may_act:
            raise ValueError(f"{player!r} may not act now.")
        own = family_of(state.rules).bots
        if own is not None:
            return own.greedy_move(state, player)
        if state.phase == "claims":
            calls = [m for m in legal_moves(state, player) if m["type"] == "call_rummy"]
            return calls[0] if calls else {"type": "pass_claim"}
        if state.phase == "draw":
            return self._draw(state, player)
        return self._play(state, player)

    # ------------------------------------------------------------------ draw

    def _draw(self, state: RoundState, player: str) -> Move:
        rules = state.rules
        hand = list(state.hand_of(player))
        # Cards picked up now can still be melded or laid off later, so placed points count extra.
        weight = self.placed_weight
        base = _worth(_arrange(hand, state, reserved=()), weight)
        options: list[tuple[int, int, Move]] = []
        pile = state.discard
        family = family_of(rules)
        depth = min(self.pile_depth, family.pile_draw_depth or self.pile_depth)
        for i in range(len(pile) - 1, max(-1, len(pile) - 1 - depth), -1):
            chosen = pile[i]
            after = [*hand, *pile[i:]]
            if not _may_meld(chosen, after) and not _can_lay_off(chosen, state):
                continue  # it could not be used, so taking it cannot help: skip the solver call
            arr = _arrange(after, state, reserved=(chosen,))
            value = _worth(arr, weight)
            if (
                family.pile_draw_obligation(state, i)
                and Counter(arr.leftover)[chosen] == Counter(after)[chosen]
            ):
                # The chosen card is not in a meld: only a lay-off could use it.
                if chosen == JOKER or not _can_lay_off(chosen, state):
                    continue
                value += weight * table_value(chosen, rules) + hand_value(chosen, rules)
            if value > base:
                options.append((value, i, {"type": "draw", "source": "discard", "card": chosen, "index": i}))
        # Most valuable first; on a tie the shallower pickup (fewer cards to carry).
        for _value, _i, move in sorted(options, key=lambda o: (-o[0], -o[1])):
            if _accepted(state, player, move):
                return move
        if state.stock:
            return {"type": "draw", "source": "stock"}
        moves = legal_moves(state, player)
        if {"type": "end_round"} in moves:
            return {"type": "end_round"}
        return moves[0]

    # ------------------------------------------------------------------ after the draw

    def _play(self, state: RoundState, player: str) -> Move:
        rules = state.rules
        hand = list(state.hand_of(player))
        arr = _arrange(hand, state, reserved=state.reserved)

        for target in [c for c in (state.must_use, JOKER if state.jokers_to_meld else None) if c]:
            move = self._meet(state, player, arr, target)
            if move is not None:
                return move

        melds = list(arr.melds)
        if self._should_wait(state, player, arr):
            # Going out now would lose the round: keep the least valuable meld in hand for now.
            melds.remove(min(melds, key=lambda m: (meld_value(m, rules), m)))
        free = (
            state.must_use is None
            and not state.jokers_to_meld
            and any(c not in state.reserved for c in arr.leftover)
        )
        limited = family_of(rules).limits_placements
        for meld in melds:
            move = {"type": "meld", "cards": list(meld)}
            # With no obligation pending, a meld the solver found (it keeps a discardable card) is legal;
            # skipping the trial apply_move saves a third of the bot's time.
            if (free and rules.final_discard_required and not limited) or _accepted(state, player, move):
                return move
        if limited and melds:
            move = _opening(state, player)
            if move is not None:
                return move

        move = self._lay_off(state, player, arr)
        if move is not None:
            return move

        if rules.joker_swap:
            move = self._swap(state, player, arr)
            if move is not None:
                return move

        return self._discard(state, player, hand)

    def _should_wait(self, state: RoundState, player: str, arr: Arrangement) -> bool:
        """Whether to hold back from going out: it is possible this turn, but the bot is behind.

        An opponent's score is estimated from what they placed (public) minus an average penalty for
        each card they hold; with a few cards left in the stock the bot goes out anyway.
        """
        if not (arr.melds and len(arr.leftover) == 1):
            return False
        return self._behind(state, player, arr.placed)

    def _behind(self, state: RoundState, player: str, gain: int) -> bool:
        """Whether going out now, after placing ``gain`` more points, would likely lose the round."""
        rules = state.rules
        if not rules.final_discard_required or not family_of(rules).placed_cards_score:
            return False
        if state.must_use is not None or state.jokers_to_meld or len(state.stock) <= self.wait_stock:
            return False
        placed = dict.fromkeys(state.players, 0)
        for m in state.melds:
            for who, v in zip(m.placers, melds_card_values(m.cards, rules), strict=True):
                placed[who] += v
        mine = placed[player] + gain
        rivals = [
            placed[p] - AVERAGE_PENALTY * len(state.hands[i])
            for i, p in enumerate(state.players)
            if p != player
        ]
        return max(rivals) >= mine

    def _meet(self, state: RoundState, player: str, arr: Arrangement, target: str) -> Move | None:
        """A move that places the obligation card ``target``: the solver's meld, else any legal way."""
        for meld in arr.melds:
            if target in meld or (target == JOKER and any(stands_for(c) is not None for c in meld)):
                move: Move = {"type": "meld", "cards": list(meld)}
                if _accepted(state, player, move):
                    return move
        ways = [m for m in legal_moves(state, player) if _places(m, target)]
        if not ways:
            return None
        # The way that places the fewest other cards keeps the most of the hand's arrangement.
        return min(ways, key=lambda m: len(m.get("cards", ())))

    def _lay_off(self, state: RoundState, player: str, arr: Arrangement) -> Move | None:
        """The most valuable lay-off of cards the solver leaves in hand, keeping a card to discard."""
        rules = state.rules
        hand = state.hand_of(player)
        spare = list(arr.leftover)
        if not spare:
            return None
        best: tuple[int, Move] | None = None
        for meld in state.melds:
            for added, _new in enumerate_lay_offs(spare, meld.cards, rules):
                if rules.final_discard_required and len(added) >= len(hand):
                    continue
                points = sum(table_value(c, rules) for c in added)
                gain = points + sum(hand_value(c, rules) for c in added)  # placed, and no longer in hand
                if len(added) == len(hand) - 1 and self._behind(state, player, points):
                    continue  # this lay-off would let the bot go out while behind: wait
                if best is None or gain > best[0]:
                    best = (gain, {"type": "lay_off", "meld": meld.id, "cards": list(added)})
        if best is not None and _accepted(state, player, best[1]):
            return best[1]
        return None

    def _swap(self, state: RoundState, player: str, arr: Arrangement) -> Move | None:
        """Swap a table joker for a natural card the solver leaves in hand when the joker improves it."""
        hand = list(state.hand_of(player))
        spare = set(arr.leftover)
        for meld in state.melds:
            for _idx, natural in joker_slots(meld.cards):
                if natural not in spare:
                    continue
                after = list(hand)
                after.remove(natural)
                after.append(JOKER)
                better = _arrange(after, state, reserved=(*state.reserved, JOKER))
                if better.value > arr.value + hand_value(natural, state.rules):
                    move: Move = {"type": "swap_joker", "meld": meld.id, "card": natural}
                    if _accepted(state, player, move):
                        return move
        return None

    def _discard(self, state: RoundState, player: str, hand: list[str]) -> Move:
        """The discard after which the rest of the hand is worth most, counting a little for the partners
        a card has; ties: fewer partners, higher penalty."""
        rules = state.rules
        scored: list[tuple[int, int, int, str]] = []
        feeds: set[str] = set()
        for m in state.melds:
            feeds |= single_extensions(m.cards, rules)
        after = discard_values(hand, rules)
        for card in dict.fromkeys(hand):
            if card in state.reserved:
                continue
            rest = list(hand)
            rest.remove(card)
            value = after[card]
            if card in feeds:
                value -= table_value(card, rules)  # an opponent could lay it off for these points
            near = _neighbours(card, rest)
            # A card with partners (a pair, a near run) may still make a meld: keeping it is worth a bit.
            scored.append((value - self.neighbour_weight * near, -near, hand_value(card, rules), card))
        free = state.must_use is None and not state.jokers_to_meld
        for *_key, card in sorted(scored, key=lambda s: (s[0], s[1], s[2]), reverse=True):
            move: Move = {"type": "discard", "card": card}
            if free or _accepted(state, player, move):  # any unreserved card may go when nothing is owed
                return move
        moves = legal_moves(state, player)
        return moves[0]


def _opening(state: RoundState, player: str) -> Move | None:
    """The several-meld move (an opening judged as a whole) that places the most, if one is legal."""
    rules = state.rules
    best: tuple[int, int, Move] | None = None
    for move in legal_moves(state, player):
        if move["type"] != "meld" or "melds" not in move:
            continue
        cards = [c for group in move["melds"] for c in group]
        key = (len(cards), sum(hand_value(c, rules) for c in cards))
        if best is None or key > best[:2]:
            best = (*key, move)
    return None if best is None else best[2]


def _arrange(hand: Sequence[str], state: RoundState, *, reserved: Sequence[str]) -> Arrangement:
    """The solver's best arrangement keeping a discardable card when the rules require a final discard."""
    rules = state.rules
    if not rules.final_discard_required:
        return best_arrangement(hand, rules)
    blocked = Counter(reserved)
    discardable = {c for c in hand if not blocked[c]}
    if not discardable:
        return best_arrangement(hand, rules)
    return best_arrangement(hand, rules, leave_one=True, discardable=discardable)


def _worth(arr: Arrangement, placed_weight: int) -> int:
    return placed_weight * arr.placed - arr.penalty


def _can_lay_off(card: str, state: RoundState) -> bool:
    return any(card in single_extensions(m.cards, state.rules) for m in state.melds)


def _may_meld(card: str, cards: Sequence[str]) -> bool:
    """A cheap necessary condition for ``card`` to share a meld with some of ``cards`` (one copy of it
    included): a joker, another card of its rank, or one of its suit at most two ranks away, counting
    around the ace so that Q-K-A is seen."""
    if card == JOKER:
        return True
    rank, suit = rank_char(card), suit_of(card)
    r = RANKS.index(rank)
    seen_self = False
    for c in cards:
        if c == card and not seen_self:
            seen_self = True
            continue
        if c == JOKER or rank_char(c) == rank:
            return True
        if (
            suit_of(c) == suit
            and min((RANKS.index(rank_char(c)) - r) % 13, (r - RANKS.index(rank_char(c))) % 13) <= 2
        ):
            return True
    return False


def _neighbours(card: str, rest: Sequence[str]) -> int:
    """Cards that could one day share a meld with ``card``: same rank, or same suit within two ranks."""
    if card == JOKER:
        return len(rest)
    rank, suit = rank_char(card), suit_of(card)
    r = RANKS.index(rank)
    count = 0
    for c in rest:
        if (
            c == JOKER
            or rank_char(c) == rank
            or (suit_of(c) == suit and 0 < abs(RANKS.index(rank_char(c)) - r) <= 2)
        ):
            count += 1
    return count


def _accepted(state: RoundState, player: str, move: Move) -> bool:
    try:
        apply_move(state, player, move)
    except IllegalMove:
        return False
    return True


_GREEDY = GreedyBot()


def greedy_move(state: RoundState, player: str) -> Move:
    """The greedy bot's next move for ``player``."""
    return _GREEDY.choose(state, player)


# ====================================================================== driving a round


def play_round(state: RoundState, bots: Mapping[str, Bot], *, max_moves: int = 5000) -> RoundState:
    """Play ``state`` to its end, each player moved by ``bots[player]``; claim windows close when all acted.

    ``RuntimeError`` if the round has not ended after ``max_moves`` moves (a bot or engine bug).
    """
    for _ in range(max_moves):
        if state.phase == "over":
            return state
        acting = state.may_act
        if not acting:
            state = close_claims(state)
            continue
        player = acting[0]
        state = apply_move(state, player, bots[player].choose(state, player))
    if state.phase == "over":
        return state
    raise RuntimeError(f"The round did not end within {max_moves} moves.")
