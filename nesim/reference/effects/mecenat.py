"""Mecenat's buildings (the 73-card deck of the second game)."""

from nesim.reference.effects import lock, workplace
from nesim.reference.effects.kinds import (construction_workplace, discard_for_money,
                                           discard_then_draw, draw_buildings, fill_hand_to,
                                           take_items)
from nesim.reference.engine import Construction

G = "mecenat"

fill_hand_to(G, "potato_field", 3)


@workplace(G, "ironwork", can=lambda g, p: p.on_mine)
def ironwork(g, p):
    g.draw(p, 2)


construction_workplace(G, "temple_carpenter", Construction("temple_carpenter"),
                       after=lambda g, p: g.take_vp(p, 1))  # too late for this build's cost (§8)
discard_for_money(G, "cafeteria", 1, 8)


@workplace(G, "vegetable_garden")
def vegetable_garden(g, p):
    g.take_items(p, 2)
    g.take_vp(p, 1)


@workplace(G, "lottery", can=lambda g, p: g.budget >= 20)
def lottery(g, p):
    g.take_money(p, 20)
    g.give_money(p, 10)


construction_workplace(G, "building_company",
                       Construction("building_company", allows=lambda g, b: b.facility),
                       after=lambda g, p: g.draw(p, 2))
discard_then_draw(G, "food_factory", 2, 4)


@workplace(G, "fish_farm")
def fish_farm(g, p):
    g.take_items(p, 3 if p.items() else 2)


construction_workplace(G, "prefab_home_builder",
                       Construction("prefab_home_builder", free=True, allows=lambda g, b: b.asset_value <= 10))


# With no consumer item it pays $0, which any Budget can pay: usable (RULES-NOTES §16.12, revised).
@workplace(G, "farm_resort", can=lambda g, p: g.budget >= 4 * p.items())
def farm_resort(g, p):
    g.take_money(p, 4 * p.items())


@workplace(G, "laboratory")
def laboratory(g, p):
    g.draw(p, 2)
    g.take_vp(p, 1)


def _draw_3_if_hand_empty(g, p):
    if p.hand_size() == 0:
        g.draw(p, 3)


construction_workplace(G, "worldwide_building", Construction("worldwide_building", pair="sum"),
                       after=_draw_3_if_hand_empty)


# Usable in the last round too: laying the 4 items on the card can be done; they just never reach
# a hand, since no round follows (RULES-NOTES §16.11, revised).
@workplace(G, "brewery")
def brewery(g, p):
    p.brewery += 4
    g.emit("brewery", seat=p.seat, count=4)


discard_then_draw(G, "shipyard", 3, 6)
draw_buildings(G, "industrial_park", 3)
discard_for_money(G, "amusement_park", 2, 25)
draw_buildings(G, "petrochemical_complex", 4)

for _key in ("graveyard", "old_district", "accounting_office", "railway_station",
             "botanical_garden", "export_port", "museum", "investment_bank", "cathedral"):
    lock(G, _key)
