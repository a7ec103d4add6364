"""Rule tests for every Progress building and every common workplace, on constructed positions.

Expected values come from the revival rulebook and the Project rulings of RULES-NOTES.md
(section numbers cited as §n). Wages: round 1 pays 2 per worker, round 8 and 9 pay 5.
"""

from __future__ import annotations

from collections import Counter

import pytest

from harness import CI, data, drive, options, payday, place, where
from harness import position as _position
from nesim.reference.decisions import BUILD, DISCARD, KEEP, PLACE, SELL
from nesim.reference.scoring import score_game, score_player

PROGRESS = data("progress")
LOCKS = ["warehouse", "law_office", "company_house", "real_estate", "farmers_coop", "mansion",
         "labor_union", "head_office_building", "railway"]


# ---------------------------------------------------------------------------- local helpers

def position(*args, **kw):
    """The harness position, with seat 0's hand empty unless given (not the 3 dealt cards)."""
    kw.setdefault("hand", {})
    return _position(*args, **kw)


def place_at(g, choice, *answers, seat=0):
    """Places a unit of ``seat`` on the exact placement ``choice`` (e.g. ``pub:4``)."""
    p = g.players[seat]
    legal = g.placement_options(p)
    assert choice in legal, f"{choice} not legal; legal: {legal}"
    return drive(g._place(p, choice), answers)


def open_public(g, key, seat=0):
    """The placement values of open, legal public workplaces with this key for ``seat``."""
    return [o for o in options(g, seat) if o.startswith("pub:") and g.public[int(o[4:])].key == key]


def public_keys(g):
    return [wp.key for wp in g.public]


def score(buildings, *, hand_size=0, items=0, workers=2, vp=0, money=0, unpaid=0):
    return score_player(PROGRESS, buildings, hand_size, items, workers, vp, money, unpaid)


# ---------------------------------------------------------------------------- lock buildings

@pytest.mark.parametrize("key", LOCKS)
def test_lock_building_is_never_a_placement_option(key):
    b = PROGRESS.building(key)
    assert b.facility and not b.workable and not b.sellable
    g = position("progress", hand={CI: 5}, buildings={key: 2}, budget=50, round=9)
    assert not [o for o in options(g) if o == f"own:{key}"]
    assert all(o.startswith("pub:") for o in options(g))


@pytest.mark.parametrize("key", LOCKS)
def test_lock_card_in_the_general_workplace_is_not_a_placement_option(key):
    g = position("progress", public=[key], hand={CI: 5}, budget=50)
    i = public_keys(g).index(key)
    assert f"pub:{i}" not in options(g) and f"pub:{i}" not in options(g, 1)


@pytest.mark.parametrize("key", LOCKS)
def test_lock_building_is_never_sold(key):
    # round 1, 2 workers: $4 owed, $0 held; the lock card cannot be sold
    g = position("progress", buildings={key: 1, "farm": 1}, money=0)
    asked = payday(g, ("farm",))
    assert asked[0].kind == SELL and asked[0].options == [("farm",)]
    assert dict(g.players[0].buildings) == {key: 1}


# ---------------------------------------------------------------------------- consumer-item cards

@pytest.mark.parametrize("key,items", [("farm", 2), ("plantation", 3)])
def test_item_building_takes_items(key, items):
    g = position("progress", hand={"factory": 1}, buildings={key: 1}, deck=["mansion"])
    assert place(g, key) == []
    p = g.players[0]
    assert dict(p.hand) == {"factory": 1, CI: items}
    assert g.deck == ["mansion"] and not g.discard


def test_own_building_once_per_round_each_copy():
    g = position("progress", buildings={"farm": 2}, workers=3)
    place(g, "farm")
    assert "own:farm" in options(g)  # the second copy
    place(g, "farm")
    assert "own:farm" not in options(g)
    assert g.players[0].hand[CI] == 4


