"""Every Mecenat building: its workplace effect, when it may not be used, its cost rule or its
end-game bonus. Expected values come from the revival rulebook's card list and RULES-NOTES."""

from collections import Counter

import pytest

from harness import CI, data, options, payday, place, position
from nesim.reference.decisions import BUILD, DISCARD
from nesim.reference.scoring import score_player

M = "mecenat"
LOCKS = ["graveyard", "old_district", "accounting_office", "railway_station", "botanical_garden",
         "export_port", "museum", "investment_bank", "cathedral"]


def pos(**kw):
    kw.setdefault("money", 0)
    return position(M, n=2, **kw)


def me(g):
    return g.players[0]


def score(buildings, hand=0, items=0, vp=0, money=0, workers=2, unpaid=0):
    return score_player(data(M), buildings, hand, items, workers, vp, money, unpaid)


def cost(g, key):
    return g.current_cost(me(g), key)


# ---------------------------------------------------------------- the data the rules print

def test_every_mecenat_building_is_covered_and_the_deck_has_73_cards():
    keys = {b.key for b in data(M).buildings}
    assert len(keys) == 27 and data(M).deck_size() == 73
    assert {b.key for b in data(M).buildings if b.facility} == set(LOCKS)


@pytest.mark.parametrize("key,value", [("graveyard", 8), ("railway_station", 18),
                                       ("investment_bank", 30), ("export_port", 24),
                                       ("botanical_garden", 22)])
def test_asset_values_printed_in_the_mecenat_rulebook(key, value):
    assert data(M).building(key).asset_value == value


# ---------------------------------------------------------------- lock buildings (all nine)

@pytest.mark.parametrize("key", LOCKS)
def test_lock_building_can_never_take_a_worker(key):
    g = pos(hand={CI: 3}, buildings={key: 1}, budget=50, vp=9)
    assert f"own:{key}" not in options(g)


@pytest.mark.parametrize("key", LOCKS)
def test_lock_building_is_never_sold_at_payday(key):
    g = pos(round=9, money=0, buildings={key: 1, "potato_field": 1})
    assert g.sale_options(me(g), 10) == [("potato_field",)]
    payday(g, ("potato_field",))  # 2 workers x $5: sells the field for 6, 4 unpaid
    assert dict(me(g).buildings) == {key: 1} and me(g).unpaid == 4 and me(g).money == 0


# ---------------------------------------------------------------- Potato Field

@pytest.mark.parametrize("hand,taken", [({}, 3), ({CI: 1}, 2), ({"museum": 1, CI: 1}, 1)])
def test_potato_field_fills_the_hand_to_three_cards(hand, taken):
    g = pos(hand=hand, buildings={"potato_field": 1}, deck=["museum"])
    assert place(g, "potato_field") == []
    assert me(g).hand == Counter(hand) + Counter({CI: taken})
    assert g.deck == ["museum"]  # consumer items, never building cards


@pytest.mark.parametrize("hand", [{CI: 3}, {"museum": 2, CI: 2}])
def test_potato_field_is_forbidden_with_three_or_more_cards(hand):
    g = pos(hand=hand, buildings={"potato_field": 1})
    assert "own:potato_field" not in options(g)


# ---------------------------------------------------------------- Ironwork

def test_ironwork_draws_two_after_own_unit_on_the_mine():
    g = pos(hand={}, buildings={"ironwork": 1}, deck=["museum", "lottery", "cathedral", "shipyard"])
    assert "own:ironwork" not in options(g)
    place(g, "mine")
    assert "own:ironwork" in options(g)
    place(g, "ironwork")
    assert me(g).hand == Counter({"museum": 1, "lottery": 1, "cathedral": 1})
    assert g.deck == ["shipyard"]


def test_ironwork_ignores_another_players_unit_on_the_mine():
    g = pos(hand={}, buildings={"ironwork": 1}, deck=["museum"] * 5)
    place(g, "pub:1", seat=1)  # seat 1 on the Mine
    assert "own:ironwork" not in options(g)


