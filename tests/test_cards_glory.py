"""Every Glory building and the Relics initial workplace: workplace effects, when they may not be
used, cost rules, on-build effects and end-game bonuses, on constructed positions.

Expected values come from the revival rulebook's Glory card list and RULES-NOTES.md (§n), with its
Project rulings. Public row of a 2-player Glory game: Quarry, Mine, School, Carpenter, Relics.
Round 1 pays $2 per worker.
"""

from __future__ import annotations

from collections import Counter

import pytest

from harness import CI, data, drive, options, payday, place, position
from nesim.reference.decisions import BUILD, DISCARD, MODE, PLACE
from nesim.reference.engine import Game
from nesim.reference.scoring import score_game, score_player

G = "glory"
GLORY = data(G)
LOCKS = ["relics", "consumers_union", "monument", "mechanical_doll", "guild_hall", "ivory_tower",
         "revolution_square", "tech_expo", "harvest_festival", "temple"]


# ---------------------------------------------------------------- local helpers

def pos(n=2, **kw):
    """A Glory position whose seat 0 starts with an empty hand and no money unless given."""
    kw.setdefault("hand", {})
    kw.setdefault("money", 0)
    return position(G, n=n, **kw)


def me(g):
    return g.players[0]


def cost(g, key):
    return g.current_cost(me(g), key)


def score(buildings, *, hand=0, items=0, workers=2, vp=0, money=0, unpaid=0):
    return score_player(GLORY, buildings, hand, items, workers, vp, money, unpaid)


def top_first(g):
    """The deck, top card first (as ``position`` takes it)."""
    return list(reversed(g.deck))


def public_keys(g):
    return [wp.key for wp in g.public]


def open_public(g, key, seat=0):
    return [o for o in options(g, seat) if o.startswith("pub:") and g.public[int(o[4:])].key == key]


# ---------------------------------------------------------------- the card table

def test_glory_has_26_building_types_71_cards_and_10_locks():
    assert len(GLORY.buildings) == 26 and GLORY.deck_size() == 71
    assert {b.key for b in GLORY.buildings if b.facility} == set(LOCKS)
    assert {b.key for b in GLORY.buildings if b.workers_needed == 2} == {
        "cotton_farm", "coal_mine", "transporter"}


# ---------------------------------------------------------------- lock buildings (all ten)

@pytest.mark.parametrize("key", LOCKS)
def test_lock_building_never_takes_a_worker_or_doll(key):
    g = pos(hand={CI: 5}, buildings={key: 1}, budget=50, vp=9, dolls=1)
    assert f"own:{key}" not in options(g)
    assert all(o.startswith("pub:") for o in options(g))


@pytest.mark.parametrize("key", LOCKS)
def test_lock_building_is_never_sold_at_payday(key):
    g = pos(round=9, buildings={key: 1, "farm_village": 1})
    assert g.sale_options(me(g), 10) == [("farm_village",)]
    payday(g, ("farm_village",))  # owes 2 x $5; the farm village sells for $6, 4 unpaid
    assert dict(me(g).buildings) == {key: 1} and me(g).money == 0 and me(g).unpaid == 4


# ---------------------------------------------------------------- Relics (building)

def test_relics_costs_nothing_and_gives_2_vp_when_built():
    g = pos(hand={"relics": 1})
    assert cost(g, "relics") == 0
    asked = place(g, "carpenter", "relics")
    assert [d.kind for d in asked] == [BUILD]  # no payment asked
    p = me(g)
    assert dict(p.buildings) == {"relics": 1} and p.hand == Counter() and p.vp == 2
    assert g.discard == Counter()


def test_relics_vp_are_taken_once_not_again_at_payday_or_later():
    g = pos(hand={"relics": 1}, vp=1, money=4)
    place(g, "carpenter", "relics")
    payday(g)
    assert me(g).vp == 3 and me(g).money == 0
    assert "own:relics" not in options(g)


