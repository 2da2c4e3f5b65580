"""The turn-completion check (docs/rules.md "Turn-completion invariant") has no depth cut: turns that need
four and five placements to end legally are judged completable, and the fast check (``turn.feasible``) agrees
with exhaustive searches written here from the rule on small random positions.

docs/rules.md "Turn-completion invariant": an obligation (the chosen card of a deep draw, a retrieved joker
that must be melded) is met by a placement that contains it, built from the hand and the table of that moment;
the turn can end when nothing is owed and a card that may be discarded is left (or, without a final discard,
the hand is empty).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.engine import Ruleset, apply_move, full_deck, legal_moves
from tournaments.engine.cards import JOKER, is_joker, sort_cards
from tournaments.engine.families.basic.book import Book, with_book
from tournaments.engine.families.basic.play import can_finish
from tournaments.engine.melds import enumerate_lay_offs, enumerate_melds, joker_slots
from tournaments.engine.rules import Ruleset as RulesetType
from tournaments.engine.state import Meld
from tournaments.engine.turn import Turn, feasible, measure, placements_with

from .stacking import disc, illegal, lay, pile, stacked_round, swap

R500 = Ruleset.preset("rummy500")
MUST_MELD = Ruleset.preset("rummy500", swapped_joker_must_be_melded=True)


def _set(*cards: str) -> Meld:
    return Meld("", "ann", tuple(cards), ("ann",) * len(cards))


def _numbered(melds: Sequence[Meld]) -> tuple[Meld, ...]:
    return tuple(replace(m, id=f"m{i + 1}") for i, m in enumerate(melds))


# Three-card sets, each with a joker standing for a diamond, and a bare three-card set: each set takes one
# more card, so every retrieved joker needs a lay-off of its own.
SWAPPABLE = (_set("5S", "5H", "JK:5D"), _set("9S", "9H", "JK:9D"), _set("KS", "KH", "JK:KD"))
CHOSEN_SLOT = _set("7S", "JK:7H", "7D")  # the chosen 7H is placed only by swapping this joker


def _deep(jokers_held: int, sets: int) -> Turn:
    """Jokers already retrieved this turn (each owed), the chosen 7H still owed, ``sets`` open sets."""
    open_sets = [
        _set("4S", "4H", "4D"),
        _set("8S", "8H", "8D"),
        _set("QS", "QH", "QD"),
        _set("3S", "3H", "3D"),
    ]
    melds = _numbered([CHOSEN_SLOT, *open_sets[:sets]])
    hand = sort_cards(["7H", "2C", *[JOKER] * jokers_held])
    return Turn(hand, melds, "7H", ("7H", *[JOKER] * jokers_held), jokers_held)


# ====================================================================== four and five placements


@pytest.mark.parametrize(("jokers_held", "placements"), [(1, 3), (2, 4), (3, 5)])
def test_a_turn_needing_four_or_five_placements_is_completable(jokers_held: int, placements: int) -> None:
    # The swap of 7H retrieves one more joker: 1 + (jokers_held + 1) placements, each joker on a set of its
    # own (the 7s once the swap is made, and one open set per joker held).
    t = _deep(jokers_held, sets=jokers_held)
    assert fewest_placements(t, MUST_MELD) == placements
    assert feasible(t, MUST_MELD)


@pytest.mark.parametrize("jokers_held", [1, 2, 3])
def test_a_deep_turn_with_one_set_too_few_is_not_completable(jokers_held: int) -> None:
    t = _deep(jokers_held, sets=jokers_held - 1)
    assert fewest_placements(t, MUST_MELD) is None
    assert not feasible(t, MUST_MELD)


def test_a_second_swap_that_leaves_four_placements_to_make_is_accepted_and_the_turn_completes():
    """Through ``apply_move``: after a deep draw of 7H, two swaps with ``swapped_joker_must_be_melded``
    owe two jokers and the 7H, whose only use is a third swap: four placements, then the discard."""
    s = stacked_round(MUST_MELD, [["2C"], ["2S"]], dealer=1)
    melds = _numbered([CHOSEN_SLOT, *SWAPPABLE[:2], _set("4S", "4H", "4D")])
    hands = list(s.hands)
    hands[1] = sort_cards(["7H", "5D", "9D", "2C"])
    s = replace(
        s, turn=1, phase="play", hands=tuple(hands), melds=melds, must_use="7H", reserved=("7H",), chosen="7H"
    )
    s = apply_move(s, "bob", swap("m2", "5D"))
    assert swap("m3", "9D") in legal_moves(s, "bob")
    s = apply_move(s, "bob", swap("m3", "9D"))  # refused as turn.cannot_complete by a three-deep search
    assert s.jokers_to_meld == 2 and s.must_use == "7H"
    illegal(s, "bob", disc("2C"), "discard.chosen_card_unused")
    s = apply_move(s, "bob", swap("m1", "7H"))
    assert s.jokers_to_meld == 3 and s.must_use is None
    for mid, joker in (("m1", "JK:7C"), ("m2", "JK:5C"), ("m3", "JK:9C")):
        illegal(s, "bob", disc("2C"), "discard.joker_not_melded")
        s = apply_move(s, "bob", lay(mid, joker))
    s = apply_move(s, "bob", disc("2C"))
    assert s.phase == "over" and s.hand_of("bob") == ()


def test_basic_family_going_out_after_three_swaps_needs_four_placements_and_is_accepted():
    """Rommé (no final discard): the top discard 7H taken, then three swaps leave only cards that may not
    be discarded (7H and three jokers); going out needs four lay-offs, each on its own set."""
    rules = Ruleset.preset("romme")
    s = stacked_round(rules, [["2C"], ["2S"]], dealer=1)
    melds = _numbered([*SWAPPABLE, _set("7S", "7D", "7C")])
    hands = list(s.hands)
    hands[1] = sort_cards(["7H", "5D", "9D", "KD"])
    s = replace(s, turn=1, phase="play", hands=tuple(hands), melds=melds, reserved=("7H",), chosen="7H")
    s = with_book(s, Book(opened=("ann", "bob")))
    s = apply_move(s, "bob", swap("m1", "5D"))
    s = apply_move(s, "bob", swap("m2", "9D"))
    assert swap("m3", "KD") in legal_moves(s, "bob")
    s = apply_move(s, "bob", swap("m3", "KD"))  # refused by a three-deep search
    assert sorted(s.hand_of("bob")) == ["7H", "JK", "JK", "JK"] and can_finish(s)
    for mid, card in (("m4", "7H"), ("m1", "JK:5C"), ("m2", "JK:9C"), ("m3", "JK:KC")):
        s = apply_move(s, "bob", lay(mid, card))
    assert s.phase == "over" and s.result is not None and s.result.details["went_out"] == "bob"
    # with one set too few, the third swap is refused
    short = stacked_round(rules, [["2C"], ["2S"]], dealer=1)
    short = replace(
        short,
        turn=1,
        phase="play",
        hands=(short.hands[0], sort_cards(["7H", "5D", "9D", "KD"])),
        melds=_numbered(SWAPPABLE),
        reserved=("7H",),
        chosen="7H",
    )
    short = with_book(short, Book(opened=("ann", "bob")))
    short = apply_move(apply_move(short, "bob", swap("m1", "5D")), "bob", swap("m2", "9D"))
    illegal(short, "bob", swap("m3", "KD"), "turn.cannot_complete")


def test_a_swap_that_leaves_two_jokers_is_accepted_one_laid_off_frees_the_other():
    """A player holding a joker swaps 7H for a table joker: both jokers held, one retrieved this turn.
    Neither may be discarded yet, but laying one off leaves the other free to discard (found by the
    differential property below)."""
    s = stacked_round(R500, [["2C"], ["2S"]], dealer=1)
    hands = list(s.hands)
    hands[1] = ("7H", "JK")
    s = replace(s, turn=1, phase="play", hands=tuple(hands), melds=_numbered([CHOSEN_SLOT]))
    assert swap("m1", "7H") in legal_moves(s, "bob")
    s = apply_move(s, "bob", swap("m1", "7H"))  # refused as turn.cannot_complete before
    assert s.hand_of("bob") == ("JK", "JK") and legal_moves(s, "bob") != []
    illegal(s, "bob", disc("JK"), "discard.retrieved_joker")
    s = apply_move(s, "bob", lay("m1", "JK:7C"))
    s = apply_move(s, "bob", disc("JK"))
    assert s.phase == "over" and s.hand_of("bob") == ()


def test_a_kept_top_card_with_its_twin_in_hand_is_taken_when_one_copy_can_be_laid_off():
    """Two decks: a lone 7H may take the other 7H from the pile when a 7H can be laid off (the other
    copy may then be discarded, docs/rules.md); with nothing to lay it off on, the draw stays refused."""
    rules = Ruleset.preset("rummy500_household", top_discard_must_be_used=False)
    base = stacked_round(rules, [["2C"], ["2S"], ["3S"], ["4S"], ["5S"]], dealer=4)
    hands = list(base.hands)
    hands[0] = ("7H",)
    s = replace(
        base,
        hands=tuple(hands),
        phase="draw",
        discard=("2H", "7H"),
        melds=_numbered([_set("7S", "7D", "7C")]),
    )
    after = apply_move(s, "ann", pile("7H", 1))  # refused as turn.cannot_complete before
    illegal(after, "ann", disc("7H"), "discard.chosen_card")
    after = apply_move(after, "ann", lay("m1", "7H"))
    assert legal_moves(after, "ann") == [disc("7H")]
    bare = replace(s, melds=())
    illegal(bare, "ann", pile("7H", 1), "turn.cannot_complete")


def test_every_placement_lowers_the_measure_so_the_search_ends():
    """``turn.measure`` falls with every meld, lay-off and swap (the search's termination, so no cut)."""
    checked = 0
    for seed in range(300):
        rules = _RULESETS[seed % len(_RULESETS)]
        t = random_position(random.Random(seed), rules) if seed % 3 else _reachable_deep(random.Random(seed))
        for card in {JOKER, *t.hand}:
            for p in placements_with(t, card, rules):
                assert measure(p.after) < measure(t), (t, p)
                checked += 1
        for _, after in _placements(t, rules):
            assert measure(after) < measure(t), (t, after)
            checked += 1
    assert checked > 1000


# ====================================================================== against exhaustive searches


def _placements(t: Turn, rules: RulesetType) -> Iterator[tuple[tuple[str, ...], Turn]]:
    """Every meld, lay-off and joker swap from the whole hand (no pruning), applied from docs/rules.md
    "Turn-completion invariant"."""
    hand = list(t.hand)
    for m in enumerate_melds(hand, rules, min_natural=rules.min_natural):
        rest = _minus(hand, m)
        if rest is not None:
            new = Meld(f"m{len(t.melds) + 1}", "", m, ("",) * len(m))
            yield m, _after(t, m, rest, (*t.melds, new), retrieved=False, rules=rules)
    for i, meld in enumerate(t.melds):
        for added, cards in enumerate_lay_offs(hand, meld.cards, rules):
            rest = _minus(hand, added)
            if rest is not None:
                melds = list(t.melds)
                melds[i] = Meld(meld.id, meld.owner, cards, ("",) * len(cards))
                yield added, _after(t, added, rest, tuple(melds), retrieved=False, rules=rules)
        if rules.joker_swap:
            for idx, natural in joker_slots(meld.cards):
                if natural in hand:
                    rest = _minus(hand, [natural])
                    assert rest is not None
                    melds = list(t.melds)
                    melds[i] = Meld(
                        meld.id,
                        meld.owner,
                        (*meld.cards[:idx], natural, *meld.cards[idx + 1 :]),
                        meld.placers,
                    )
                    yield (
                        (natural,),
                        _after(t, (natural,), [*rest, JOKER], tuple(melds), retrieved=True, rules=rules),
                    )


def _minus(hand: Sequence[str], cards: Sequence[str]) -> list[str] | None:
    left = Counter(hand)
    for c in cards:
        k = JOKER if is_joker(c) else c
        if not left[k]:
            return None
        left[k] -= 1
    return list(left.elements())


def _after(
    t: Turn,
    placed: Sequence[str],
    rest: list[str],
    melds: tuple[Meld, ...],
    *,
    retrieved: bool,
    rules: RulesetType,
) -> Turn:
    must_use = t.must_use
    reserved = Counter(t.reserved)
    jokers_to_meld = t.jokers_to_meld
    for c in placed:
        k = JOKER if is_joker(c) else c
        if k == must_use:
            must_use = None
        if k == JOKER and jokers_to_meld:
            jokers_to_meld -= 1
        if reserved[k]:
            reserved[k] -= 1
    if retrieved:
        reserved[JOKER] += 1
        jokers_to_meld += rules.swapped_joker_must_be_melded
    return Turn(sort_cards(rest), melds, must_use, tuple(sorted(reserved.elements())), jokers_to_meld)


def _ends(t: Turn, rules: RulesetType) -> bool:
    if t.must_use is not None or t.jokers_to_meld:
        return False
    if not t.hand:
        return not rules.final_discard_required
    return any(c not in t.reserved for c in t.hand)


def _owed(t: Turn, rules: RulesetType) -> set[str]:
    owed = {t.must_use} if t.must_use is not None else set()
    if t.jokers_to_meld:
        owed.add(JOKER)
    if not owed:
        owed = set(t.reserved)  # every card held is reserved: place one (to free a copy, or to go out)
    return owed


def fewest_placements(t: Turn, rules: RulesetType) -> int | None:
    """The fewest placements after which the turn can end, by trying every chain (no memory, no cut) of
    placements that each place a card still owed (docs/rules.md "Turn-completion invariant": "containing
    it")."""
    if _ends(t, rules):
        return 0
    owed = _owed(t, rules)
    best: int | None = None
    for placed, after in _placements(t, rules):
        if not owed & {JOKER if is_joker(c) else c for c in placed}:
            continue
        if rules.final_discard_required and not after.hand:
            continue
        rest = fewest_placements(after, rules)
        if rest is not None and (best is None or rest + 1 < best):
            best = rest + 1
    return best


def any_chain(t: Turn, rules: RulesetType, seen: dict[tuple[object, ...], bool] | None = None) -> bool:
    """Whether some chain of any placements (owed cards or not) ends the turn: every chain is tried, a
    position (the table as a multiset of melds) only once."""
    if _ends(t, rules):
        return True
    seen = {} if seen is None else seen
    key = (t.hand, tuple(sorted(m.cards for m in t.melds)), t.must_use, t.reserved, t.jokers_to_meld)
    if key not in seen:
        seen[key] = False
        seen[key] = any(
            any_chain(after, rules, seen)
            for _, after in _placements(t, rules)
            if not (rules.final_discard_required and not after.hand)
        )
    return seen[key]


_RULESETS = [
    Ruleset.preset("rummy500"),
    MUST_MELD,
    Ruleset.preset("rummy500", final_discard_required=False),
    Ruleset.preset("rummy500", swapped_joker_must_be_melded=True, final_discard_required=False),
    Ruleset.preset("rummy500", joker_swap=False),
    Ruleset.preset("rummy500_household"),
]


def random_position(rng: random.Random, rules: RulesetType) -> Turn:
    """A small position mid-turn: up to four melds on the table (jokers in them), a hand of 2-6 cards
    (jokers, a chosen card still owed or already placed, jokers retrieved this turn)."""
    deck = list(full_deck(rules, 4))
    rng.shuffle(deck)
    melds: list[Meld] = []
    for _ in range(rng.randint(0, 4)):
        pool = deck[:12]
        if rng.random() < 0.6:
            pool.append(JOKER)
        found = enumerate_melds(pool, rules, min_natural=rules.min_natural)
        if not found:
            continue
        m = rng.choice(found)
        left = _minus(deck, [c for c in m if not is_joker(c)])
        assert left is not None
        deck = left
        rng.shuffle(deck)
        melds.append(Meld(f"m{len(melds) + 1}", "ann", m, ("ann",) * len(m)))
    # Cards that fit the table (the naturals its jokers stand for, extensions) make deep positions likely.
    fitting = [nat for m in melds for _, nat in joker_slots(m.cards)]
    hand = [*rng.sample(deck, rng.randint(1, 4)), *rng.sample(fitting, min(len(fitting), rng.randint(0, 2)))]
    retrieved = rng.randint(0, 3)
    hand += [JOKER] * retrieved
    hand = hand[:7]
    naturals = [c for c in hand if c != JOKER]
    must_use = rng.choice(naturals) if naturals and rng.random() < 0.7 else None
    chosen = must_use or (rng.choice(naturals) if naturals and rng.random() < 0.5 else None)
    reserved = ([chosen] if chosen else []) + [JOKER] * min(retrieved, hand.count(JOKER))
    owed = rng.randint(0, min(retrieved, hand.count(JOKER))) if rules.swapped_joker_must_be_melded else 0
    return Turn(sort_cards(hand), tuple(melds), must_use, tuple(sorted(reserved)), owed)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, len(_RULESETS) - 1))
