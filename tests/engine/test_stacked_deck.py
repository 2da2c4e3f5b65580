"""The one stacked-deck builder (``tournaments.engine.stacked_deck``) that the scenario tests, the how-to-play pages
and the demo share: for every preset, whatever hands, turned card and stock top are named, the engine's own deal
gives exactly those (docs/rules.md "Deal")."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine import PRESETS, Ruleset, full_deck, new_round, stacked_deck
from tournaments.engine.families import family_of

NAMES = ["ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"]


@st.composite
def stacking(draw: st.DrawFn) -> tuple[Ruleset, int, list[list[str]], str | None, list[str]]:
    rules = Ruleset.preset(draw(st.sampled_from(sorted(PRESETS))))
    n = draw(st.integers(rules.min_players, min(rules.max_players, 4)))
    dealer = draw(st.integers(0, n - 1))
    shape = family_of(rules).deal_shape(rules, n)
    cards = draw(st.permutations(full_deck(rules, n)))
    starter = (dealer + 1) % n
    hands, pos = [], 0
    for seat in range(n):
        size = shape.each + (shape.starter_extra if seat == starter else 0)
        named = draw(st.integers(0, size))
        hands.append(list(cards[pos : pos + named]))
        pos += named
    remaining = list(cards[pos:])
    up = None
    if shape.turned and draw(st.booleans()):
        up = next(c for c in remaining if c != "JK")  # Board Rummy turns a joker under: name a natural
        remaining.remove(up)
    stock = remaining[: draw(st.integers(0, 3))]
    return rules, dealer, hands, up, stock


@settings(max_examples=150, deadline=None)
@given(stacking())
def test_the_deal_gives_every_named_card_where_it_was_named(
    case: tuple[Ruleset, int, list[list[str]], str | None, list[str]],
) -> None:
    rules, dealer, hands, up, stock = case
    n = len(hands)
    deck = stacked_deck(rules, hands, dealer=dealer, up=up, stock=stock)
    assert Counter(deck) == Counter(full_deck(rules, n))
    state = new_round(rules, NAMES[:n], dealer, deck=deck)
    for seat, hand in enumerate(hands):
        assert not Counter(hand) - Counter(state.hands[seat]), (seat, hand, state.hands[seat])
    shape = family_of(rules).deal_shape(rules, n)
    assert [len(h) for h in state.hands] == [
        shape.each + (shape.starter_extra if seat == (dealer + 1) % n else 0) for seat in range(n)
    ]
    if up is not None and rules.up_card:
        assert state.discard == (up,)
    if up is not None and rules.family == "board":
        assert state.own["trump"] == up
    assert list(state.stock[: len(stock)]) == stock


def test_a_card_the_deck_does_not_hold_is_named_in_the_error() -> None:
    rummy = Ruleset.preset("rummy500")
    with pytest.raises(ValueError, match="'ZZ'"):
        stacked_deck(rummy, [["ZZ"], []])
    with pytest.raises(ValueError, match="'AS'"):
        stacked_deck(rummy, [["AS"], ["AS"]])  # one deck holds one ace of spades


def test_a_hand_longer_than_its_deal_and_a_turned_card_a_game_has_not_are_refused() -> None:
    rummy = Ruleset.preset("rummy500")
    each = family_of(rummy).deal_shape(rummy, 2).each
    with pytest.raises(ValueError, match=f"dealt {each} cards"):
        stacked_deck(rummy, [list(full_deck(rummy, 2)[: each + 1]), []])
    wrotham = Ruleset.preset("wrotham")
    with pytest.raises(ValueError, match="turns no card up"):
        stacked_deck(wrotham, [[], []], up="5D")


def test_unnamed_cards_come_in_the_order_the_fillers_give() -> None:
    rummy = Ruleset.preset("rummy500")
    deck = list(full_deck(rummy, 2))
    each = family_of(rummy).deal_shape(rummy, 2).each
    hands = [deck[:each], deck[each : 2 * each]]
    reverse = stacked_deck(rummy, hands, fillers=lambda unused: unused[::-1])
    assert reverse[2 * each :] == deck[2 * each :][::-1]  # the up-card and the stock, last card first
    plain = stacked_deck(rummy, [[], []])
    assert plain[-2:] == ["JK", "JK"]  # by default the jokers come last
