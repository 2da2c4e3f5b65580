"""The referee: dealing, the turn state machine, legality, scoring, claims, replay.

Pure functions over immutable ``RoundState`` values. Every rule that refuses a move raises
``IllegalMove`` with a stable code (docs/rules.md lists them); the input state is never changed.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import (
    JOKER,
    JOKER_PREFIX,
    RANKS,
    CardError,
    build_deck,
    card_sort_key,
    hand_value,
    is_joker,
    natural_of,
    parse_card,
    rank_of,
    sort_cards,
    suit_of,
)
from .errors import IllegalMove
from .melds import (
    MeldError,
    card_values,
    enumerate_lay_offs,
    enumerate_melds,
    joker_slots,
    lay_off,
    read_meld,
    single_extensions,
)
from .rules import Ruleset
from .state import Claim, Claims, Meld, RoundState, make_result

MOVE_TYPES = ("draw", "meld", "lay_off", "swap_joker", "discard", "end_round", "call_rummy", "pass_claim")
_FIELDS: dict[str, frozenset[str]] = {
    "draw": frozenset({"type", "source", "card", "index"}),
    "meld": frozenset({"type", "cards", "melds"}),
    "lay_off": frozenset({"type", "meld", "cards"}),
    "swap_joker": frozenset({"type", "meld", "card"}),
    "discard": frozenset({"type", "card"}),
    "end_round": frozenset({"type"}),
    "call_rummy": frozenset({"type", "card", "index", "meld"}),
    "pass_claim": frozenset({"type"}),
}
# Depth of the search that proves a turn can still be completed (obligations are met one placement each).
_FEASIBILITY_DEPTH = 3


# ====================================================================== deal and commitment


def deal_commitment(deck: Sequence[str], salt: str) -> str:
    """Lower-case hex SHA-256 of the UTF-8 text ``salt + "|" + ",".join(deck)`` (deck top first).

    docs/rules.md states this formula so that a client can check a revealed deal on its own.
    """
    return hashlib.sha256(f"{salt}|{','.join(deck)}".encode()).hexdigest()


def verify_deal(commitment: str, deck: Sequence[str], salt: str) -> bool:
    """True when ``deck`` (top first) and ``salt`` are those the round committed to; False for junk."""
    if not isinstance(commitment, str) or not isinstance(salt, str):
        return False
    cards = list(deck)
    if not all(isinstance(c, str) for c in cards):
        return False
    expected = deal_commitment(cards, salt)
    return secrets.compare_digest(commitment.encode("utf-8"), expected.encode("ascii"))


def full_deck(rules: Ruleset, n_players: int) -> tuple[str, ...]:
    """The unshuffled deck a round with ``n_players`` uses."""
    return build_deck(rules.deck_count(n_players), rules.jokers(n_players))


def new_round(
    rules: Ruleset,
    players: Sequence[str],
    dealer: int = 0,
    round_number: int = 1,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    *,
    salt: str | None = None,
) -> RoundState:
    """Shuffle (CSPRNG unless ``seed``), commit to the deck, deal, and start the first turn.

    ``deck`` stacks the deck (tests): every card, top first. Cards go one at a time clockwise from the
    dealer's left; then one card starts the discard pile; the rest is the stock.
    """
    players = tuple(players)
    n = len(players)
    if not all(isinstance(p, str) and p for p in players) or len(set(players)) != n:
        raise ValueError("players must be distinct non-empty strings.")
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {n}.")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat index 0..{n - 1}.")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise ValueError("round_number must be a positive integer.")
    base = full_deck(rules, n)
    if deck is not None:
        try:
            order = tuple(parse_card(c) for c in deck)
        except CardError as exc:
            raise ValueError(f"Stacked deck: {exc}") from None
        if sorted(order) != sorted(base):
            raise ValueError(f"A stacked deck must hold exactly the {len(base)} cards of this game.")
    else:
        shuffled = list(base)
        (random.Random(seed) if seed is not None else secrets.SystemRandom()).shuffle(shuffled)
        order = tuple(shuffled)
    if salt is None:
        salt = (
            f"{random.Random(f'salt:{seed}').getrandbits(128):032x}"
            if seed is not None
            else secrets.token_hex(16)
        )
    each = rules.cards_each(n)
    if n * each + (1 if rules.up_card else 0) > len(order):
        raise ValueError("Not enough cards for this many players.")
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(n * each):
        hands[(dealer + 1 + i) % n].append(order[i])
    pos = n * each
    discard: tuple[str, ...] = ()
    if rules.up_card:
        discard = (order[pos],)
        pos += 1
    return RoundState(
        rules=rules,
        players=players,
        dealer=dealer,
        round_number=round_number,
        version=0,
        phase="draw",
        turn=(dealer + 1) % n,
        hands=tuple(sort_cards(h) for h in hands),
        stock=order[pos:],
        discard=discard,
        melds=(),
        deck=order,
        salt=salt,
        commitment=deal_commitment(order, salt),
    )


# ====================================================================== hand multisets


def _remove(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...] | None:
    """``hand`` without ``cards`` (placed jokers count as ``JK``), or None when one is missing."""
    rest = list(hand)
    for c in cards:
        k = JOKER if is_joker(c) else c
        try:
            rest.remove(k)
        except ValueError:
            return None
    return tuple(rest)


def _add(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...]:
    return sort_cards([*hand, *(JOKER if is_joker(c) else c for c in cards)])


# ====================================================================== obligations and feasibility


@dataclass(frozen=True)
class _Turn:
    """The part of the state the turn-completion search changes."""

    hand: tuple[str, ...]
    melds: tuple[Meld, ...]
    must_use: str | None
    reserved: tuple[str, ...]
    jokers_to_meld: int


def _placed(t: _Turn, cards: Sequence[str]) -> tuple[str | None, tuple[str, ...], int]:
    """Obligations after ``cards`` (as placed) leave the hand."""
    must_use, reserved, jtm = t.must_use, list(t.reserved), t.jokers_to_meld
    for c in cards:
        k = JOKER if is_joker(c) else c
        if must_use == k:
            must_use = None
        if k == JOKER and jtm:
            jtm -= 1
        if k in reserved:
            reserved.remove(k)
    return must_use, tuple(reserved), jtm


def _can_end(t: _Turn, rules: Ruleset) -> bool:
    if t.must_use is not None or t.jokers_to_meld:
        return False
    if not t.hand:
        return not rules.final_discard_required
    return any(c not in t.reserved for c in t.hand)


def _focus(hand: Sequence[str], card: str) -> list[str]:
    """The hand cards that can share a meld with ``card``: same rank, same suit, jokers."""
    if card == JOKER:
        return list(hand)
    r, s = card[0], card[1]
    return [c for c in hand if c == JOKER or c[0] == r or c[1] == s]


def _may_hold(meld: Sequence[str], card: str) -> bool:
    """Whether ``card`` could ever join ``meld``: a set of its rank or a run of its suit."""
    first = natural_of(meld[0])
    second = natural_of(meld[1])
    if first[0] == second[0]:
        return first[0] == card[0]
    return first[1] == card[1]


@dataclass(frozen=True)
class _Placement:
    """A placement found by the search: the cards it took from hand, the meld it changed, the result."""

    placed: tuple[str, ...]
    meld_index: int | None  # None: a new meld
    swap: bool
    after: _Turn


def _placements_with(t: _Turn, card: str, rules: Ruleset) -> Iterable[_Placement]:
    """Every single meld, lay-off or swap that places ``card`` (``JK``: any joker), applied."""
    focus = _focus(t.hand, card)

    def has(cards: Sequence[str]) -> bool:
        return any(c.startswith(JOKER_PREFIX) for c in cards) if card == JOKER else card in cards

    for m in enumerate_melds(focus, rules, min_natural=rules.min_natural, containing=card):
        if has(m):
            rest = _remove(t.hand, m)
            if rest is not None:
                mu, res, jtm = _placed(t, m)
                new = Meld(f"m{len(t.melds) + 1}", "", m, ("",) * len(m))
                yield _Placement(m, None, False, _Turn(rest, (*t.melds, new), mu, res, jtm))
    for i, meld in enumerate(t.melds):
        if card != JOKER and not _may_hold(meld.cards, card):
            continue
        for added, cards in enumerate_lay_offs(focus, meld.cards, rules):
            if has(added):
                rest = _remove(t.hand, added)
                if rest is not None:
                    mu, res, jtm = _placed(t, added)
                    melds = list(t.melds)
                    melds[i] = Meld(meld.id, meld.owner, cards, ("",) * len(cards))
                    yield _Placement(added, i, False, _Turn(rest, tuple(melds), mu, res, jtm))
    if rules.joker_swap and card != JOKER and card in t.hand:
        for i, meld in enumerate(t.melds):
            for idx, nat in joker_slots(meld.cards):
                if nat == card:
                    rest = _remove(t.hand, [card])
                    assert rest is not None
                    mu, res, jtm = _placed(t, [card])
                    swapped = (*meld.cards[:idx], card, *meld.cards[idx + 1 :])
                    melds = list(t.melds)
                    melds[i] = Meld(meld.id, meld.owner, swapped, meld.placers)
                    extra = 1 if rules.swapped_joker_must_be_melded else 0
                    after = _Turn(_add(rest, [JOKER]), tuple(melds), mu, (*res, JOKER), jtm + extra)
                    yield _Placement((card,), i, True, after)


def _feasible(t: _Turn, rules: Ruleset, depth: int = _FEASIBILITY_DEPTH) -> bool:
    """Whether the turn can still be completed: obligations met and a legal ending left."""
    if _can_end(t, rules):
        return True
    if depth == 0:
        return False
    targets: list[str] = []
    if t.must_use is not None:
        targets.append(t.must_use)
    if t.jokers_to_meld:
        targets.append(JOKER)
    if not targets:
        if rules.final_discard_required or not t.hand:
            return False
        targets = sorted(set(t.reserved) & set(t.hand))  # going out by placing what may not be discarded
    for target in targets:
        for placement in _placements_with(t, target, rules):
            nxt = placement.after
            if rules.final_discard_required and not nxt.hand:
                continue
            if _feasible(nxt, rules, depth - 1):
                return True
    return False


def _turn_of(state: RoundState) -> _Turn:
    return _Turn(state.hands[state.turn], state.melds, state.must_use, state.reserved, state.jokers_to_meld)


# ====================================================================== parsing helpers


def _card(value: object, *, placed: bool = False) -> str:
    try:
        return parse_card(value, allow_placed_joker=placed)
    except CardError as exc:
        raise IllegalMove(exc.code, exc.message) from None


def _card_list(value: object, *, placed: bool = True) -> list[str]:
    if not isinstance(value, list | tuple) or not value:
        raise IllegalMove("move.malformed", "Expected a non-empty list of cards.")
    return [_card(v, placed=placed) for v in value]


def _int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove("move.malformed", f"{name} must be an integer.")
    return value


def _meld_index(state: RoundState, value: object, code: str) -> int:
    if not isinstance(value, str):
        raise IllegalMove("move.malformed", "meld must be a meld id such as 'm1'.")
    for i, m in enumerate(state.melds):
        if m.id == value:
            return i
    raise IllegalMove(code, f"There is no meld {value!r} on the table.")


def _pile_index(pile: Sequence[str], card: object, index: object, code_prefix: str) -> int:
    """The pile position a draw or call names (``card`` and/or ``index``; 0 = bottom)."""
    missing, mismatch, required = (
        ("claims.card_not_in_pile", "claims.index_mismatch", "claims.index_required")
        if code_prefix == "claims"
        else ("draw.card_not_in_pile", "draw.index_mismatch", "draw.index_required")
    )
    if not pile:
        raise IllegalMove("draw.pile_empty", "The discard pile is empty.")
    name = _card(card) if card is not None else None
    if index is not None:
        i = _int(index, "index")
        if not 0 <= i < len(pile):
            raise IllegalMove(missing, f"The pile has no card at index {i}.")
        if name is not None and pile[i] != name:
            raise IllegalMove(mismatch, f"The card at index {i} is {pile[i]}, not {name}.")
        return i
    if name is None:
        return len(pile) - 1
    where = [i for i, c in enumerate(pile) if c == name]
    if not where:
        raise IllegalMove(missing, f"{name} is not in the discard pile.")
    if len(where) > 1:
        raise IllegalMove(required, f"The pile holds {name} twice: give its index.")
    return where[0]


# ====================================================================== apply_move


def apply_move(state: RoundState, player: str, move: Mapping[str, Any]) -> RoundState:
    """The state after ``player`` makes ``move``; ``IllegalMove`` (state unchanged) when not allowed."""
    if not isinstance(move, Mapping):
        raise IllegalMove("move.malformed", "A move is a JSON object with a 'type'.")
    mtype = move.get("type")
    if not isinstance(mtype, str) or mtype not in MOVE_TYPES:
        raise IllegalMove(
            "move.unknown_type", f"Unknown move type {mtype!r}; types: {', '.join(MOVE_TYPES)}."
        )
    extra = set(move) - _FIELDS[mtype]
    if extra:
        raise IllegalMove(
            "move.malformed", f"Unexpected fields for {mtype}: {', '.join(sorted(map(str, extra)))}."
        )
    if not isinstance(player, str) or player not in state.players:
        raise IllegalMove("turn.unknown_player", f"{player!r} does not play in this round.")
    if state.phase == "over":
        raise IllegalMove("round.over", "The round is over.")
    if state.phase == "claims":
        if mtype not in ("call_rummy", "pass_claim"):
            raise IllegalMove("claims.window_open", "A 'Rummy!' claim window is open: wait for it to close.")
        new, logged = _claim(state, player, mtype, move)
    else:
        if mtype in ("call_rummy", "pass_claim"):
            raise IllegalMove("claims.no_window", "No 'Rummy!' claim window is open.")
        if player != state.players[state.turn]:
            raise IllegalMove("turn.not_your_turn", f"It is {state.players[state.turn]}'s turn.")
        if state.phase == "draw":
            if mtype == "draw":
                new, logged = _draw(state, move)
            elif mtype == "end_round":
                new, logged = _end_round(state)
            else:
                raise IllegalMove("turn.draw_first", "Draw a card first.")
        else:
            if mtype == "draw":
                raise IllegalMove("turn.already_drawn", "You have already drawn this turn.")
            if mtype == "end_round":
                raise IllegalMove("end_round.not_allowed", "The round can be ended only instead of a draw.")
            if mtype == "meld":
                new, logged = _meld(state, move)
            elif mtype == "lay_off":
                new, logged = _lay_off(state, move)
            elif mtype == "swap_joker":
                new, logged = _swap(state, move)
            else:
                new, logged = _discard(state, move)
    entry = (player, json.dumps(logged, sort_keys=True, separators=(",", ":")))
    return replace(new, version=state.version + 1, log=(*state.log, entry))


# ---------------------------------------------------------------------- draw


def _draw_obligation(state: RoundState, index: int) -> bool:
    """Whether drawing pile card ``index`` obliges the player to use it this turn."""
    deep = index < len(state.discard) - 1
    return deep or state.rules.top_discard_must_be_used or not state.stock


def _could_use(hand: Sequence[str], melds: Sequence[Meld], card: str) -> bool:
    """A cheap necessary condition for placing ``card``: a partner in hand or a meld that could take it."""
    if card == JOKER:
        return True
    jokers = hand.count(JOKER)
    held = set(hand)
    for m in melds:
        if _may_hold(m.cards, card) and _could_join(m.cards, card, held, jokers):
            return True
    rank, suit = rank_of(card), card[1]
    for c in hand:
        if c in (JOKER, card):
            continue
        if c[0] == card[0]:
            return True
        if c[1] == suit and min((rank_of(c) - rank) % 13, (rank - rank_of(c)) % 13) <= 1 + jokers:
            return True
    return False


def _could_join(meld: Sequence[str], card: str, held: set[str], jokers: int) -> bool:
    """Necessary condition for ``card`` to be laid off (or swapped in) on ``meld`` of its rank/suit."""
    if any(c.startswith(JOKER_PREFIX) and c[3:] == card for c in meld):
        return True  # a swap
    if natural_of(meld[0])[0] == natural_of(meld[1])[0]:
        return all(natural_of(c) != card for c in meld)
    suit = card[1]
    for step, end in ((1, rank_of(meld[-1])), (-1, rank_of(meld[0]))):
        missing, pos = 0, end
        for _ in range(12):
            pos = (pos + step - 1) % 13 + 1
            if RANKS[pos - 1] + suit == card:
                return True
            if RANKS[pos - 1] + suit not in held:
                missing += 1
                if missing > jokers:
                    break
    return False


def _pile_draw_ok(state: RoundState, index: int) -> bool:
    """Whether drawing pile card ``index`` leaves a turn that can be completed (RULES §1)."""
    chosen = state.discard[index]
    hand = _add(state.hands[state.turn], state.discard[index:])
    if not _draw_obligation(state, index):
        # a kept top card is never discardable this turn: a hand holding only copies of it (a lone
        # joker taking a joker) could end the turn neither by a discard nor by a placement
        return _feasible(_Turn(hand, state.melds, None, (chosen,), 0), state.rules)
    if not _could_use(hand, state.melds, chosen):
        return False
    return _feasible(_Turn(hand, state.melds, chosen, (chosen,), 0), state.rules)


def _draw(state: RoundState, move: Mapping[str, Any]) -> tuple[RoundState, dict[str, Any]]:
    source = move.get("source")
    hand = state.hands[state.turn]
    if source == "stock":
        if "card" in move or "index" in move:
            raise IllegalMove("move.malformed", "A stock draw names no card.")
        if not state.stock:
            raise IllegalMove("draw.stock_empty", "The stock is empty.")
        new = _set_hand(state, state.turn, _add(hand, state.stock[:1]))
        return (
            replace(
                new,
                stock=state.stock[1:],
                phase="play",
                progress=True,
                must_use=None,
                reserved=(),
                chosen=None,
            ),
            {"type": "draw", "source": "stock"},
        )
    if source != "discard":
        raise IllegalMove("move.malformed", "source must be 'stock' or 'discard'.")
    i = _pile_index(state.discard, move.get("card"), move.get("index"), "draw")
    chosen = state.discard[i]
    must = chosen if _draw_obligation(state, i) else None
    if not _pile_draw_ok(state, i):
        if must is None:
            raise IllegalMove(
                "turn.cannot_complete",
                f"After taking {chosen} the turn could not be completed: it may not be discarded this turn"
                " and no other card could be.",
            )
        raise IllegalMove(
            "draw.discard_card_must_be_used",
            f"{chosen} may be taken only if it can be melded, laid off or swapped this turn"
            " with a card left to discard.",
        )
    new = _set_hand(state, state.turn, _add(hand, state.discard[i:]))
    return (
        replace(
            new, discard=state.discard[:i], phase="play", must_use=must, reserved=(chosen,), chosen=chosen
        ),
        {"type": "draw", "source": "discard", "card": chosen, "index": i},
    )


def _end_round(state: RoundState) -> tuple[RoundState, dict[str, Any]]:
    if state.stock or state.rules.stock_exhaustion != "pile_only":
        raise IllegalMove("end_round.not_allowed", "The round can be ended only when the stock is empty.")
    return _finish(state, "end_round", None), {"type": "end_round"}


# ---------------------------------------------------------------------- placements


def _set_hand(state: RoundState, seat: int, hand: tuple[str, ...]) -> RoundState:
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands))


def _take_from_hand(state: RoundState, cards: Sequence[str]) -> tuple[str, ...]:
    rest = _remove(state.hands[state.turn], cards)
    if rest is None:
        raise IllegalMove("hand.missing_card", f"You do not hold {' '.join(natural_of(c) for c in cards)}.")
    return rest


def _after_placement(
    state: RoundState, placed: Sequence[str], hand: tuple[str, ...], melds: tuple[Meld, ...]
) -> RoundState:
    """Apply a placement's bookkeeping and the turn-completion invariant; end the round on going out."""
    t = _turn_of(state)
    mu, res, jtm = _placed(t, placed)
    after = _Turn(hand, melds, mu, res, jtm)
    if not hand and state.rules.final_discard_required:
        raise IllegalMove(
            "play.final_discard_required",
            "Keep a card: the last card must be discarded (final_discard_required).",
        )
    if not _feasible(after, state.rules):
        raise IllegalMove(
            "turn.cannot_complete",
            "After this move the turn could not be completed (an obligation could not be met or no card"
            " could be discarded).",
        )
    new = replace(
        _set_hand(state, state.turn, hand),
        melds=melds,
        must_use=mu,
        reserved=res,
        jokers_to_meld=jtm,
        progress=True,
    )
    if not hand:
        return _finish(new, "out", state.turn)
    return new