def test_burnt_field_takes_5_items_and_leaves_after_payday():
    g = position("progress", buildings={"burnt_field": 1, "farm": 1}, money=10)
    place(g, "burnt_field")
    p = g.players[0]
    assert dict(p.hand) == {CI: 5}
    assert "own:burnt_field" not in options(g)
    assert p.buildings["burnt_field"] == 1  # still there during the round
    payday(g)
    assert dict(p.buildings) == {"farm": 1}
    assert g.discard == Counter({"burnt_field": 1})
    assert p.money == 6  # 2 workers x $2


def test_burnt_field_unworked_copy_stays():
    g = position("progress", buildings={"burnt_field": 2}, money=10)
    place(g, "burnt_field")
    payday(g)
    assert dict(g.players[0].buildings) == {"burnt_field": 1}
    assert g.discard == Counter({"burnt_field": 1})


def test_burnt_field_built_does_nothing_and_is_kept():
    g = position("progress", hand={"burnt_field": 1, "farm": 1}, money=10)
    place(g, "carpenter", "burnt_field", "farm")
    p = g.players[0]
    assert dict(p.hand) == {} and dict(p.buildings) == {"burnt_field": 1}
    payday(g)
    assert dict(p.buildings) == {"burnt_field": 1}
    assert g.discard == Counter({"farm": 1})


def test_burnt_field_worked_in_round_9_is_gone_before_scoring():
    g = position("progress", round=9, buildings={"burnt_field": 1, "real_estate": 1}, money=10)
    place(g, "burnt_field")
    payday(g)  # 5 items: at the hand limit, no discard
    p = g.players[0]
    assert dict(p.buildings) == {"real_estate": 1}
    s = score_game(g)[0]
    assert s.building_points == 10 and s.bonus_points == 3


def test_burnt_field_cannot_be_sold():
    # owes $4 with $0: Burnt Field is the only building, so no sale is offered at all
    g = position("progress", buildings={"burnt_field": 1}, money=0)
    assert payday(g) == []
    p = g.players[0]
    assert p.unpaid == 4 and p.buildings["burnt_field"] == 1 and p.money == 0


def test_burnt_field_not_among_sale_options():
    g = position("progress", buildings={"burnt_field": 1, "coffee_shop": 1}, money=1)
    asked = payday(g, ("coffee_shop",))
    assert asked[0].options == [("coffee_shop",)]
    p = g.players[0]
    assert p.money == 1 + 8 - 4 and dict(p.buildings) == {"burnt_field": 1}
    assert public_keys(g)[-1] == "coffee_shop"


@pytest.mark.parametrize("held,taken", [(0, 4), (1, 3), (2, 2), (3, 1)])
def test_orchard_fills_hand_to_4(held, taken):
    g = position("progress", hand={"factory": held} if held else {}, buildings={"orchard": 1})
    place(g, "orchard")
    assert g.players[0].hand[CI] == taken and g.players[0].hand_size() == 4


@pytest.mark.parametrize("held", [4, 5])
def test_orchard_not_with_4_or_more_cards(held):
    g = position("progress", hand={CI: held}, buildings={"orchard": 1})
    assert "own:orchard" not in options(g)


# ---------------------------------------------------------------------------- money cards

def test_coffee_shop_takes_5_from_budget():
    g = position("progress", buildings={"coffee_shop": 1}, budget=7, money=3, hand={"farm": 1})
    assert place(g, "coffee_shop") == []
    p = g.players[0]
    assert p.money == 8 and g.budget == 2 and dict(p.hand) == {"farm": 1}


def test_coffee_shop_not_with_budget_below_5():
    g = position("progress", buildings={"coffee_shop": 1}, budget=4)
    assert "own:coffee_shop" not in options(g)


def test_restaurant_discards_1_takes_15():
    g = position("progress", buildings={"restaurant": 1}, budget=15, money=2,
                 hand={"farm": 1, CI: 1})
    asked = place(g, "restaurant", "farm")
    p = g.players[0]
    assert [d.kind for d in asked] == [DISCARD]
    assert p.money == 17 and g.budget == 0
    assert dict(p.hand) == {CI: 1} and g.discard == Counter({"farm": 1})


