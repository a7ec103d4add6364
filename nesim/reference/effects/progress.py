"""Progress's buildings (the 64-card deck of the first game)."""

from nesim.cards import CONSUMER
from nesim.reference.decisions import KEEP
from nesim.reference.effects import lock, workplace
from nesim.reference.effects.kinds import (construction_workplace, discard_for_money,
                                           discard_then_draw, draw_buildings, fill_hand_to,
                                           take_items)
from nesim.reference.engine import Construction

G = "progress"


take_items(G, "farm", 2)
take_items(G, "plantation", 3)


@workplace(G, "burnt_field")
def burnt_field(g, p):
    g.take_items(p, 5)
    p.burnt_worked += 1  # the card leaves its owner after this round's payday (§12.7)


@workplace(G, "design_office")
def design_office(g, p):
    revealed = [g.draw_one() for _ in range(5)]
    for key in revealed:
        if key != CONSUMER:
            g.limbo[key] += 1
    options = [b.key for b in g.data.buildings if b.key in revealed]
    if CONSUMER in revealed:
        options.append(CONSUMER)
    kept = yield from g.ask(KEEP, p, options, revealed=revealed)
    revealed.remove(kept)
    p.add_to_hand(kept)
    for key in [kept, *revealed]:
        if key != CONSUMER:
            g.limbo[key] -= 1
    for key in revealed:
        g.put_in_discard(key)
    g.emit("design_office", seat=p.seat, revealed=[kept, *revealed], kept=kept)


@workplace(G, "coffee_shop", can=lambda g, p: g.budget >= 5)
def coffee_shop(g, p):
    g.take_money(p, 5)


discard_then_draw(G, "factory", 2, 4)
discard_then_draw(G, "car_factory", 3, 7)
discard_for_money(G, "restaurant", 1, 15)
fill_hand_to(G, "orchard", 4)
draw_buildings(G, "steel_mill", 3)


@workplace(G, "chemical_plant")
def chemical_plant(g, p):
    g.draw(p, 2 if p.hand_size() else 4)


construction_workplace(G, "construction_company", Construction("construction_company", discount=1))
construction_workplace(G, "settler", Construction("settler", free=True, allows=lambda g, b: b.agriculture))
construction_workplace(G, "general_contractor", Construction("general_contractor"),
                       after=lambda g, p: g.draw(p, 2))
construction_workplace(G, "double_city", Construction("double_city", pair="same_cost"))

lock(G, "warehouse")  # hand limit +4: Game.hand_limit
lock(G, "company_house")  # worker cap +1: Game.worker_cap
for _key in ("law_office", "real_estate", "farmers_coop", "mansion", "labor_union",
             "head_office_building", "railway"):
    lock(G, _key)  # end-of-game bonuses are data, scored in scoring.py