def _parse_meld_cards(value: object) -> list[str]:
    return _card_list(value, placed=True)


def _meld(state: RoundState, move: Mapping[str, Any]) -> tuple[RoundState, dict[str, Any]]:
    if ("cards" in move) == ("melds" in move):
        raise IllegalMove("move.malformed", "A meld move has 'cards' (one meld) or 'melds' (several).")
    groups: list[list[str]]
    if "cards" in move:
        groups = [_parse_meld_cards(move["cards"])]
    else:
        raw = move["melds"]
        if not isinstance(raw, list | tuple) or not raw:
            raise IllegalMove("move.malformed", "melds must be a non-empty list of card lists.")
        groups = [_parse_meld_cards(g) for g in raw]
    player = state.players[state.turn]
    melds = list(state.melds)
    canon: list[tuple[str, ...]] = []
    placed: list[str] = []
    for g in groups:
        try:
            m = read_meld(g, state.rules, min_natural=state.rules.min_natural)
        except MeldError as exc:
            raise IllegalMove(exc.code, exc.message) from None
        canon.append(m)
        placed.extend(m)
        melds.append(Meld(f"m{len(melds) + 1}", player, m, (player,) * len(m)))
    hand = _take_from_hand(state, placed)
    new = _after_placement(state, placed, hand, tuple(melds))
    logged: dict[str, Any] = (
        {"type": "meld", "cards": list(canon[0])}
        if "cards" in move
        else {"type": "meld", "melds": [list(m) for m in canon]}
    )
    return new, logged