@pytest.mark.parametrize("hand,budget", [({}, 30), ({CI: 1}, 14)])
def test_restaurant_needs_a_card_and_15_in_budget(hand, budget):
    g = position("progress", buildings={"restaurant": 1}, budget=budget, hand=hand)
    assert "own:restaurant" not in options(g)


# ---------------------------------------------------------------------------- drawing cards

def test_steel_mill_draws_3():
    g = position("progress", buildings={"steel_mill": 1}, deck=["farm", "mansion", "railway", "orchard"])
    place(g, "steel_mill")
    assert dict(g.players[0].hand) == {"farm": 1, "mansion": 1, "railway": 1}
    assert g.deck == ["orchard"]


@pytest.mark.parametrize("hand,drawn", [({}, 4), ({CI: 1}, 2)])
def test_chemical_plant_draws_2_or_4_on_empty_hand(hand, drawn):
    deck = ["farm", "factory", "orchard", "mansion", "railway"]
    g = position("progress", buildings={"chemical_plant": 1}, hand=hand, deck=deck)
    place(g, "chemical_plant")
    p = g.players[0]
    assert p.hand_size() == len(hand) + drawn
    assert Counter(p.hand) == Counter(hand) + Counter(deck[:drawn])
    assert g.deck == list(reversed(deck[drawn:]))


@pytest.mark.parametrize("key,discard,draw", [("factory", 2, 4), ("car_factory", 3, 7)])
def test_factory_discards_then_draws(key, discard, draw):
    deck = ["orchard", "mansion", "railway", "farm", "settler", "plantation", "law_office", "warehouse"]
    hand = {"steel_mill": 1, CI: discard}  # keeps the steel mill, pays with the items
    g = position("progress", buildings={key: 1}, hand=hand, deck=deck)
    asked = place(g, key, *[CI] * discard)
    p = g.players[0]
    assert [d.kind for d in asked] == [DISCARD] * discard
    assert Counter(p.hand) == Counter({"steel_mill": 1}) + Counter(deck[:draw])
    assert g.deck == list(reversed(deck[draw:])) and not g.discard


def test_factory_discards_before_drawing_so_they_can_be_reshuffled():
    # deck empty: the 2 discards form the new deck, the 2 missing cards are consumer items
    g = position("progress", buildings={"factory": 1}, hand={"steel_mill": 1, "farm": 1}, deck=[])
    place(g, "factory", "steel_mill", "farm")
    assert dict(g.players[0].hand) == {"steel_mill": 1, "farm": 1, CI: 2}
    assert g.deck == [] and not g.discard


@pytest.mark.parametrize("key,need", [("factory", 2), ("car_factory", 3)])
def test_factory_needs_the_cards(key, need):
    g = position("progress", buildings={key: 1}, hand={CI: need - 1})
    assert f"own:{key}" not in options(g)


def test_design_office_reveals_5_keeps_1_discards_4():
    deck = ["farm", "factory", "steel_mill", "farm", "mansion", "orchard"]
    g = position("progress", buildings={"design_office": 1}, deck=deck, hand={CI: 1})
    asked = place(g, "design_office", "mansion")
    assert [d.kind for d in asked] == [KEEP]
    assert asked[0].options == ["farm", "factory", "steel_mill", "mansion"]
    assert dict(g.players[0].hand) == {CI: 1, "mansion": 1}
    assert g.discard == Counter({"farm": 2, "factory": 1, "steel_mill": 1})
    assert g.deck == ["orchard"]


def test_design_office_short_deck_reshuffles_then_consumer_items():
    g = position("progress", buildings={"design_office": 1}, deck=["farm", "factory"],
                 discard={"steel_mill": 1})
    asked = place(g, "design_office", "factory")
    assert asked[0].options == ["farm", "factory", "steel_mill", CI]
    assert dict(g.players[0].hand) == {"factory": 1}
    assert g.discard == Counter({"farm": 1, "steel_mill": 1}) and g.deck == []


