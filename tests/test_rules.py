"""The rulebook's worked examples and the rules of setup, the round, payday, scoring and solo."""

from collections import Counter

import pytest

from harness import CI, data, drive, options, payday, place, position
from nesim.reference import Game, RandomPlayer, run_game
from nesim.reference.decisions import DISCARD, PLACE, SELL
from nesim.reference.scoring import rank_seats, score_player, vp_points


# ---------------------------------------------------------------- the wage-sale example (§12.4)

def wage_sale_position():
    # Progress buildings worth 20 (Steel Mill), 18 (General Contractor) and 10 (Orchard)
    g = position("progress", n=2, round=9, money=0,
                 buildings={"steel_mill": 1, "general_contractor": 1, "orchard": 1})
    g.players[0].workers = 4  # $5 x 4 = $20 owed with no money: $20 short
    return g


def test_wage_sale_example_offers_exactly_the_minimal_sets():
    g = wage_sale_position()
    sets = {tuple(sorted(s)) for s in g.sale_options(g.players[0], 20)}
    assert sets == {("steel_mill",), ("general_contractor", "orchard")}


def test_wage_sale_example_forbids_selling_more_than_needed():
    g = wage_sale_position()
    sets = {frozenset(s) for s in g.sale_options(g.players[0], 20)}
    assert frozenset({"steel_mill", "orchard"}) not in sets
    assert frozenset({"steel_mill", "general_contractor"}) not in sets


def test_selling_at_payday_pays_asset_value_and_makes_a_public_workplace():
    g = wage_sale_position()
    g.players[1].money = 100
    asked = payday(g, ("general_contractor", "orchard"))
    p = g.players[0]
    assert [d.kind for d in asked] == [SELL]
    assert p.money == 28 - 20 and p.unpaid == 0
    assert dict(p.buildings) == {"steel_mill": 1}
    assert sorted(wp.key for wp in g.public if wp.origin == "sold") == ["general_contractor", "orchard"]
    assert g.budget == 20 + 2 * 5  # seat 1 paid its two workers too


def test_no_sale_when_money_covers_wages():
    g = wage_sale_position()
    g.players[0].money = 20
    assert payday(g) == []
    assert g.players[0].money == 0 and g.players[0].building_count() == 3


def test_unpaid_wage_cards_after_selling_everything():
    g = position("progress", n=2, round=9, money=3, buildings={"farm": 1, "warehouse": 1})
    g.players[0].workers = 3  # $15 owed; farm sells for 6; warehouse cannot be sold
    payday(g, ("farm",))
    p = g.players[0]
    assert p.money == 0 and p.unpaid == 15 - 9 and dict(p.buildings) == {"warehouse": 1}


def test_no_buildings_to_sell_gives_unpaid_cards_without_a_decision():
    g = position("progress", n=2, round=1, money=1)
    assert payday(g) == []
    assert g.players[0].unpaid == 3 and g.players[0].money == 0 and g.budget == 1 + 4


def test_solo_sale_price_is_half_and_minimality_uses_half_prices():
    g = position("progress", n=1, round=9, money=0, buildings={"steel_mill": 1, "orchard": 1})
    g.players[0].workers = 2  # owes 10; steel mill sells for 10, orchard for 5
    assert {tuple(s) for s in g.sale_options(g.players[0], 10)} == {("steel_mill",)}
    payday(g, ("steel_mill",))
    assert g.players[0].money == 0 and g.players[0].unpaid == 0


# ---------------------------------------------------------------- VP tokens and scoring (§11, §14)

@pytest.mark.parametrize("tokens,points", [(0, 0), (1, 1), (2, 2), (3, 10), (4, 11), (5, 12), (6, 20), (7, 21)])
def test_vp_token_table(tokens, points):
    assert vp_points(tokens, data("mecenat").rules) == points


def test_accounting_office_example_four_tokens_give_22():
    s = score_player(data("mecenat"), {"accounting_office": 1}, 0, 0, 2, 4, 0, 0)
    assert s.vp_points == 22 and s.total == 22 + 12


def test_score_adds_assets_bonuses_money_tokens_minus_unpaid():
    s = score_player(data("progress"), {"real_estate": 1, "farm": 2}, 1, 0, 2, 0, 7, 2)
    assert (s.building_points, s.bonus_points, s.money, s.unpaid_penalty) == (10 + 12, 9, 7, 6)
    assert s.total == 22 + 9 + 7 - 6


def test_law_office_forgives_up_to_five_unpaid_cards():
    s = score_player(data("progress"), {"law_office": 1}, 0, 0, 2, 0, 0, 7)
    assert s.unpaid_wages == 2 and s.unpaid_penalty == 6 and s.total == 8 - 6


def test_tie_break_goes_to_the_seat_nearest_the_start_player():
    assert rank_seats([30, 40, 40, 10], start_player=0) == [3, 1, 2, 4]
    assert rank_seats([30, 40, 40, 10], start_player=2) == [3, 2, 1, 4]
    assert rank_seats([40, 40, 40, 40], start_player=3) == [2, 3, 4, 1]


# ---------------------------------------------------------------- drawing (§7)

def test_drawing_with_deck_and_discard_empty_gives_consumer_items():
    g = position("progress", deck=[], discard={}, hand={})
    g.draw(g.players[0], 3)
    assert dict(g.players[0].hand) == {CI: 3}


