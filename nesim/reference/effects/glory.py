"""Glory's buildings (the 71-card deck of the third game)."""

from nesim.cards import CONSUMER
from nesim.reference.decisions import MODE
from nesim.reference.effects import lock, workplace
from nesim.reference.effects.kinds import (construction_workplace, discard_for_money,
                                           discard_then_draw, draw_buildings, take_items)
from nesim.reference.engine import Construction

G = "glory"


@workplace(G, "farm_village")
def farm_village(g, p):
    options = ["items", "draw"] if p.items() >= 2 else ["items"]
    mode = yield from g.ask(MODE, p, options, workplace="farm_village")
    if mode == "items":
        g.take_items(p, 2)
    else:
        p.remove_from_hand(CONSUMER, 2)
        g.emit("discard", seat=p.seat, cards=[CONSUMER, CONSUMER], purpose="effect")
        g.draw(p, 3)


construction_workplace(G, "colony", Construction("colony"), after=lambda g, p: g.take_items(p, 1))


@workplace(G, "workshop")
def workshop(g, p):
    g.draw(p, 1)
    g.take_vp(p, 1)


discard_then_draw(G, "steam_factory", 2, 4)


@workplace(G, "chicken_farm")
def chicken_farm(g, p):
    g.take_items(p, 2 if p.hand_size() % 2 == 0 else 3)


def _draw_2_if_hand_empty(g, p):
    if p.hand_size() == 0:
        g.draw(p, 2)


construction_workplace(G, "skyscraper_construction", Construction("skyscraper_construction"),
                       after=_draw_2_if_hand_empty)


def _cafe_income(p, placed: bool) -> int:
    """$10 when this placement leaves the player no unit to place this round, else $5 (§16.4)."""
    left = p.units_left() - (0 if placed else 1)
    return 10 if left == 0 else 5


@workplace(G, "board_game_cafe", can=lambda g, p: g.budget >= _cafe_income(p, placed=False))
def board_game_cafe(g, p):
    g.take_money(p, _cafe_income(p, placed=True))


take_items(G, "cotton_farm", 5)  # two units at once: workers_needed in the card table


def _museum_income(p) -> int:
    return 14 if p.hand_size() == 5 else 7


@workplace(G, "museum", can=lambda g, p: g.budget >= _museum_income(p))
def museum(g, p):
    g.take_money(p, _museum_income(p))


draw_buildings(G, "coal_mine", 5)  # two units at once
construction_workplace(G, "modern_architecture", Construction("modern_architecture", consumer_worth=2))
discard_for_money(G, "theater", 2, 20)
draw_buildings(G, "smelter", 3)
construction_workplace(G, "transporter", Construction("transporter", free=True))  # two units at once
take_items(G, "greenhouse", 4)
discard_then_draw(G, "locomotive_factory", 3, 7)


def _gain_doll(g, p):
    p.dolls += 1  # placeable from this player's next turn (§10)
    g.emit("doll", seat=p.seat)


lock(G, "relics", on_build=lambda g, p: g.take_vp(p, 2))
lock(G, "mechanical_doll", on_build=_gain_doll)
for _key in ("consumers_union", "monument", "guild_hall", "ivory_tower", "revolution_square",
             "tech_expo", "harvest_festival", "temple"):
    lock(G, _key)