def test_each_relics_copy_gives_its_own_2_vp():
    g = pos(hand={"relics": 2}, buildings={"transporter": 1}, workers=3)
    place(g, "carpenter", "relics")
    place(g, "transporter", "relics")
    assert me(g).buildings["relics"] == 2 and me(g).vp == 4


# ---------------------------------------------------------------- Farm Village

def test_farm_village_items_mode_takes_2_items():
    g = pos(hand={"monument": 1}, buildings={"farm_village": 1}, deck=["temple"])
    asked = place(g, "farm_village", "items")
    assert asked[0].kind == MODE and asked[0].options == ["items"]  # 0 items: no draw mode
    assert me(g).hand == Counter({"monument": 1, CI: 2}) and top_first(g) == ["temple"]


def test_farm_village_draw_mode_discards_exactly_2_items_and_draws_3():
    g = pos(hand={CI: 3, "monument": 1}, buildings={"farm_village": 1},
            deck=["temple", "relics", "smelter", "colony"])
    asked = place(g, "farm_village", "draw")
    assert [d.kind for d in asked] == [MODE] and asked[0].options == ["items", "draw"]
    assert me(g).hand == Counter({CI: 1, "monument": 1, "temple": 1, "relics": 1, "smelter": 1})
    assert top_first(g) == ["colony"] and g.discard == Counter()  # items go back to the supply


@pytest.mark.parametrize("hand", [{CI: 1, "monument": 3}, {"monument": 2}])
def test_farm_village_draw_mode_needs_2_consumer_items(hand):
    g = pos(hand=hand, buildings={"farm_village": 1})
    asked = place(g, "farm_village", "items")
    assert asked[0].options == ["items"]
    assert me(g).hand == Counter(hand) + Counter({CI: 2})


# ---------------------------------------------------------------- Colony

def test_colony_builds_at_full_cost_then_takes_an_item():
    g = pos(hand={"workshop": 1, "monument": 1, CI: 1}, buildings={"colony": 1})
    asked = place(g, "colony", "workshop", CI)
    assert asked[0].options == ["workshop"]  # the monument (cost 3) cannot be paid
    p = me(g)
    assert p.buildings == Counter({"colony": 1, "workshop": 1})
    assert p.hand == Counter({"monument": 1, CI: 1})  # the new item, after the build
    assert g.discard == Counter()


def test_colony_cannot_pay_with_the_item_it_gives_after():
    g = pos(hand={"workshop": 1}, buildings={"colony": 1})
    assert "own:colony" not in options(g)


# ---------------------------------------------------------------- Workshop

def test_workshop_draws_1_and_takes_1_vp():
    g = pos(hand={CI: 1}, buildings={"workshop": 1}, deck=["temple", "monument"], vp=2)
    assert place(g, "workshop") == []
    assert me(g).hand == Counter({CI: 1, "temple": 1}) and me(g).vp == 3
    assert top_first(g) == ["monument"]


# ---------------------------------------------------------------- Steam Factory / Locomotive Factory

@pytest.mark.parametrize("key,vp,expected", [
    ("steam_factory", 0, 2), ("steam_factory", 1, 2), ("steam_factory", 2, 1), ("steam_factory", 9, 1),
    ("smelter", 2, 5), ("smelter", 3, 3),
    ("greenhouse", 3, 6), ("greenhouse", 4, 4),
    ("locomotive_factory", 4, 7), ("locomotive_factory", 5, 4),
])
def test_vp_cost_reduction(key, vp, expected):
    assert cost(pos(vp=vp), key) == expected


@pytest.mark.parametrize("key,vp_needed,reduced", [("steam_factory", 2, 1), ("smelter", 3, 3),
                                                   ("greenhouse", 4, 4), ("locomotive_factory", 5, 4)])
def test_vp_reduced_building_is_built_for_the_reduced_cost_and_not_below_it(key, vp_needed, reduced):
    g = pos(hand={key: 1, CI: reduced}, vp=vp_needed)
    asked = place(g, "carpenter", key, *[CI] * reduced)
    assert [d.kind for d in asked] == [BUILD] + [DISCARD] * reduced
    assert me(g).buildings == Counter({key: 1}) and me(g).hand == Counter() and me(g).vp == vp_needed
    g = pos(hand={key: 1, CI: reduced}, vp=vp_needed - 1)  # one token short: full cost, unpayable
    assert not open_public(g, "carpenter")