def _placers_after(old: Meld, cards: tuple[str, ...], player: str) -> tuple[str, ...]:
    """Placers of a meld after a lay-off: old cards keep theirs, new ones are the builder's."""
    if (
        len(old.cards)
        and all(natural_of(c)[0] == natural_of(old.cards[0])[0] for c in old.cards)
        and all(natural_of(c)[0] == natural_of(old.cards[0])[0] for c in cards)
    ):
        by_suit = {suit_of(c): p for c, p in zip(old.cards, old.placers, strict=True)}
        return tuple(by_suit.get(suit_of(c), player) for c in cards)
    n = len(old.cards)
    for i in range(len(cards) - n + 1):
        if cards[i : i + n] == old.cards:
            return (player,) * i + old.placers + (player,) * (len(cards) - n - i)
    raise AssertionError("lay-off lost the original run")


def _lay_off(state: RoundState, move: Mapping[str, Any]) -> tuple[RoundState, dict[str, Any]]:
    i = _meld_index(state, move.get("meld"), "layoff.unknown_meld")
    added = _card_list(move.get("cards"), placed=True)
    old = state.melds[i]
    try:
        cards = lay_off(old.cards, added, state.rules)
    except MeldError as exc:
        raise IllegalMove(exc.code, exc.message) from None
    player = state.players[state.turn]
    placed = _new_cards(old.cards, cards)
    if not placed:
        raise IllegalMove("layoff.invalid", "A lay-off adds at least one card to the meld.")
    hand = _take_from_hand(state, placed)
    melds = list(state.melds)
    melds[i] = Meld(old.id, old.owner, cards, _placers_after(old, cards, player))
    new = _after_placement(state, placed, hand, tuple(melds))
    return new, {"type": "lay_off", "meld": old.id, "cards": list(placed)}