def test_ironwork_mine_condition_resets_at_payday():
    g = pos(money=20, hand={}, buildings={"ironwork": 1}, on_mine=True, deck=["museum"] * 5)
    assert "own:ironwork" in options(g)
    payday(g)
    assert "own:ironwork" not in options(g)


# ---------------------------------------------------------------- Temple Carpenter

def test_temple_carpenter_builds_at_full_cost_then_takes_a_vp_token():
    g = pos(hand={"food_factory": 1, "museum": 1, CI: 1}, buildings={"temple_carpenter": 1}, vp=2)
    asked = place(g, "temple_carpenter", "food_factory", "museum", CI)
    assert [d.kind for d in asked] == [BUILD, DISCARD, DISCARD]
    assert me(g).buildings == Counter({"temple_carpenter": 1, "food_factory": 1})
    assert me(g).vp == 3 and me(g).hand == Counter() and g.discard == Counter({"museum": 1})


def test_temple_carpenter_token_is_too_late_for_that_cathedral():
    g = pos(hand={"cathedral": 1, CI: 9}, buildings={"temple_carpenter": 1}, vp=4)
    assert cost(g, "cathedral") == 10
    assert "own:temple_carpenter" not in options(g)  # 9 cards cannot pay 10
    me(g).hand[CI] = 10
    asked = place(g, "temple_carpenter", "cathedral", *[CI] * 10)
    assert len(asked) == 11 and me(g).vp == 5 and me(g).hand == Counter()
    assert me(g).buildings["cathedral"] == 1


def test_temple_carpenter_with_five_tokens_already_builds_the_cathedral_for_six():
    g = pos(hand={"cathedral": 1, CI: 6}, buildings={"temple_carpenter": 1}, vp=5)
    place(g, "temple_carpenter", "cathedral", *[CI] * 6)
    assert me(g).vp == 6 and me(g).hand == Counter() and me(g).buildings["cathedral"] == 1


def test_temple_carpenter_needs_a_buildable_card():
    g = pos(hand={CI: 4}, buildings={"temple_carpenter": 1})
    assert "own:temple_carpenter" not in options(g)


# ---------------------------------------------------------------- Cafeteria, Amusement Park

@pytest.mark.parametrize("key,cards,money", [("cafeteria", 1, 8), ("amusement_park", 2, 25)])
def test_discard_for_money_from_the_budget(key, cards, money):
    g = pos(money=3, hand={"museum": cards, CI: 1}, buildings={key: 1}, budget=money + 1)
    asked = place(g, key, *["museum"] * cards)
    assert [d.kind for d in asked] == [DISCARD] * cards
    assert me(g).money == 3 + money and g.budget == 1
    assert me(g).hand == Counter({CI: 1}) and g.discard == Counter({"museum": cards})


@pytest.mark.parametrize("key,cards,money", [("cafeteria", 1, 8), ("amusement_park", 2, 25)])
def test_discard_for_money_needs_the_whole_amount_and_the_cards(key, cards, money):
    g = pos(hand={CI: cards}, buildings={key: 1}, budget=money - 1)
    assert f"own:{key}" not in options(g)
    g = pos(hand={CI: cards - 1}, buildings={key: 1}, budget=money)
    assert f"own:{key}" not in options(g)
    g = pos(hand={CI: cards}, buildings={key: 1}, budget=money)
    assert f"own:{key}" in options(g)


# ---------------------------------------------------------------- Graveyard

def test_graveyard_adds_eight_with_an_empty_final_hand():
    s = score({"graveyard": 1}, hand=0)
    assert (s.building_points, s.bonus_points, s.total) == (8, 8, 16)


@pytest.mark.parametrize("hand,items", [(1, 1), (1, 0)])
def test_graveyard_adds_nothing_with_any_card_in_hand(hand, items):
    s = score({"graveyard": 1}, hand=hand, items=items)
    assert (s.bonus_points, s.total) == (0, 8)


def test_graveyard_reads_the_hand_after_the_last_hand_limit_step():
    g = pos(round=9, money=10, hand={}, buildings={"graveyard": 2})
    payday(g)
    from nesim.reference.scoring import score_game
    s = score_game(g)[0]
    assert s.building_points == 16 and s.bonus_points == 16 and s.total == 32