def test_design_office_may_keep_a_consumer_item():
    g = position("progress", buildings={"design_office": 1}, deck=["farm", "factory"],
                 discard={"steel_mill": 1})
    place(g, "design_office", CI)
    assert dict(g.players[0].hand) == {CI: 1}
    assert g.discard == Counter({"farm": 1, "factory": 1, "steel_mill": 1}) and g.deck == []


def test_design_office_revealed_cards_are_not_reshuffled():
    # only one card exists anywhere: it is revealed once, the other four are consumer items
    g = position("progress", buildings={"design_office": 1}, deck=["farm"], discard={})
    asked = place(g, "design_office", "farm")
    assert asked[0].options == ["farm", CI]
    assert dict(g.players[0].hand) == {"farm": 1}
    assert not g.discard and g.deck == []


def test_design_office_with_no_cards_anywhere_keeps_an_item():
    g = position("progress", buildings={"design_office": 1}, deck=[], discard={})
    asked = place(g, "design_office", CI)
    assert asked[0].options == [CI]
    assert dict(g.players[0].hand) == {CI: 1}


# ---------------------------------------------------------------------------- construction workplaces

def test_construction_company_pays_one_card_less():
    g = position("progress", buildings={"construction_company": 1},
                 hand={"factory": 1, "farm": 1, CI: 1})
    asked = place(g, "construction_company", "factory", "farm")
    assert asked[0].kind == BUILD and asked[0].options == ["farm", "factory"]
    assert [d.kind for d in asked] == [BUILD, DISCARD]
    p = g.players[0]
    assert dict(p.hand) == {CI: 1} and g.discard == Counter({"farm": 1})
    assert dict(p.buildings) == {"construction_company": 1, "factory": 1}


def test_construction_company_cost_1_building_costs_nothing():
    g = position("progress", buildings={"construction_company": 1}, hand={"farm": 1})
    assert not open_public(g, "carpenter")  # the Carpenter would need 1 more card
    asked = place(g, "construction_company", "farm")
    assert [d.kind for d in asked] == [BUILD]
    p = g.players[0]
    assert dict(p.hand) == {} and p.buildings["farm"] == 1 and not g.discard


def test_construction_company_not_when_even_the_reduced_cost_is_unpayable():
    g = position("progress", buildings={"construction_company": 1}, hand={"steel_mill": 1, CI: 2})
    assert "own:construction_company" not in options(g)
    g = position("progress", buildings={"construction_company": 1}, hand={"steel_mill": 1, CI: 3})
    place(g, "construction_company", "steel_mill", CI, CI, CI)
    assert g.players[0].buildings["steel_mill"] == 1 and g.players[0].hand_size() == 0


def test_settler_builds_agriculture_only_for_free():
    hand = {"farm": 1, "burnt_field": 1, "plantation": 1, "orchard": 1, "factory": 1,
            "mansion": 1, "design_office": 1}
    g = position("progress", buildings={"settler": 1}, hand=hand)
    asked = place(g, "settler", "plantation")
    assert asked[0].options == ["farm", "burnt_field", "orchard", "plantation"]
    assert [d.kind for d in asked] == [BUILD]
    p = g.players[0]
    assert Counter(p.hand) == Counter(hand) - Counter({"plantation": 1})
    assert dict(p.buildings) == {"settler": 1, "plantation": 1} and not g.discard


def test_settler_not_without_agriculture_building_in_hand():
    g = position("progress", buildings={"settler": 1}, hand={"factory": 1, "coffee_shop": 1, CI: 5})
    assert "own:settler" not in options(g)


def test_general_contractor_builds_then_draws_2():
    g = position("progress", buildings={"general_contractor": 1}, hand={"factory": 1, CI: 2},
                 deck=["mansion", "railway", "farm"])
    asked = place(g, "general_contractor", "factory", CI, CI)
    assert [d.kind for d in asked] == [BUILD, DISCARD, DISCARD]
    p = g.players[0]
    assert dict(p.hand) == {"mansion": 1, "railway": 1}
    assert p.buildings["factory"] == 1 and g.deck == ["farm"]