def _new_cards(old: Sequence[str], new: Sequence[str]) -> list[str]:
    rest = list(new)
    for c in old:
        rest.remove(c)
    return rest


def _swap(state: RoundState, move: Mapping[str, Any]) -> tuple[RoundState, dict[str, Any]]:
    if not state.rules.joker_swap:
        raise IllegalMove("swap.not_allowed", "Joker swaps are off at this table.")
    i = _meld_index(state, move.get("meld"), "swap.unknown_meld")
    card = _card(move.get("card"))
    if card == JOKER:
        raise IllegalMove("swap.no_such_joker", "Name the natural card the joker stands for.")
    meld = state.melds[i]
    slot = next((idx for idx, nat in joker_slots(meld.cards) if nat == card), None)
    if slot is None:
        raise IllegalMove("swap.no_such_joker", f"No joker in {meld.id} stands for {card}.")
    hand = _take_from_hand(state, [card])
    cards = list(meld.cards)
    cards[slot] = card
    melds = list(state.melds)
    melds[i] = Meld(meld.id, meld.owner, tuple(cards), meld.placers)
    t = _turn_of(state)
    mu, res, jtm = _placed(t, [card])
    res = (*res, JOKER)
    if state.rules.swapped_joker_must_be_melded:
        jtm += 1
    hand = _add(hand, [JOKER])
    after = _Turn(hand, tuple(melds), mu, res, jtm)
    if not _feasible(after, state.rules):
        raise IllegalMove("turn.cannot_complete", "After this swap the turn could not be completed.")
    new = replace(
        _set_hand(state, state.turn, hand),
        melds=tuple(melds),
        must_use=mu,
        reserved=res,
        jokers_to_meld=jtm,
        progress=True,
    )
    return new, {"type": "swap_joker", "meld": meld.id, "card": card}