# ---------------------------------------------------------------- Vegetable Garden, Laboratory

def test_vegetable_garden_takes_two_items_and_a_vp_token():
    g = pos(hand={"museum": 1}, buildings={"vegetable_garden": 1}, vp=1, deck=["lottery"])
    place(g, "vegetable_garden")
    assert me(g).hand == Counter({"museum": 1, CI: 2}) and me(g).vp == 2 and g.deck == ["lottery"]


def test_laboratory_draws_two_buildings_and_takes_a_vp_token():
    g = pos(hand={}, buildings={"laboratory": 1}, vp=0, deck=["museum", "cathedral", "lottery"])
    place(g, "laboratory")
    assert me(g).hand == Counter({"museum": 1, "cathedral": 1}) and me(g).vp == 1
    assert g.deck == ["lottery"]


# ---------------------------------------------------------------- Lottery

@pytest.mark.parametrize("budget", [20, 27])
def test_lottery_nets_ten_and_the_budget_loses_ten(budget):
    g = pos(money=4, hand={}, buildings={"lottery": 1}, budget=budget)
    assert place(g, "lottery") == []
    assert me(g).money == 14 and g.budget == budget - 10


def test_lottery_needs_twenty_in_the_budget():
    g = pos(money=50, hand={}, buildings={"lottery": 1}, budget=19)
    assert "own:lottery" not in options(g)


def test_sold_lottery_in_the_general_workplace_works_for_anyone():
    g = pos(money=0, hand={}, budget=20, public=["lottery"])
    place(g, "lottery")
    assert me(g).money == 10 and g.budget == 10


# ---------------------------------------------------------------- Building Company

def test_building_company_offers_only_lock_buildings_then_draws_two():
    g = pos(hand={"museum": 1, "potato_field": 1, "food_factory": 1, CI: 3},
            buildings={"building_company": 1}, deck=["lottery", "shipyard", "cathedral"])
    asked = place(g, "building_company", "museum", "potato_field", "food_factory", CI, CI, CI)
    assert asked[0].options == ["museum"]
    assert me(g).buildings == Counter({"building_company": 1, "museum": 1})
    assert me(g).hand == Counter({"lottery": 1, "shipyard": 1}) and g.deck == ["cathedral"]
    assert g.discard == Counter({"potato_field": 1, "food_factory": 1})


def test_building_company_builds_old_district_as_a_lock_building():
    g = pos(hand={"old_district": 1, CI: 2}, buildings={"building_company": 1},
            deck=["lottery", "shipyard"])
    asked = place(g, "building_company", "old_district", CI, CI)
    assert asked[0].options == ["old_district"]
    assert me(g).buildings["old_district"] == 1
    assert me(g).hand == Counter({"lottery": 1, "shipyard": 1})


@pytest.mark.parametrize("hand", [{"potato_field": 1, "lottery": 1, CI: 5},  # no lock card
                                  {"museum": 1, CI: 4}])  # the 2 cards to draw cannot pay
def test_building_company_refused_without_a_buildable_lock_card(hand):
    g = pos(hand=hand, buildings={"building_company": 1}, deck=["lottery"] * 5)
    assert "own:building_company" not in options(g)


# ---------------------------------------------------------------- Old District

def test_old_district_counts_for_every_icon_condition():
    g = pos(buildings={"old_district": 1})
    assert cost(g, "food_factory") == 1  # agriculture
    assert cost(g, "industrial_park") == 4  # industry
    assert (g.count_icon(me(g), "agriculture"), g.count_icon(me(g), "industry"),
            g.count_icon(me(g), "facility")) == (1, 1, 1)


@pytest.mark.parametrize("buildings,bonus", [
    ({"botanical_garden": 1, "old_district": 1, "potato_field": 2}, 22),   # 3 agriculture
    ({"export_port": 1, "old_district": 1, "ironwork": 1}, 24),            # 2 industry
    ({"investment_bank": 1, "old_district": 1, "museum": 1, "graveyard": 1}, 30),  # 4 lock
])
def test_old_district_counts_for_end_game_bonuses(buildings, bonus):
    s = score(buildings, hand=1)
    assert s.bonus_points == bonus
    values = sum(n * data(M).building(k).asset_value for k, n in buildings.items())
    assert s.building_points == values and s.total == values + bonus