def test_empty_deck_reshuffles_the_discard_pile_first():
    g = position("progress", deck=["farm"], discard={"factory": 2}, hand={})
    g.draw(g.players[0], 4)
    assert g.players[0].hand == Counter({"farm": 1, "factory": 2, CI: 1})
    assert g.discard == Counter() and g.deck == []


def test_discarded_consumer_items_go_to_the_supply_not_the_discard_pile():
    g = position("progress", round=2, budget=6, hand={CI: 1})
    place(g, "stall", CI)
    assert g.discard == Counter() and g.players[0].money == 5 + 6


# ---------------------------------------------------------------- setup (§2, §15)

@pytest.mark.parametrize("game", ["progress", "mecenat", "glory"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_multiplayer_setup(game, n):
    g = Game(data(game), n, seed=7)
    assert [p.money for p in g.players] == [5, 6, 7, 8][:n]
    assert all(p.hand_size() == 3 and p.workers == 2 for p in g.players)
    keys = [wp.key for wp in g.public]
    assert keys.count("carpenter") == {2: 1, 3: 2, 4: 3}[n]
    assert keys[:3] == ["quarry", "mine", "school"]
    assert ("relics_workplace" in keys) == (game == "glory")
    assert len(g.deck) == data(game).deck_size() - 3 * n and g.budget == 0


@pytest.mark.parametrize("game,a,b", [("progress", "farm", "factory"),
                                      ("mecenat", "vegetable_garden", "food_factory"),
                                      ("glory", "relics_workplace", "steam_factory")])
def test_solo_setup(game, a, b):
    g = Game(data(game), 1, seed=3)
    assert [wp.key for wp in g.public] == ["mine", "carpenter", "school", a]
    assert g.deck[-1] == b  # the first card drawn
    assert g.players[0].money == 5 and g.players[0].hand_size() == 3
    removed = 1 + (a != "relics_workplace")
    assert len(g.deck) == data(game).deck_size() - removed - 3 + 1


def test_solo_has_no_quarry_and_blocks_the_newest_free_card_after_each_placement():
    g = Game(data("progress"), 1, seed=3)
    g.round = 1
    p = g.players[0]
    p.hand = Counter({CI: 2})
    assert options(g) == ["pub:0", "pub:2", "pub:3"]  # no Quarry; the carpenter has nothing to build
    drive(g._place(p, "pub:0"), [])  # Mine
    g._block_newest()
    assert [wp.sideways for wp in g.public] == [False, False, False, True]
    assert "pub:3" not in options(g)
    drive(g._place(p, "pub:2"), [])  # School
    g._block_newest()
    assert [wp.sideways for wp in g.public] == [False, True, False, True]  # the Mine is occupied


def test_solo_blocking_can_leave_a_unit_without_placement():
    g = position("progress", n=1, hand={})
    p = g.players[0]
    for wp in g.public:
        wp.sideways = True
    assert options(g) == []
    gen = g._action_phase()
    with pytest.raises(StopIteration):
        next(gen)
    assert p.stuck and p.units_left() == 0


@pytest.mark.parametrize("game,target", [("progress", 100), ("mecenat", 125), ("glory", 100)])
def test_solo_victory_thresholds(game, target):
    from nesim.reference.scoring import score_game
    g = Game(data(game), 1, seed=1)
    p = g.players[0]
    p.hand.clear()
    p.money = target
    assert score_game(g)[0].solo_cleared is True
    p.money = target - 1
    assert score_game(g)[0].solo_cleared is False


# ---------------------------------------------------------------- the round and payday order

def test_round_cards_arrive_in_order_with_the_wages_of_their_round():
    expected = {2: "stall", 3: "market", 4: "high_school", 5: "supermarket", 6: "university",
                7: "department_store", 8: "technical_college", 9: "world_expo"}
    assert data("progress").round_cards() == expected
    assert data("progress").rules.wages == (2, 2, 3, 3, 3, 4, 4, 5, 5)


def test_hand_limit_discard_happens_before_wages_and_asks_card_by_card():
    g = position("progress", n=2, round=1, money=0, hand={"farm": 4, CI: 3})
    asked = payday(g, CI, CI)
    assert [(d.kind, d.context["purpose"]) for d in asked] == [(DISCARD, "hand_limit")] * 2
    assert g.players[0].hand == Counter({"farm": 4, CI: 1})
    assert g.players[0].unpaid == 4


def test_turns_go_clockwise_from_the_start_player_and_skip_players_without_units():
    g = Game(data("progress"), 3, seed=5)
    g.round = 1
    g.start_player = 1
    g.players[2].workers = 3
    seats = []
    gen = g._action_phase()
    decision = next(gen)
    try:
        while True:
            seats.append(decision.seat)
            choice = "pub:1" if decision.kind == PLACE else decision.options[0]  # the Mine
            decision = gen.send(choice)
    except StopIteration:
        pass
    assert seats == [1, 2, 0, 1, 2, 0, 2]


def test_a_whole_random_game_ends_with_consistent_ranks():
    g = run_game(Game(data("glory"), 4, seed=11), [RandomPlayer(i) for i in range(4)])
    assert g.finished and sorted(s.rank for s in g.scores) == [1, 2, 3, 4]
    winner = next(s for s in g.scores if s.rank == 1)
    assert winner.total == max(s.total for s in g.scores)