# ---------------------------------------------------------------------- discard and turn end


def _discard(state: RoundState, move: Mapping[str, Any]) -> tuple[RoundState, dict[str, Any]]:
    card = _card(move.get("card"))
    hand = state.hands[state.turn]
    if card not in hand:
        raise IllegalMove("hand.missing_card", f"You do not hold {card}.")
    if state.must_use is not None:
        raise IllegalMove(
            "discard.chosen_card_unused",
            f"First use {state.must_use}, the card chosen from the discard pile.",
        )
    if state.jokers_to_meld:
        raise IllegalMove("discard.joker_not_melded", "First place the joker taken in a swap.")
    if card in state.reserved:
        code = "discard.chosen_card" if card == state.chosen else "discard.retrieved_joker"
        raise IllegalMove(code, f"{card} may not be discarded this turn.")
    rest = _remove(hand, [card])
    assert rest is not None
    new = replace(_set_hand(state, state.turn, rest), discard=(*state.discard, card))
    return _end_turn(new, went_out=not rest), {"type": "discard", "card": card}


def _end_turn(state: RoundState, *, went_out: bool) -> RoundState:
    n = len(state.players)
    if went_out:
        return _finish(state, "out", state.turn)
    stall = 0 if state.progress else state.stall + 1
    state = replace(state, stall=stall)
    if stall >= state.rules.stall_limit(n):
        return _finish(state, "stall", None)
    if not state.stock and state.rules.stock_exhaustion == "end":
        return _finish(state, "stock", None)
    discarder = state.players[state.turn]
    nxt = (state.turn + 1) % n
    state = replace(
        state,
        turn=nxt,
        phase="draw",
        must_use=None,
        reserved=(),
        jokers_to_meld=0,
        progress=False,
        chosen=None,
    )
    if state.rules.rummy_calls and _callable_cards(state):
        eligible = tuple(state.players[(state.players.index(discarder) + k) % n] for k in range(1, n))
        return replace(state, phase="claims", claims=Claims(discarder=discarder, eligible=eligible))
    return _start_turn(state)