def test_old_district_is_worth_ten_and_is_unsellable():
    assert score({"old_district": 1}, hand=1).total == 10
    g = pos(buildings={"old_district": 1})
    assert g.sale_options(me(g), 5) == []


# ---------------------------------------------------------------- Food Factory

@pytest.mark.parametrize("buildings,expected", [({}, 2), ({"potato_field": 1}, 1),
                                                ({"vegetable_garden": 2, "brewery": 1}, 1),
                                                ({"old_district": 1}, 1),
                                                ({"ironwork": 1, "museum": 1}, 2)])
def test_food_factory_costs_one_less_with_an_agriculture_building(buildings, expected):
    assert cost(pos(buildings=buildings), "food_factory") == expected


def test_carpenter_builds_food_factory_for_one_card_with_a_fish_farm():
    g = pos(hand={"food_factory": 1, CI: 1}, buildings={"fish_farm": 1})
    asked = place(g, "carpenter", "food_factory", CI)
    assert [d.kind for d in asked] == [BUILD, DISCARD]
    assert me(g).buildings == Counter({"fish_farm": 1, "food_factory": 1}) and me(g).hand == Counter()


def test_food_factory_without_agriculture_needs_two_cards():
    g = pos(hand={"food_factory": 1, CI: 1}, buildings={"ironwork": 1})
    assert "pub:3" not in options(g)  # the Carpenter


def test_food_factory_discards_two_then_draws_four():
    g = pos(hand={"museum": 1, CI: 2}, buildings={"food_factory": 1},
            deck=["lottery", "shipyard", "cathedral", "laboratory", "brewery"])
    asked = place(g, "food_factory", "museum", CI)
    assert [d.kind for d in asked] == [DISCARD, DISCARD]
    assert me(g).hand == Counter({CI: 1, "lottery": 1, "shipyard": 1, "cathedral": 1,
                                  "laboratory": 1})
    assert g.deck == ["brewery"] and g.discard == Counter({"museum": 1})


# ---------------------------------------------------------------- Fish Farm

@pytest.mark.parametrize("hand,taken", [({CI: 1}, 3), ({"museum": 2, CI: 1}, 3),
                                        ({"museum": 2}, 2), ({}, 2)])
def test_fish_farm_takes_three_with_a_consumer_item_else_two(hand, taken):
    g = pos(hand=hand, buildings={"fish_farm": 1})
    place(g, "fish_farm")
    assert me(g).hand == Counter(hand) + Counter({CI: taken})


# ---------------------------------------------------------------- Prefab Home Builder

def test_prefab_home_builder_builds_value_ten_or_less_for_free():
    g = pos(hand={"vegetable_garden": 1, "old_district": 1, "food_factory": 1, "museum": 1},
            buildings={"prefab_home_builder": 1})
    asked = place(g, "prefab_home_builder", "vegetable_garden")
    assert asked[0].options == ["vegetable_garden", "old_district"]  # not 12 or 34
    assert [d.kind for d in asked] == [BUILD]  # no payment
    assert me(g).hand == Counter({"old_district": 1, "food_factory": 1, "museum": 1})
    assert me(g).buildings == Counter({"prefab_home_builder": 1, "vegetable_garden": 1})


def test_prefab_home_builder_with_only_an_empty_rest_of_hand():
    g = pos(hand={"graveyard": 1}, buildings={"prefab_home_builder": 1})
    place(g, "prefab_home_builder", "graveyard")
    assert me(g).hand == Counter() and me(g).buildings["graveyard"] == 1


def test_prefab_home_builder_refused_with_only_buildings_worth_more_than_ten():
    g = pos(hand={"food_factory": 1, "cathedral": 1, CI: 5}, buildings={"prefab_home_builder": 1})
    assert "own:prefab_home_builder" not in options(g)