@pytest.mark.parametrize("key,discard,draw", [("steam_factory", 2, 4), ("locomotive_factory", 3, 7)])
def test_factory_discards_then_draws(key, discard, draw):
    deck = ["temple", "relics", "smelter", "colony", "workshop", "theater", "museum", "monument"]
    g = pos(hand={CI: 1, "greenhouse": discard}, buildings={key: 1}, deck=deck)
    asked = place(g, key, *["greenhouse"] * discard)
    assert [d.kind for d in asked] == [DISCARD] * discard
    assert me(g).hand == Counter({CI: 1}) + Counter(deck[:draw])
    assert top_first(g) == deck[draw:] and g.discard == Counter({"greenhouse": discard})


@pytest.mark.parametrize("key,discard", [("steam_factory", 2), ("locomotive_factory", 3)])
def test_factory_needs_the_cards_to_discard(key, discard):
    g = pos(hand={CI: discard - 1}, buildings={key: 1})
    assert f"own:{key}" not in options(g)


def test_steam_factory_discards_before_drawing_so_they_can_be_reshuffled():
    g = pos(hand={"monument": 2}, buildings={"steam_factory": 1}, deck=[], discard={})
    place(g, "steam_factory", "monument", "monument")
    assert me(g).hand == Counter({"monument": 2, CI: 2}) and top_first(g) == [] and g.discard == Counter()


# ---------------------------------------------------------------- Chicken Farm

@pytest.mark.parametrize("hand,taken", [({}, 2), ({CI: 1}, 3), ({"temple": 1, CI: 1}, 2),
                                        ({"temple": 2, CI: 1}, 3), ({"temple": 4}, 2),
                                        ({CI: 5}, 3)])
def test_chicken_farm_2_items_on_even_hand_3_on_odd(hand, taken):
    g = pos(hand=hand, buildings={"chicken_farm": 1}, deck=["monument"])
    assert place(g, "chicken_farm") == []
    assert me(g).hand == Counter(hand) + Counter({CI: taken}) and top_first(g) == ["monument"]


# ---------------------------------------------------------------- Skyscraper Construction

def test_skyscraper_draws_2_when_the_build_empties_the_hand():
    g = pos(hand={"workshop": 1, CI: 1}, buildings={"skyscraper_construction": 1},
            deck=["temple", "relics", "smelter"])
    place(g, "skyscraper_construction", "workshop", CI)
    assert me(g).buildings["workshop"] == 1
    assert me(g).hand == Counter({"temple": 1, "relics": 1}) and top_first(g) == ["smelter"]


def test_skyscraper_no_draw_when_a_card_is_left():
    g = pos(hand={"workshop": 1, CI: 2}, buildings={"skyscraper_construction": 1},
            deck=["temple", "relics"])
    place(g, "skyscraper_construction", "workshop", CI)
    assert me(g).hand == Counter({CI: 1}) and top_first(g) == ["temple", "relics"]


def test_skyscraper_cost_0_build_of_the_last_card_also_draws_2():
    g = pos(hand={"relics": 1}, buildings={"skyscraper_construction": 1}, deck=["temple", "smelter"])
    asked = place(g, "skyscraper_construction", "relics")
    assert [d.kind for d in asked] == [BUILD]
    assert me(g).hand == Counter({"temple": 1, "smelter": 1}) and me(g).vp == 2 and top_first(g) == []


def test_skyscraper_not_usable_without_a_payable_building():
    g = pos(hand={"monument": 1, CI: 2}, buildings={"skyscraper_construction": 1})
    assert "own:skyscraper_construction" not in options(g)


# ---------------------------------------------------------------- Board Game Cafe