def test_general_contractor_cannot_pay_with_the_cards_drawn_after():
    g = position("progress", buildings={"general_contractor": 1}, hand={"factory": 1, CI: 1},
                 deck=["mansion", "railway"])
    assert "own:general_contractor" not in options(g)


def test_double_city_builds_two_of_equal_cost_paying_one_cost():
    g = position("progress", buildings={"double_city": 1},
                 hand={"factory": 1, "warehouse": 1, "steel_mill": 1, CI: 2})
    asked = place(g, "double_city", "factory+warehouse", CI, CI)
    assert asked[0].options == ["factory+warehouse"]
    assert [d.kind for d in asked] == [BUILD, DISCARD, DISCARD]
    p = g.players[0]
    assert dict(p.hand) == {"steel_mill": 1}
    assert dict(p.buildings) == {"double_city": 1, "factory": 1, "warehouse": 1}


def test_double_city_two_copies_of_one_card():
    g = position("progress", buildings={"double_city": 1}, hand={"farm": 2, CI: 1})
    asked = place(g, "double_city", "farm+farm", CI)
    assert asked[0].options == ["farm+farm"]
    assert g.players[0].buildings["farm"] == 2 and g.players[0].hand_size() == 0


@pytest.mark.parametrize("hand", [
    {"farm": 1, "factory": 1, CI: 5},  # different costs
    {"farm": 1, CI: 5},  # only one building
    {"factory": 1, "orchard": 1, CI: 1},  # cost 2 with 1 card left
])
def test_double_city_not_usable(hand):
    g = position("progress", buildings={"double_city": 1}, hand=hand)
    assert "own:double_city" not in options(g)


def test_carpenter_builds_at_full_cost():
    g = position("progress", hand={"farm": 1, "factory": 1, CI: 2})
    asked = place(g, "carpenter", "factory", CI, "farm")
    assert asked[0].options == ["farm", "factory"]
    p = g.players[0]
    assert dict(p.buildings) == {"factory": 1} and dict(p.hand) == {CI: 1}
    assert g.discard == Counter({"farm": 1})


def test_carpenter_not_when_nothing_is_payable():
    g = position("progress", hand={"factory": 1, CI: 1})
    assert not open_public(g, "carpenter")


@pytest.mark.parametrize("n,copies", [(1, 1), (2, 1), (3, 2), (4, 3)])
def test_carpenter_copies_by_player_count_each_single_occupancy(n, copies):
    g = position("progress", n=n, hand={"farm": 4, CI: 4}, workers=5)
    assert public_keys(g).count("carpenter") == copies
    used = set()
    for _ in range(copies):
        choice = open_public(g, "carpenter")[0]
        assert choice not in used
        used.add(choice)
        place_at(g, choice, "farm", CI)
    assert not open_public(g, "carpenter")
    assert g.players[0].buildings["farm"] == copies


# ---------------------------------------------------------------------------- Warehouse, Company House

@pytest.mark.parametrize("warehouses,limit", [(0, 5), (1, 9), (2, 13)])
def test_warehouse_hand_limit_at_payday(warehouses, limit):
    b = {"warehouse": warehouses} if warehouses else {}
    g = position("progress", buildings=b, hand={CI: limit}, money=10)
    assert payday(g) == []
    assert g.players[0].hand[CI] == limit
    g = position("progress", buildings=b, hand={CI: limit, "farm": 1}, money=10)
    asked = payday(g, "farm")
    assert [d.kind for d in asked] == [DISCARD] and asked[0].context["purpose"] == "hand_limit"
    assert dict(g.players[0].hand) == {CI: limit} and g.discard == Counter({"farm": 1})


def test_warehouse_built_this_round_counts_at_payday():
    g = position("progress", hand={"warehouse": 1, CI: 11}, money=10)
    place(g, "carpenter", "warehouse", CI, CI)
    assert payday(g) == []  # 9 cards, limit 9
    assert g.players[0].hand[CI] == 9