# ---------------------------------------------------------------- Accounting Office, VP tokens

@pytest.mark.parametrize("tokens,points", [(1, 1), (2, 2), (3, 10), (4, 11), (5, 12), (6, 20),
                                           (7, 21)])
def test_vp_token_scoring_table(tokens, points):
    s = score({}, vp=tokens)
    assert s.vp_points == points and s.total == points


@pytest.mark.parametrize("tokens,points", [(0, 0), (4, 22), (3, 20), (7, 42)])
def test_accounting_office_doubles_vp_points(tokens, points):
    s = score({"accounting_office": 1}, vp=tokens, hand=1)
    assert s.vp_points == points and s.total == 12 + points


# ---------------------------------------------------------------- Farm Resort

def test_farm_resort_pays_four_per_item_and_keeps_the_items():
    g = pos(money=1, hand={CI: 3, "museum": 1}, buildings={"farm_resort": 1}, budget=13)
    assert place(g, "farm_resort") == []
    assert me(g).money == 13 and g.budget == 1 and me(g).hand == Counter({CI: 3, "museum": 1})


@pytest.mark.parametrize("hand,budget,usable", [({CI: 3}, 11, False), ({CI: 3}, 12, True),
                                                ({"museum": 2}, 0, True), ({}, 0, True)])
def test_farm_resort_refused_only_when_the_budget_cannot_pay(hand, budget, usable):
    g = pos(hand=hand, buildings={"farm_resort": 1}, budget=budget)
    assert ("own:farm_resort" in options(g)) == usable  # no item: pays $0 (§16.12, revised)


# ---------------------------------------------------------------- Railway Station

@pytest.mark.parametrize("buildings,bonus", [
    ({"railway_station": 1, "potato_field": 5}, 18),
    ({"railway_station": 1, "potato_field": 4}, 0),
    ({"railway_station": 2, "potato_field": 4}, 36),  # each copy scores on its own
])
def test_railway_station_adds_18_with_six_buildings_itself_included(buildings, bonus):
    s = score(buildings, hand=1)
    assert s.bonus_points == bonus
    assert s.total == 18 * buildings["railway_station"] + 6 * buildings["potato_field"] + bonus


# ---------------------------------------------------------------- Worldwide Building

def test_worldwide_building_pays_the_sum_and_draws_three_when_the_hand_empties():
    g = pos(hand={"potato_field": 1, "food_factory": 1, CI: 2, "museum": 1},
            buildings={"worldwide_building": 1}, deck=["lottery", "shipyard", "cathedral", "brewery"])
    asked = place(g, "worldwide_building", "potato_field+food_factory", CI, CI, "museum")
    assert [d.kind for d in asked] == [BUILD, DISCARD, DISCARD, DISCARD]  # 1 + 2: no reduction
    assert me(g).buildings == Counter({"worldwide_building": 1, "potato_field": 1, "food_factory": 1})
    assert me(g).hand == Counter({"lottery": 1, "shipyard": 1, "cathedral": 1})
    assert g.deck == ["brewery"] and g.discard == Counter({"museum": 1})


def test_worldwide_building_keeps_a_reduction_from_a_building_already_owned():
    g = pos(hand={"potato_field": 1, "food_factory": 1, CI: 3},
            buildings={"worldwide_building": 1, "fish_farm": 1}, deck=["lottery"] * 3)
    asked = place(g, "worldwide_building", "potato_field+food_factory", CI, CI)
    assert len(asked) == 3 and me(g).hand == Counter({CI: 1})  # not empty: no draw
    assert g.deck == ["lottery"] * 3


def test_worldwide_building_industry_built_alongside_does_not_reduce_industrial_park():
    g = pos(hand={"ironwork": 1, "industrial_park": 1, CI: 5},
            buildings={"worldwide_building": 1})
    assert "own:worldwide_building" not in options(g)  # 1 + 5 = 6 > 5 cards
    me(g).hand[CI] = 6
    asked = place(g, "worldwide_building", "ironwork+industrial_park", *[CI] * 6)
    assert len(asked) == 7 and me(g).buildings["industrial_park"] == 1