@pytest.mark.parametrize("fields,income", [
    ({"workers": 2, "placed": 0}, 5),  # a worker remains after this one
    ({"workers": 2, "placed": 1}, 10),  # the last unit
    ({"workers": 3, "training": 1, "placed": 1}, 10),  # the one in training cannot be placed
    ({"workers": 2, "placed": 1, "dolls": 1}, 5),  # a doll remains
    ({"workers": 2, "placed": 2, "dolls": 1}, 10),  # the doll is the last unit
])
def test_board_game_cafe_10_for_the_last_unit_else_5(fields, income):
    g = pos(buildings={"board_game_cafe": 1}, budget=12, **fields)
    place(g, "board_game_cafe")
    assert me(g).money == income and g.budget == 12 - income


@pytest.mark.parametrize("placed,budget,legal", [(1, 9, False), (1, 10, True), (0, 4, False),
                                                 (0, 5, True), (0, 9, True)])
def test_board_game_cafe_budget_must_hold_the_amount_received(placed, budget, legal):
    g = pos(buildings={"board_game_cafe": 1}, budget=budget, placed=placed)
    assert ("own:board_game_cafe" in options(g)) == legal


# ---------------------------------------------------------------- two-unit cards

@pytest.mark.parametrize("fields", [{"workers": 2}, {"workers": 1, "dolls": 1}, {"workers": 0, "dolls": 2},
                                    {"workers": 3, "placed": 1}])
def test_cotton_farm_two_units_at_once_take_5_items(fields):
    g = pos(buildings={"cotton_farm": 1}, deck=["temple"], **fields)
    assert place(g, "cotton_farm") == []
    p = me(g)
    assert p.hand == Counter({CI: 5}) and p.units_left() == 0 and top_first(g) == ["temple"]


@pytest.mark.parametrize("key", ["cotton_farm", "coal_mine", "transporter"])
@pytest.mark.parametrize("fields", [{"workers": 2, "placed": 1}, {"workers": 1},
                                    {"workers": 2, "training": 1}, {"workers": 1, "dolls": 1, "placed": 1}])
def test_two_unit_card_needs_two_units_left(key, fields):
    g = pos(hand={"relics": 1}, buildings={key: 1}, **fields)
    assert f"own:{key}" not in options(g)


def test_sold_cotton_farm_takes_one_two_unit_placement_per_round():
    g = pos(n=3, public=["cotton_farm"])
    place(g, "cotton_farm")
    assert g.public[-1].placements == 1 and me(g).hand == Counter({CI: 5}) and me(g).placed == 2
    assert not open_public(g, "cotton_farm", seat=1)


def test_coal_mine_draws_5():
    deck = ["temple", "relics", "smelter", "colony", "workshop", "theater"]
    g = pos(hand={CI: 1}, buildings={"coal_mine": 1}, deck=deck)
    assert place(g, "coal_mine") == []
    assert me(g).hand == Counter({CI: 1}) + Counter(deck[:5]) and top_first(g) == ["theater"]
    assert me(g).units_left() == 0


def test_transporter_builds_any_building_for_free():
    g = pos(hand={"locomotive_factory": 1}, buildings={"transporter": 1}, workers=1, dolls=1)
    asked = place(g, "transporter", "locomotive_factory")
    assert [d.kind for d in asked] == [BUILD]
    assert me(g).buildings == Counter({"transporter": 1, "locomotive_factory": 1})
    assert me(g).hand == Counter() and g.discard == Counter() and me(g).units_left() == 0


def test_transporter_not_without_a_building_in_hand():
    g = pos(hand={CI: 3}, buildings={"transporter": 1})
    assert "own:transporter" not in options(g)


# ---------------------------------------------------------------- Museum (Glory)

@pytest.mark.parametrize("hand,income", [({CI: 5}, 14), ({"temple": 2, CI: 3}, 14), ({CI: 4}, 7),
                                         ({CI: 6}, 7), ({}, 7)])
def test_museum_14_with_exactly_5_cards_else_7(hand, income):
    g = pos(hand=hand, buildings={"museum": 1}, budget=20)
    assert place(g, "museum") == []
    assert me(g).money == income and g.budget == 20 - income and me(g).hand == Counter(hand)