@pytest.mark.parametrize("houses,cap", [(0, 5), (1, 6), (2, 7)])
def test_company_house_worker_cap_with_school(houses, cap):
    b = {"company_house": houses} if houses else {}
    g = position("progress", buildings=b, workers=cap - 1)
    place(g, "school")
    p = g.players[0]
    assert p.workers == cap and p.training == 1
    g = position("progress", buildings=b, workers=cap)
    assert not open_public(g, "school")


def test_company_house_built_lets_school_hire_a_sixth():
    g = position("progress", hand={"company_house": 1, CI: 2}, workers=5)
    assert not open_public(g, "school")
    place(g, "carpenter", "company_house", CI, CI)
    place(g, "school")
    assert g.players[0].workers == 6


def test_company_house_high_school_still_only_up_to_4():
    g = position("progress", round=4, buildings={"company_house": 1}, workers=3)
    place(g, "high_school")
    assert g.players[0].workers == 4 and g.players[0].training == 1
    g = position("progress", round=4, buildings={"company_house": 2}, workers=4)
    assert not open_public(g, "high_school")


def test_company_house_university_still_only_up_to_5():
    g = position("progress", round=6, buildings={"company_house": 2}, workers=3)
    place(g, "university")
    assert g.players[0].workers == 5 and g.players[0].training == 2
    g = position("progress", round=6, buildings={"company_house": 2}, workers=5)
    assert not open_public(g, "university")


def test_company_house_technical_college_hires_the_temp_worker():
    g = position("progress", round=8, buildings={"company_house": 1}, workers=5)
    place(g, "technical_college")
    assert g.players[0].workers == 6 and g.players[0].training == 0
    g = position("progress", round=8, buildings={"company_house": 1}, workers=6)
    assert not open_public(g, "technical_college")


# ---------------------------------------------------------------------------- end-game bonuses

def test_law_office_forgives_up_to_5_unpaid_cards():
    s = score({"law_office": 1}, unpaid=7, money=4)
    assert s.unpaid_wages == 2 and s.unpaid_penalty == 6
    assert s.total == 8 + 4 - 6
    s = score({"law_office": 1}, unpaid=3)
    assert s.unpaid_wages == 0 and s.unpaid_penalty == 0 and s.total == 8
    assert score({"farm": 1}, unpaid=3).total == 6 - 9


def test_real_estate_3_per_building_itself_included():
    s = score({"real_estate": 1, "farm": 2, "factory": 1})
    assert s.bonus_points == 12 and s.building_points == 10 + 12 + 12
    # each copy scores on its own (§14)
    assert score({"real_estate": 2, "farm": 1}).bonus_points == 2 * 3 * 3


def test_farmers_coop_3_per_consumer_item_in_hand():
    s = score({"farmers_coop": 1}, hand_size=6, items=4)
    assert s.bonus_points == 12 and s.total == 12 + 12


def test_farmers_coop_counts_hand_after_final_hand_limit():
    g = position("progress", round=9, buildings={"farmers_coop": 1}, hand={CI: 7}, money=10)
    payday(g, CI, CI)
    s = score_game(g)[0]
    assert s.bonus_points == 15 and s.money == 0


def test_mansion_points_only():
    s = score({"mansion": 1})
    assert s.building_points == 28 and s.bonus_points == 0 and s.total == 28


def test_labor_union_6_per_worker():
    s = score({"labor_union": 1}, workers=4)
    assert s.building_points == 0 and s.bonus_points == 24


def test_labor_union_counts_worker_in_training():
    g = position("progress", buildings={"labor_union": 1}, money=0)
    place(g, "school")
    assert g.players[0].training == 1
    assert score_game(g)[0].bonus_points == 18


def test_head_office_building_6_per_no_sale_building_itself_and_burnt_field_included():
    s = score({"head_office_building": 1, "warehouse": 1, "burnt_field": 1, "farm": 1})
    assert s.bonus_points == 18 and s.building_points == 20 + 10 + 0 + 6  # §16.10, revised
    assert score({"head_office_building": 2, "farm": 3}).bonus_points == 2 * 6 * 2