def test_worldwide_building_two_copies_and_an_empty_hand_after_cost_zero():
    g = pos(hand={"industrial_park": 2}, buildings={"worldwide_building": 1, "ironwork": 3,
                                                     "food_factory": 2},
            deck=["lottery", "shipyard", "cathedral"])
    asked = place(g, "worldwide_building", "industrial_park+industrial_park")
    assert asked[0].options == ["industrial_park+industrial_park"] and len(asked) == 1
    assert me(g).buildings["industrial_park"] == 2
    assert me(g).hand == Counter({"lottery": 1, "shipyard": 1, "cathedral": 1})


@pytest.mark.parametrize("hand", [{"potato_field": 1, CI: 5},  # one building only
                                  {"potato_field": 1, "lottery": 1, CI: 2}])  # 1 + 2 > 2
def test_worldwide_building_needs_two_buildings_and_their_summed_cost(hand):
    g = pos(hand=hand, buildings={"worldwide_building": 1})
    assert "own:worldwide_building" not in options(g)


# ---------------------------------------------------------------- Brewery

def test_brewery_items_are_not_in_hand_this_round_and_escape_the_hand_limit():
    g = pos(round=3, money=10, hand={CI: 5}, buildings={"brewery": 1, "farm_resort": 1}, budget=40)
    assert place(g, "brewery") == []
    assert me(g).hand == Counter({CI: 5}) and me(g).brewery == 4
    place(g, "farm_resort")
    assert me(g).money == 10 + 20  # 5 items in hand, not 9
    assert payday(g) == []  # 5 cards: no hand-limit discard
    g.round = 4
    g._start_round("high_school")
    assert me(g).hand == Counter({CI: 9}) and me(g).brewery == 0


def test_brewery_hand_limit_counts_only_the_hand():
    g = pos(round=3, money=10, hand={CI: 6}, buildings={"brewery": 1})
    place(g, "brewery")
    asked = payday(g, CI)
    assert [d.kind for d in asked] == [DISCARD] and asked[0].context["purpose"] == "hand_limit"
    g.round = 4
    g._start_round("high_school")
    assert me(g).hand == Counter({CI: 5 + 4})


def test_brewery_items_still_arrive_after_the_brewery_is_sold():
    g = pos(round=3, money=0, hand={}, buildings={"brewery": 1})
    place(g, "brewery")
    payday(g, ("brewery",))  # owes $6: sells the Brewery for 18
    assert me(g).money == 12 and not me(g).buildings["brewery"]
    g.round = 4
    g._start_round("high_school")
    assert me(g).hand == Counter({CI: 4})


def test_brewery_is_usable_in_every_round_nine_included():
    for rnd in (1, 8, 9):  # round 9 too (§16.11, revised): see test_revised_rulings.py
        assert "own:brewery" in options(pos(round=rnd, hand={}, buildings={"brewery": 1}))


# ---------------------------------------------------------------- Shipyard

def test_shipyard_discards_three_then_draws_six():
    deck = ["lottery", "shipyard", "cathedral", "laboratory", "brewery", "museum", "graveyard"]
    g = pos(hand={"museum": 1, CI: 2}, buildings={"shipyard": 1}, deck=deck)
    asked = place(g, "shipyard", "museum", CI, CI)
    assert [d.kind for d in asked] == [DISCARD] * 3
    assert me(g).hand == Counter(deck[:6]) and g.deck == ["graveyard"]
    assert g.discard == Counter({"museum": 1})


def test_shipyard_refused_with_fewer_than_three_cards():
    g = pos(hand={CI: 2}, buildings={"shipyard": 1})
    assert "own:shipyard" not in options(g)


# ---------------------------------------------------------------- draw cards

@pytest.mark.parametrize("key,n", [("industrial_park", 3), ("petrochemical_complex", 4)])
def test_draw_buildings(key, n):
    deck = ["lottery", "shipyard", "cathedral", "laboratory", "brewery"]
    g = pos(hand={CI: 1}, buildings={key: 1}, deck=deck)
    assert place(g, key) == []
    assert me(g).hand == Counter(deck[:n]) + Counter({CI: 1})
    assert g.deck == list(reversed(deck[n:]))  # g.deck keeps its top card last