@pytest.mark.parametrize("hand,budget,legal", [({CI: 5}, 13, False), ({CI: 5}, 14, True),
                                               ({CI: 4}, 6, False), ({CI: 4}, 7, True)])
def test_museum_budget_must_hold_the_amount_received(hand, budget, legal):
    g = pos(hand=hand, buildings={"museum": 1}, budget=budget)
    assert ("own:museum" in options(g)) == legal


# ---------------------------------------------------------------- Theater

def test_theater_discards_2_takes_20():
    g = pos(hand={"temple": 1, CI: 2}, buildings={"theater": 1}, budget=25)
    asked = place(g, "theater", "temple", CI)
    assert [d.kind for d in asked] == [DISCARD, DISCARD]
    assert me(g).hand == Counter({CI: 1}) and me(g).money == 20 and g.budget == 5
    assert g.discard == Counter({"temple": 1})


@pytest.mark.parametrize("hand,budget", [({CI: 1}, 20), ({CI: 2}, 19)])
def test_theater_needs_2_cards_and_20_in_budget(hand, budget):
    g = pos(hand=hand, buildings={"theater": 1}, budget=budget)
    assert "own:theater" not in options(g)


# ---------------------------------------------------------------- Smelter, Greenhouse

def test_smelter_draws_3():
    g = pos(buildings={"smelter": 1}, deck=["temple", "relics", "colony", "museum"])
    assert place(g, "smelter") == []
    assert me(g).hand == Counter({"temple": 1, "relics": 1, "colony": 1}) and top_first(g) == ["museum"]


def test_greenhouse_takes_4_items():
    g = pos(hand={"temple": 1}, buildings={"greenhouse": 1}, deck=["museum"])
    assert place(g, "greenhouse") == []
    assert me(g).hand == Counter({"temple": 1, CI: 4}) and top_first(g) == ["museum"]


# ---------------------------------------------------------------- Modern Architecture

def ma(hand, key, *payment):
    g = pos(hand=hand, buildings={"modern_architecture": 1})
    asked = place(g, "modern_architecture", key, *payment)
    assert me(g).buildings[key] == 1
    return g, asked


@pytest.mark.parametrize("hand,payment,left", [
    ({"theater": 1, CI: 2}, [CI, CI], {}),  # cost 4: 2 items
    ({"theater": 1, CI: 1, "temple": 2}, [CI, "temple", "temple"], {}),  # 1 item + 2 buildings
    ({"theater": 1, "temple": 4}, ["temple"] * 4, {}),  # 4 buildings
    ({"monument": 1, CI: 2}, [CI, CI], {}),  # cost 3, items only: 4, the one unavoidable point
    ({"monument": 1, CI: 3}, [CI, CI], {CI: 1}),
    ({"monument": 1, CI: 1, "temple": 1}, ["temple", CI], {}),  # cost 3 exact
    ({"workshop": 1, CI: 1}, [CI], {}),  # cost 1 with one item
    ({"smelter": 1, CI: 3}, [CI, CI, CI], {}),  # cost 5: 6 in items only
])
def test_modern_architecture_legal_payments(hand, payment, left):
    g, asked = ma(hand, next(k for k in hand if k != CI), *payment)
    assert [d.kind for d in asked] == [BUILD] + [DISCARD] * len(payment)
    assert me(g).hand == Counter(left)
    built = next(k for k in hand if k != CI)
    assert g.discard == Counter({k: n for k, n in Counter(payment).items() if k != CI})
    assert me(g).buildings == Counter({"modern_architecture": 1, built: 1})


def test_modern_architecture_item_building_item_for_cost_4_is_illegal():
    # cost 4 from 2 items and a building: only item + item; a building would force an overpayment
    g, asked = ma({"theater": 1, CI: 2, "temple": 1}, "theater", CI, CI)
    assert asked[1].options == [CI] and asked[2].options == [CI]
    assert me(g).hand == Counter({"temple": 1})