def test_railway_8_per_industry_building():
    s = score({"railway": 1, "factory": 2, "steel_mill": 1, "chemical_plant": 1,
               "car_factory": 1, "farm": 1})
    assert s.bonus_points == 8 * 5
    assert score({"railway": 1}).bonus_points == 0


@pytest.mark.parametrize("key,value", [(b.key, b.asset_value) for b in PROGRESS.buildings])
def test_building_scores_its_asset_value(key, value):
    s = score({key: 1})
    assert s.building_points == value


# ---------------------------------------------------------------------------- Quarry

def test_quarry_draws_and_moves_the_marker_at_once():
    g = position("progress", n=3, deck=["mansion", "farm"])
    g.players[1].hand = Counter()
    place(g, "pub:0", seat=1)
    assert g.start_player == 1
    assert dict(g.players[1].hand) == {"mansion": 1} and g.deck == ["farm"]
    assert "pub:0" not in options(g)  # one placement per round


def test_quarry_holder_keeps_the_marker():
    g = position("progress", n=3, deck=["mansion"], hand={})
    place(g, "quarry")
    assert g.start_player == 0 and dict(g.players[0].hand) == {"mansion": 1}


def test_quarry_round_goes_on_clockwise_and_next_round_starts_with_new_holder():
    g = position("progress", n=3)
    mine = where(g, "mine")
    gen = g._action_phase()
    d = next(gen)
    seats = []
    answers = [mine, mine, "pub:0", mine, mine, mine]  # seat 2 takes the Quarry on its first turn
    try:
        for a in answers:
            assert d.kind == PLACE
            seats.append(d.seat)
            d = gen.send(a)
        pytest.fail("action phase did not end")
    except StopIteration:
        pass
    assert seats == [0, 1, 2, 0, 1, 2]
    assert g.start_player == 2
    g.players[0].placed = g.players[1].placed = g.players[2].placed = 0
    for wp in g.public:
        wp.placements = 0
    assert next(g._action_phase()).seat == 2


def test_quarry_new_holder_goes_first_at_payday():
    g = position("progress", n=3)
    place(g, "pub:0", seat=1)
    for p in g.players:
        p.hand = Counter({CI: 6})
    asked = payday(g, CI, CI, CI)
    assert [d.seat for d in asked] == [1, 2, 0]


def test_quarry_not_in_solo():
    g = position("progress", n=1)
    assert "quarry" not in public_keys(g)
    assert public_keys(g) == ["mine", "carpenter", "school", "farm"]


# ---------------------------------------------------------------------------- Mine, School

def test_mine_is_unlimited_even_for_one_player():
    g = position("progress", n=2, hand={}, workers=3, deck=["farm", "factory", "mansion", "orchard"])
    mine = where(g, "mine")
    place(g, "mine")
    place(g, mine, seat=1)
    place(g, "mine")
    assert mine in options(g) and mine in options(g, 1)
    place(g, "mine")
    assert dict(g.players[0].hand) == {"farm": 1, "mansion": 1, "orchard": 1}
    assert g.players[0].placed == 3 and g.players[0].on_mine


def test_school_hires_a_worker_in_training_paid_at_payday():
    g = position("progress", money=10, budget=0)
    place(g, "school")
    p = g.players[0]
    assert p.workers == 3 and p.training == 1 and p.units_left() == 1
    assert not open_public(g, "school", seat=1)  # one placement per round
    place(g, "mine")
    assert p.units_left() == 0 and options(g) == []
    payday(g)
    assert p.money == 10 - 3 * 2 and g.budget == 6 + 4  # seat 1 pays for its 2 workers
    assert p.training == 0 and p.units_left() == 3


def test_school_not_at_the_cap():
    g = position("progress", workers=5)
    assert not open_public(g, "school")


# ---------------------------------------------------------------------------- High School, University, Technical College

@pytest.mark.parametrize("have,hired", [(2, 2), (3, 1)])
def test_high_school_hires_up_to_4(have, hired):
    g = position("progress", round=4, workers=have)
    place(g, "high_school")
    p = g.players[0]
    assert p.workers == 4 and p.training == hired and p.units_left() == have - 1