# ---------------------------------------------------------------- Botanical Garden, Export Port

@pytest.mark.parametrize("buildings,bonus", [
    ({"botanical_garden": 1, "potato_field": 1, "fish_farm": 1, "brewery": 1}, 22),
    ({"botanical_garden": 1, "potato_field": 2}, 0),
    ({"botanical_garden": 1, "potato_field": 3}, 22),
])
def test_botanical_garden_adds_22_with_three_agriculture_buildings(buildings, bonus):
    s = score(buildings, hand=1)
    assert s.bonus_points == bonus
    assert s.building_points == sum(n * data(M).building(k).asset_value for k, n in buildings.items())


@pytest.mark.parametrize("buildings,bonus", [
    ({"export_port": 1, "ironwork": 1, "shipyard": 1}, 24),
    ({"export_port": 1, "ironwork": 1, "potato_field": 3}, 0),
    ({"export_port": 1, "food_factory": 2}, 24),
])
def test_export_port_adds_24_with_two_industry_buildings(buildings, bonus):
    assert score(buildings, hand=1).bonus_points == bonus


# ---------------------------------------------------------------- Industrial Park

@pytest.mark.parametrize("buildings,expected", [({}, 5), ({"ironwork": 1}, 4),
                                                ({"ironwork": 1, "shipyard": 1, "potato_field": 2}, 3),
                                                ({"food_factory": 5}, 0),
                                                ({"food_factory": 4, "ironwork": 3}, 0)])
def test_industrial_park_costs_one_less_per_industry_building_not_below_zero(buildings, expected):
    assert cost(pos(buildings=buildings), "industrial_park") == expected


def test_carpenter_builds_industrial_park_for_nothing_with_five_industry():
    g = pos(hand={"industrial_park": 1, CI: 1}, buildings={"food_factory": 3, "ironwork": 2})
    asked = place(g, "carpenter", "industrial_park")
    assert [d.kind for d in asked] == [BUILD]
    assert me(g).hand == Counter({CI: 1}) and me(g).buildings["industrial_park"] == 1


# ---------------------------------------------------------------- Museum

def test_museum_scores_34_points_and_nothing_more():
    s = score({"museum": 1}, hand=0)
    assert (s.building_points, s.bonus_points, s.total) == (34, 0, 34)


# ---------------------------------------------------------------- Investment Bank

@pytest.mark.parametrize("buildings,bonus", [
    ({"investment_bank": 1, "museum": 1, "graveyard": 1, "cathedral": 1}, 30),
    ({"investment_bank": 1, "museum": 1, "graveyard": 1, "potato_field": 3}, 0),
])
def test_investment_bank_adds_30_with_four_lock_buildings_itself_included(buildings, bonus):
    s = score(buildings, hand=1)
    assert s.bonus_points == bonus
    assert s.total == sum(n * data(M).building(k).asset_value for k, n in buildings.items()) + bonus


# ---------------------------------------------------------------- Cathedral

@pytest.mark.parametrize("vp,expected", [(0, 10), (4, 10), (5, 6), (9, 6)])
def test_cathedral_costs_four_less_with_five_vp_tokens(vp, expected):
    assert cost(pos(vp=vp), "cathedral") == expected


def test_carpenter_builds_cathedral_for_six_without_spending_tokens():
    g = pos(hand={"cathedral": 1, CI: 6}, vp=5)
    asked = place(g, "carpenter", "cathedral", *[CI] * 6)
    assert len(asked) == 7 and me(g).vp == 5 and me(g).hand == Counter()
    assert me(g).buildings == Counter({"cathedral": 1})


def test_cathedral_with_four_tokens_cannot_be_built_from_six_cards():
    g = pos(hand={"cathedral": 1, CI: 6}, vp=4)
    assert "pub:3" not in options(g)


def test_cathedral_scores_fifty():
    assert score({"cathedral": 1}, hand=1).total == 50