def test_modern_architecture_no_item_after_a_building_would_overpay():
    # cost 4: item, then building, then only a building may end it (item would make 5)
    g, asked = ma({"theater": 1, CI: 2, "temple": 3}, "theater", CI, "temple", "temple")
    assert asked[2].options == ["temple", CI]
    assert asked[3].options == ["temple"]
    assert me(g).hand == Counter({CI: 1, "temple": 1})


def test_modern_architecture_odd_cost_items_then_building_or_item_to_finish():
    g, asked = ma({"monument": 1, CI: 2, "temple": 1}, "monument", CI, CI)
    assert asked[1].options == ["temple", CI] and asked[2].options == ["temple", CI]
    g, asked = ma({"monument": 1, CI: 2, "temple": 1}, "monument", "temple", CI)
    assert asked[2].options == [CI]  # after a building: exact, 1 + 2
    assert me(g).hand == Counter({CI: 1})


def test_modern_architecture_smelter_after_two_buildings_no_overpaying_item():
    # cost 5 with b b: 3 to go; an item now (2) then must finish exactly with a building
    g, asked = ma({"smelter": 1, CI: 2, "temple": 3}, "smelter", "temple", "temple", CI, "temple")
    assert asked[4].options == ["temple"]


def test_modern_architecture_cost_0_and_vp_reduced_costs():
    g, asked = ma({"relics": 1, CI: 1}, "relics")  # cost 0: no payment, the 2 VP on build
    assert [d.kind for d in asked] == [BUILD] and me(g).vp == 2 and me(g).hand == Counter({CI: 1})
    g = pos(hand={"steam_factory": 1, CI: 1}, buildings={"modern_architecture": 1}, vp=2)
    place(g, "modern_architecture", "steam_factory", CI)  # cost 1 paid by one item
    assert me(g).buildings["steam_factory"] == 1 and me(g).hand == Counter()


@pytest.mark.parametrize("hand", [{"monument": 1, CI: 1}, {"theater": 1, CI: 1, "temple": 1},
                                  {"theater": 1}])
def test_modern_architecture_not_usable_when_the_cost_cannot_be_reached(hand):
    g = pos(hand=hand, buildings={"modern_architecture": 1})
    assert "own:modern_architecture" not in options(g)


# ---------------------------------------------------------------- Mechanical Doll

def test_mechanical_doll_gives_a_doll_on_build():
    g = pos(hand={"mechanical_doll": 1, CI: 4})
    asked = place(g, "carpenter", "mechanical_doll", CI, CI, CI, CI)
    assert [d.kind for d in asked] == [BUILD] + [DISCARD] * 4
    p = me(g)
    assert p.buildings == Counter({"mechanical_doll": 1}) and p.dolls == 1 and p.workers == 2
    assert p.units_left() == 2  # the other worker and the new doll


def test_mechanical_doll_is_placed_on_a_later_turn_of_the_same_round_and_never_paid():
    g = pos(hand={"mechanical_doll": 1, CI: 4}, workers=1, money=5, deck=["temple", "relics", "smelter"])
    g.players[1].hand.clear()
    mine, carpenter = "pub:1", "pub:3"
    asked = drive(g._action_phase(), [carpenter, "mechanical_doll", CI, CI, CI, CI,  # seat 0
                                      mine,  # seat 1 draws the temple
                                      mine,  # seat 0's doll draws the relics
                                      mine])  # seat 1 draws the smelter
    places = [d.seat for d in asked if d.kind == PLACE]
    assert places == [0, 1, 0, 1]
    p = me(g)
    assert p.hand == Counter({"relics": 1}) and p.units_left() == 0
    payday(g)
    assert p.money == 5 - 2 and g.budget == 2 + 2 * 2  # one worker paid; seat 1 paid 2 workers
    assert p.dolls == 1 and p.units_left() == 2


def test_mechanical_dolls_are_never_paid_wages():
    g = pos(workers=2, dolls=2, money=10, round=9)
    payday(g)
    assert me(g).money == 0 and me(g).unpaid == 0  # 2 workers x $5, the dolls free