@pytest.mark.parametrize("have", [4, 5])
def test_high_school_not_with_4_or_more(have):
    g = position("progress", round=4, workers=have)
    assert not open_public(g, "high_school")


@pytest.mark.parametrize("have,hired", [(2, 3), (3, 2), (4, 1)])
def test_university_hires_up_to_5(have, hired):
    g = position("progress", round=6, workers=have, money=50)
    place(g, "university")
    p = g.players[0]
    assert p.workers == 5 and p.training == hired and p.units_left() == have - 1
    payday(g)
    assert p.money == 50 - 5 * 4


def test_high_school_counts_workers_in_training():
    g = position("progress", round=4, workers=3, training=1)
    place(g, "high_school")
    assert g.players[0].workers == 4 and g.players[0].training == 2


def test_university_not_with_5():
    g = position("progress", round=6, workers=5)
    assert not open_public(g, "university")


def test_technical_college_worker_placeable_this_round():
    g = position("progress", round=8, workers=2, money=20)
    place(g, "technical_college")
    p = g.players[0]
    assert p.workers == 3 and p.training == 0 and p.units_left() == 2
    place(g, "mine")
    place(g, "mine")
    assert p.units_left() == 0
    payday(g)
    assert p.money == 20 - 3 * 5


def test_technical_college_not_at_the_cap():
    g = position("progress", round=8, workers=5)
    assert not open_public(g, "technical_college")


# ---------------------------------------------------------------------------- Stall family

SALES = [("stall", 1, 6), ("market", 2, 12), ("supermarket", 3, 18),
         ("department_store", 4, 24), ("world_expo", 5, 30)]


@pytest.mark.parametrize("key,cards,money", SALES)
def test_sales_workplace_discards_and_takes_from_budget(key, cards, money):
    g = position("progress", round=9, budget=money, money=1, hand={"farm": 1, CI: cards})
    asked = place(g, key, "farm", *[CI] * (cards - 1))
    assert [d.kind for d in asked] == [DISCARD] * cards
    p = g.players[0]
    assert p.money == 1 + money and g.budget == 0
    assert dict(p.hand) == {CI: 1} and g.discard == Counter({"farm": 1})


@pytest.mark.parametrize("key,cards,money", SALES)
def test_sales_workplace_needs_the_full_amount_in_budget(key, cards, money):
    g = position("progress", round=9, budget=money - 1, hand={CI: cards})
    assert not open_public(g, key)


@pytest.mark.parametrize("key,cards,money", SALES)
def test_sales_workplace_needs_the_cards(key, cards, money):
    g = position("progress", round=9, budget=100, hand={CI: cards - 1})
    assert not open_public(g, key)


@pytest.mark.parametrize("key,cards,money", SALES)
@pytest.mark.parametrize("n", [1, 2])
def test_sales_workplace_once_per_round_at_1_2_players(key, cards, money, n):
    g = position("progress", n=n, round=9, budget=100, hand={CI: 3 * cards}, workers=3)
    place(g, key, *[CI] * cards)
    assert not open_public(g, key)
    if n == 2:
        g.players[1].hand = Counter({CI: cards})
        assert not open_public(g, key, seat=1)


@pytest.mark.parametrize("key,cards,money", SALES)
@pytest.mark.parametrize("n", [3, 4])
def test_sales_workplace_unlimited_at_3_4_players(key, cards, money, n):
    g = position("progress", n=n, round=9, budget=100, hand={CI: 2 * cards}, workers=3)
    choice = where(g, key)
    place(g, key, *[CI] * cards)
    place(g, key, *[CI] * cards)
    g.players[1].hand = Counter({CI: cards})
    place(g, choice, *[CI] * cards, seat=1)
    assert g.players[0].money == 5 + 2 * money and g.players[1].money == 6 + money
    assert g.budget == 100 - 3 * money


def test_relics_workplace_is_not_in_progress():
    for n in (1, 2, 3, 4):
        assert "relics_workplace" not in public_keys(position("progress", n=n, round=9))