def _start_turn(state: RoundState) -> RoundState:
    """At the start of a turn: 001's rule ends the round when an empty stock leaves nothing usable."""
    if state.stock or state.rules.stock_exhaustion != "pile_only":
        return state
    if any(_pile_draw_ok(state, i) for i in range(len(state.discard))):
        return state
    return _finish(state, "stock", None)


# ---------------------------------------------------------------------- "Rummy!" claims


def _callable_indices(state: RoundState) -> list[int]:
    if not state.discard:
        return []
    top = len(state.discard) - 1
    return list(range(len(state.discard))) if state.rules.rummy_in_the_pile else [top]


def _extensions(state: RoundState) -> list[tuple[Meld, frozenset[str]]]:
    return [(m, single_extensions(m.cards, state.rules)) for m in state.melds]


def _callable_cards(state: RoundState) -> list[tuple[int, str]]:
    """(pile index, meld id) pairs a "Rummy!" call could name now."""
    ext = _extensions(state)
    out = []
    for i in _callable_indices(state):
        card = state.discard[i]
        if card == JOKER:
            continue
        for m, cards in ext:
            if card in cards:
                out.append((i, m.id))
    return out


def _claim(
    state: RoundState, player: str, mtype: str, move: Mapping[str, Any]
) -> tuple[RoundState, dict[str, Any]]:
    claims = state.claims
    assert claims is not None
    if player not in claims.eligible:
        raise IllegalMove("claims.not_eligible", "The discarder may not call 'Rummy!' on their own discard.")
    if player in claims.acted:
        raise IllegalMove("claims.already_acted", "You have already called or passed in this window.")
    if mtype == "pass_claim":
        answer = Claim(player)
        logged: dict[str, Any] = {"type": "pass_claim"}
    else:
        i = _pile_index(state.discard, move.get("card"), move.get("index"), "claims")
        card = state.discard[i]
        if i != len(state.discard) - 1 and not state.rules.rummy_in_the_pile:
            raise IllegalMove("claims.not_top_card", "Only the top card of the pile can be called.")
        if card == JOKER:
            raise IllegalMove("claims.joker", "A joker cannot be called.")
        mi = _meld_index(state, move.get("meld"), "claims.unknown_meld")
        if card not in single_extensions(state.melds[mi].cards, state.rules):
            raise IllegalMove("claims.invalid_call", f"{card} cannot be laid off on {state.melds[mi].id}.")
        answer = Claim(player, card, i, state.melds[mi].id)
        logged = {"type": "call_rummy", "card": card, "index": i, "meld": state.melds[mi].id}
    claims = replace(claims, answers=(*claims.answers, answer))
    new = replace(state, claims=claims)
    if len(claims.answers) == len(claims.eligible):
        new = _resolve_claims(new)
    return new, logged