@pytest.mark.parametrize("round,key,workers,dolls,legal,after", [
    (1, "school", 5, 1, False, None),
    (1, "school", 4, 2, True, 5),
    (4, "high_school", 3, 1, True, 4),  # up to 4 workers: +1, the doll does not count
    (4, "high_school", 2, 2, True, 4),  # +2
    (4, "high_school", 4, 1, False, None),
    (6, "university", 4, 1, True, 5),
    (6, "university", 2, 3, True, 5),
    (6, "university", 5, 1, False, None),
    (8, "technical_college", 5, 1, False, None),
    (8, "technical_college", 4, 1, True, 5),
])
def test_mechanical_doll_is_not_a_worker_for_hiring_caps(round, key, workers, dolls, legal, after):
    g = pos(round=round, workers=workers, dolls=dolls)
    assert bool(open_public(g, key)) == legal
    if legal:
        place(g, key)
        assert me(g).workers == after and me(g).dolls == dolls


# ---------------------------------------------------------------- end-game bonuses

@pytest.mark.parametrize("buildings,bonus", [
    ({"farm_village": 1, "cotton_farm": 1}, 18),  # agriculture 6 + 14 = 20
    ({"farm_village": 1, "chicken_farm": 1}, 0),  # 6 + 12 = 18
    ({"greenhouse": 1}, 0),  # 18
    ({"greenhouse": 1, "farm_village": 1}, 18),  # 24
    ({"farm_village": 2, "workshop": 2, "monument": 1}, 0),  # 12; industry does not count
])
def test_consumers_union_18_with_agriculture_worth_20(buildings, bonus):
    b = {"consumers_union": 1, **buildings}
    s = score(b)
    assert s.bonus_points == bonus
    assert s.building_points == sum(GLORY.building(k).asset_value * n for k, n in b.items())
    assert s.total == s.building_points + bonus


def test_monument_is_points_only():
    s = score({"monument": 1})
    assert (s.building_points, s.bonus_points, s.total) == (24, 0, 24)


@pytest.mark.parametrize("buildings,bonus", [
    ({"farm_village": 1, "workshop": 1}, 20),
    ({"chicken_farm": 1, "coal_mine": 1}, 20),  # Coal Mine carries the industry icon
    ({"farm_village": 2}, 0),
    ({"workshop": 1, "smelter": 1}, 0),
    ({}, 0),
])
def test_guild_hall_20_with_an_agriculture_and_an_industry_building(buildings, bonus):
    s = score({"guild_hall": 1, **buildings})
    assert s.bonus_points == bonus and s.building_points == 20 + sum(
        GLORY.building(k).asset_value * n for k, n in buildings.items())


@pytest.mark.parametrize("vp,bonus,vp_points", [(6, 0, 20), (7, 22, 21), (9, 22, 30)])
def test_ivory_tower_22_with_7_vp(vp, bonus, vp_points):
    s = score({"ivory_tower": 1}, vp=vp)
    assert s.bonus_points == bonus and s.vp_points == vp_points
    assert s.total == 22 + bonus + vp_points


@pytest.mark.parametrize("workers,bonus", [(5, 18), (4, 0), (2, 0)])
def test_revolution_square_18_with_5_workers(workers, bonus):
    assert score({"revolution_square": 1}, workers=workers).bonus_points == bonus


@pytest.mark.parametrize("workers,training,dolls,bonus", [(4, 0, 1, 0), (3, 0, 2, 0), (4, 0, 5, 0),
                                                          (5, 0, 2, 18), (5, 1, 0, 18)])
def test_revolution_square_counts_human_workers_never_dolls(workers, training, dolls, bonus):
    g = pos(round=9, workers=workers, training=training, dolls=dolls,
            buildings={"revolution_square": 1})
    assert score_game(g)[0].bonus_points == bonus


@pytest.mark.parametrize("buildings,bonus", [
    ({"coal_mine": 1, "steam_factory": 1}, 24),  # 20 + 10
    ({"coal_mine": 1, "workshop": 1}, 0),  # 28
    ({"locomotive_factory": 1, "workshop": 1}, 24),  # 32
    ({"smelter": 1, "greenhouse": 1, "cotton_farm": 1}, 0),  # agriculture does not count
])
def test_tech_expo_24_with_industry_worth_30(buildings, bonus):
    assert score({"tech_expo": 1, **buildings}).bonus_points == bonus