def test_the_fast_check_agrees_with_exhaustive_searches(seed: int, which: int) -> None:
    rules = _RULESETS[which]
    t = random_position(random.Random(seed), rules)
    fast = feasible(t, rules)
    # docs/rules.md "Turn-completion invariant" as written: chains of placements that each place a card still
    # owed, every order, no cut.
    assert fast == (fewest_placements(t, rules) is not None), t
    # Against every chain of any placements: what the check accepts can be completed, and without a joker
    # to swap it misses nothing (a chosen card usable only after a swap is refused: docs/rules.md).
    anything = any_chain(t, rules)
    if fast:
        assert anything, t
    if not rules.joker_swap or not any(joker_slots(m.cards) for m in t.melds):
        assert fast == anything, t


def _reachable_deep(rng: random.Random) -> Turn:
    """Positions like ``_deep``'s with the sets shuffled and some removed: every answer is worth checking."""
    jokers_held = rng.randint(0, 3)
    t = _deep(jokers_held, sets=rng.randint(0, 4))
    melds = list(t.melds)
    rng.shuffle(melds)
    return replace(t, melds=_numbered(melds))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_deep_positions_agree_with_the_exhaustive_search(seed: int) -> None:
    t = _reachable_deep(random.Random(seed))
    expected = fewest_placements(t, MUST_MELD)
    assert feasible(t, MUST_MELD) == (expected is not None)


def test_the_generators_reach_deep_turns():
    """The generators are worth their names: answers of every kind, random positions two placements deep
    and the deep ones three, four and five."""
    depths: Counter[int | None] = Counter()
    for seed in range(400):
        rules = _RULESETS[seed % len(_RULESETS)]
        depths[fewest_placements(random_position(random.Random(seed), rules), rules)] += 1
    assert depths[None] > 20 and depths[0] > 20 and depths[1] > 20 and depths[2] > 2, depths
    deep = Counter(fewest_placements(_reachable_deep(random.Random(seed)), MUST_MELD) for seed in range(60))
    assert deep[None] and deep[3] and deep[4] and deep[5], deep