def close_claims(state: RoundState) -> RoundState:
    """End an open "Rummy!" window (the server's deadline); the same state when none is open."""
    if state.phase != "claims" or state.claims is None:
        return state
    entry = ("", '{"type":"close_claims"}')  # logged so that replay closes the window at the same point
    return replace(_resolve_claims(state), version=state.version + 1, log=(*state.log, entry))


def _resolve_claims(state: RoundState) -> RoundState:
    claims = state.claims
    assert claims is not None
    calls = {a.player: a for a in claims.answers if a.card is not None}
    state = replace(state, claims=None, phase="draw")
    winner = next((calls[p] for p in claims.eligible if p in calls), None)
    if winner is None:
        return _start_turn(state)
    assert winner.index is not None and winner.card is not None
    seat = state.players.index(winner.player)
    taken = state.discard[winner.index :]
    mi = next(i for i, m in enumerate(state.melds) if m.id == winner.meld)
    old = state.melds[mi]
    cards = lay_off(old.cards, [winner.card], state.rules)
    melds = list(state.melds)
    melds[mi] = Meld(old.id, old.owner, cards, _placers_after(old, cards, winner.player))
    hand = _add(state.hands[seat], taken[1:])
    state = replace(
        _set_hand(state, seat, hand), discard=state.discard[: winner.index], melds=tuple(melds), stall=0
    )
    return _start_turn(state)


# ====================================================================== scoring


def _finish(state: RoundState, reason: str, out_seat: int | None) -> RoundState:
    rules = state.rules
    placed: dict[str, list[str]] = {p: [] for p in state.players}
    placed_value = dict.fromkeys(state.players, 0)
    for m in state.melds:
        for c, p, v in zip(m.cards, m.placers, card_values(m.cards, rules), strict=True):
            placed[p].append(c)
            placed_value[p] += v
    per_player: dict[str, Any] = {}
    scores: dict[str, int] = {}
    for seat, p in enumerate(state.players):
        hand = state.hands[seat]
        hv = sum(hand_value(c, rules) for c in hand)
        scores[p] = placed_value[p] - hv
        per_player[p] = {
            "placed": sorted(placed[p], key=card_sort_key),
            "placed_value": placed_value[p],
            "hand": list(hand),
            "hand_value": hv,
        }
    details = {
        "reason": reason,
        "went_out": state.players[out_seat] if out_seat is not None else None,
        "players": per_player,
    }
    result = make_result(
        scores=scores,
        game_points=scores,
        bonuses=(),
        details=details,
        redeal=False,
        deck=state.deck,
        salt=state.salt,
    )
    return replace(
        state, phase="over", result=result, claims=None, must_use=None, reserved=(), jokers_to_meld=0
    )


# ====================================================================== legal moves


def legal_moves(state: RoundState, player: str) -> list[dict[str, Any]]:
    """Every legal move of ``player`` now, each once, canonical; [] when the player may not act."""
    if player not in state.may_act:
        return []
    if state.phase == "claims":
        moves: list[dict[str, Any]] = [{"type": "pass_claim"}]
        for i, mid in _callable_cards(state):
            moves.append({"type": "call_rummy", "card": state.discard[i], "index": i, "meld": mid})
        return moves
    if state.phase == "draw":
        return _draw_moves(state)
    return _play_moves(state)


def _draw_moves(state: RoundState) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    if state.stock:
        moves.append({"type": "draw", "source": "stock"})
    for i, c in enumerate(state.discard):
        if _pile_draw_ok(state, i):
            moves.append({"type": "draw", "source": "discard", "card": c, "index": i})
    if not state.stock and state.rules.stock_exhaustion == "pile_only":
        moves.append({"type": "end_round"})
    return moves