@pytest.mark.parametrize("hand,items,bonus", [(4, 4, 26), (5, 5, 26), (5, 3, 0), (3, 3, 0)])
def test_harvest_festival_26_with_4_consumer_items_in_hand(hand, items, bonus):
    assert score({"harvest_festival": 1}, hand=hand, items=items).bonus_points == bonus


def test_harvest_festival_reads_the_final_hand_after_the_round_9_hand_limit():
    g = pos(round=9, hand={CI: 4, "temple": 2}, money=10, buildings={"harvest_festival": 1})
    payday(g, CI)  # 6 cards: discard one, an item
    assert me(g).hand == Counter({CI: 3, "temple": 2})
    assert score_game(g)[0].bonus_points == 0


@pytest.mark.parametrize("others,bonus", [
    ({}, 30),
    ({"workshop": 1, "farm_village": 2}, 30),
    ({"relics": 1}, 0),
    ({"mechanical_doll": 1}, 0),
    ({"monument": 1}, 0),
])
def test_temple_30_only_if_it_is_the_only_lock_building(others, bonus):
    assert score({"temple": 1, **others}).bonus_points == bonus


def test_temple_spoiled_by_a_relics_built_in_play():
    g = pos(hand={"relics": 1}, buildings={"temple": 1})
    assert score_game(g)[0].bonus_points == 30
    place(g, "carpenter", "relics")
    assert score_game(g)[0].bonus_points == 0


# ---------------------------------------------------------------- every Glory building's own points

@pytest.mark.parametrize("key", [b.key for b in GLORY.buildings])
def test_each_building_scores_its_asset_value(key):
    printed = {"relics": 4, "farm_village": 6, "colony": 6, "workshop": 8, "steam_factory": 10,
               "chicken_farm": 12, "skyscraper_construction": 10, "board_game_cafe": 10,
               "cotton_farm": 14, "museum": 14, "consumers_union": 18, "monument": 24,
               "mechanical_doll": 2, "coal_mine": 20, "modern_architecture": 18, "theater": 20,
               "guild_hall": 20, "ivory_tower": 22, "smelter": 16, "revolution_square": 18,
               "transporter": 22, "tech_expo": 24, "harvest_festival": 26, "greenhouse": 18,
               "temple": 30, "locomotive_factory": 24}
    s = score({key: 1}, workers=2)
    assert s.building_points == printed[key]


# ---------------------------------------------------------------- the Relics initial workplace

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_relics_workplace_is_in_the_glory_setup_at_every_player_count(n):
    g = Game(GLORY, n, seed=4)
    assert public_keys(g).count("relics_workplace") == 1
    # the workplace is not the Relics building: all 3 Relics cards are in the deck or the hands
    held = sum(p.hand["relics"] for p in g.players)
    assert g.deck.count("relics") + held == 3


@pytest.mark.parametrize("game", ["progress", "mecenat"])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_relics_workplace_only_in_glory(game, n):
    assert "relics_workplace" not in public_keys(Game(data(game), n, seed=4))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_relics_workplace_takes_1_item_and_1_vp_once_per_round(n):
    g = pos(n=n, hand={"temple": 1}, vp=2, deck=["museum"])
    assert place(g, "relics_workplace") == []
    assert me(g).hand == Counter({"temple": 1, CI: 1}) and me(g).vp == 3 and top_first(g) == ["museum"]
    assert not open_public(g, "relics_workplace")  # the same player's second unit
    assert not open_public(g, "relics_workplace", seat=1 if n > 1 else 0)


def test_relics_workplace_free_again_after_payday():
    g = pos(money=4)
    place(g, "relics_workplace")
    payday(g)
    place(g, "relics_workplace")
    assert me(g).vp == 2 and me(g).hand == Counter({CI: 2})