def _play_moves(state: RoundState) -> list[dict[str, Any]]:
    rules = state.rules
    t = _turn_of(state)
    hand = t.hand
    moves: list[dict[str, Any]] = []
    # With one pending obligation, most candidates leave some way of meeting it untouched: the
    # placements that meet it now ("witnesses") are found once and reused, so the full search runs
    # only for candidates that collide with every witness.
    witnesses: list[_Placement] = []
    if (t.must_use is None) != (t.jokers_to_meld == 0):
        target = t.must_use if t.must_use is not None else JOKER
        witnesses = [
            w
            for w in _placements_with(t, target, rules)
            if not (w.swap and rules.swapped_joker_must_be_melded) and not w.after.jokers_to_meld
        ]
    hand_count = Counter(hand)
    witness_counts: list[tuple[_Placement, Counter[str]]] = []
    for w in sorted(witnesses, key=lambda w: len(w.placed)):
        wcount = Counter(JOKER if is_joker(c) else c for c in w.placed)
        # a witness using a superset of another's cards (same meld, same kind) adds nothing
        if not any(
            k.meld_index == w.meld_index
            and k.swap == w.swap
            and all(wcount[c] >= n for c, n in kcount.items())
            for k, kcount in witness_counts
        ):
            witness_counts.append((w, wcount))

    def witnessed(placed: Sequence[str], touched: int | None, swap: bool) -> bool:
        used = Counter(JOKER if is_joker(c) else c for c in placed)
        for w, wcount in witness_counts:
            if touched is not None and w.meld_index == touched:
                continue
            if any(used[k] + v > hand_count[k] for k, v in wcount.items()):
                continue
            left = hand_count - used - wcount
            if swap:
                left[JOKER] += 1
            if w.swap:
                left[JOKER] += 1
            mu, res, jtm = _placed(t, [*placed, *w.placed])
            res = (*res, *([JOKER] if swap else []), *([JOKER] if w.swap else []))
            if _can_end(_Turn(tuple(left.elements()), (), mu, res, jtm), rules):
                return True
        return False

    def ok(
        placed: Sequence[str],
        rest: tuple[str, ...] | None,
        melds: tuple[Meld, ...],
        swap: bool = False,
        touched: int | None = None,
    ) -> bool:
        if rest is None:
            return False
        if rules.final_discard_required and not rest:
            return False
        mu, res, jtm = _placed(t, placed)
        if swap:
            res = (*res, JOKER)
            jtm += 1 if rules.swapped_joker_must_be_melded else 0
        after = _Turn(rest, melds, mu, res, jtm)
        if _can_end(after, rules):
            return True
        if witnesses and jtm == t.jokers_to_meld and mu == t.must_use and witnessed(placed, touched, swap):
            return True
        return _feasible(after, rules)

    for m in enumerate_melds(hand, rules, min_natural=rules.min_natural):
        new = Meld(f"m{len(state.melds) + 1}", "", m, ("",) * len(m))
        if ok(m, _remove(hand, m), (*state.melds, new)):
            moves.append({"type": "meld", "cards": list(m)})
    for i, meld in enumerate(state.melds):
        for added, cards in enumerate_lay_offs(hand, meld.cards, rules):
            melds = list(state.melds)
            melds[i] = Meld(meld.id, meld.owner, cards, meld.placers)
            if ok(added, _remove(hand, added), tuple(melds), touched=i):
                moves.append({"type": "lay_off", "meld": meld.id, "cards": list(added)})
    if rules.joker_swap:
        for i, meld in enumerate(state.melds):
            for idx, nat in joker_slots(meld.cards):
                if nat in hand:
                    swapped = (*meld.cards[:idx], nat, *meld.cards[idx + 1 :])
                    melds = list(state.melds)
                    melds[i] = Meld(meld.id, meld.owner, swapped, meld.placers)
                    rest = _remove(hand, [nat])
                    if ok(
                        [nat],
                        None if rest is None else _add(rest, [JOKER]),
                        tuple(melds),
                        swap=True,
                        touched=i,
                    ):
                        moves.append({"type": "swap_joker", "meld": meld.id, "card": nat})
    if state.must_use is None and not state.jokers_to_meld:
        for c in dict.fromkeys(hand):
            if c not in state.reserved:
                moves.append({"type": "discard", "card": c})
    return moves


# ====================================================================== replay


def replay(
    rules: Ruleset,
    players: Sequence[str],
    dealer: int,
    deck: Sequence[str],
    moves: Iterable[tuple[str, Mapping[str, Any]] | Sequence[Any]],
    *,
    salt: str | None = None,
    round_number: int = 1,
    close_claims_at: Iterable[int] = (),
) -> RoundState:
    """Rebuild a round from its deal and move log: (player, move) pairs in order.

    A logged ``{"type": "close_claims"}`` move (player ignored) or a version in ``close_claims_at``
    replays the server closing a claim window.
    """
    state = new_round(rules, players, dealer, round_number, deck=deck, salt=salt)
    closes = set(close_claims_at)
    for player, move in moves:
        if state.version in closes and state.phase == "claims":
            state = close_claims(state)
        if isinstance(move, Mapping) and move.get("type") == "close_claims":
            state = close_claims(state)
            continue
        state = apply_move(state, player, move)
    return state
