"""The four rulings RULES-NOTES revised (§15 and §16.10-12), each in both engines on a constructed
position where the earlier reading and the revised one differ, and the kernel-reference
differential over random games that meet each of them.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from harness import CI, data, options, payday, place, position
from kernel_harness import KPosition
from nesim.kernel import batch, core
from nesim.reference import replay
from nesim.reference.scoring import score_player
from strategies.random import choose as random_choose


# ---------------------------------------------------------------- Brewery in round 9 (§16.11)

def test_reference_brewery_can_be_worked_in_round_nine_and_its_items_never_arrive():
    g = position("mecenat", round=9, hand={}, money=20, buildings={"brewery": 1})
    assert "own:brewery" in options(g)
    place(g, "brewery")
    assert g.players[0].brewery == 4 and g.players[0].items() == 0
    payday(g)
    assert g.players[0].hand == Counter()  # no round 10 brings them into the hand


def test_kernel_brewery_can_be_worked_in_round_nine_and_its_items_never_arrive():
    k = KPosition("mecenat", round=9, hand={}, money=20, buildings={"brewery": 1})
    k.take_turn(k.own("brewery"))
    assert k.s["brewery"][0] == 4 and k.s["hand"][0, k.card("consumer_item")] == 0
    assert k.score()[core.F_HAND] == 0  # scored after round 9: the items are not in the hand


# ---------------------------------------------------------------- Farm Resort, no item (§16.12)

def test_reference_farm_resort_with_no_consumer_item_is_usable_and_pays_nothing():
    g = position("mecenat", hand={"museum": 1}, money=3, budget=0, buildings={"farm_resort": 1})
    assert "own:farm_resort" in options(g)
    assert place(g, "farm_resort") == []
    assert g.players[0].money == 3 and g.budget == 0


def test_kernel_farm_resort_with_no_consumer_item_is_usable_and_pays_nothing():
    k = KPosition("mecenat", hand={"museum": 1}, money=3, budget=0, buildings={"farm_resort": 1})
    assert k.own("farm_resort") in k.options()
    k.take_turn(k.own("farm_resort"))
    assert k.s["money"][0] == 3 and k.s["budget"] == 0 and k.s["used"][0, k.card("farm_resort")] == 1


def test_both_engines_still_refuse_farm_resort_when_the_budget_cannot_pay():
    g = position("mecenat", hand={CI: 3}, budget=11, buildings={"farm_resort": 1})
    k = KPosition("mecenat", hand={"consumer_item": 3}, budget=11, buildings={"farm_resort": 1})
    assert "own:farm_resort" not in options(g) and k.own("farm_resort") not in k.options()


# ---------------------------------------------------------------- Head Office and Burnt Field (§16.10)

HOLDINGS = {"head_office_building": 1, "warehouse": 1, "burnt_field": 1, "farm": 1}


def test_reference_head_office_counts_an_unworked_burnt_field_by_its_no_sale_icon():
    s = score_player(data("progress"), HOLDINGS, 0, 0, 2, 0, 0, 0)
    assert s.bonus_points == 6 * 3  # Head Office, Warehouse, Burnt Field: the earlier reading gave 12
    assert s.building_points == 20 + 10 + 0 + 6


def test_kernel_head_office_counts_an_unworked_burnt_field_by_its_no_sale_icon():
    k = KPosition("progress", buildings=HOLDINGS)
    out = k.score()
    assert out[core.F_BONUS] == 18 and out[core.F_BUILDING] == 36


def test_a_worked_burnt_field_leaves_before_the_end_and_is_not_counted():
    g = position("progress", round=9, money=20, hand={}, buildings={"head_office_building": 1, "burnt_field": 1})
    place(g, "burnt_field")
    payday(g)
    p = g.players[0]
    assert p.buildings["burnt_field"] == 0
    s = score_player(g.data, dict(p.buildings), p.hand_size(), p.items(), p.workers, p.vp, p.money, p.unpaid)
    assert s.bonus_points == 6


# ---------------------------------------------------------------- solo: a block per unit (§15)

def test_reference_solo_blocks_once_per_unit_placed():
    g = position("glory", n=1, hand={}, buildings={"cotton_farm": 1}, workers=2)
    newest_two = [len(g.public) - 1, len(g.public) - 2]
    try:
        gen = g._action_phase()
        next(gen)
        gen.send("own:cotton_farm")
    except StopIteration:
        pass
    assert g.players[0].items() == 5
    sideways = [i for i, wp in enumerate(g.public) if wp.sideways]
    assert sorted(sideways) == sorted(newest_two)  # the earlier reading turned one card only


def test_kernel_solo_blocks_once_per_unit_placed():
    k = KPosition("glory", n=1, hand={}, buildings={"cotton_farm": 1}, workers=2)
    n = int(k.s["pub_n"])
    k.take_turn(k.own("cotton_farm"))
    assert k.s["hand"][0, k.card("consumer_item")] == 5
    assert list(np.flatnonzero(k.s["pub_side"][:n])) == [n - 2, n - 1]


def test_solo_one_unit_placement_still_blocks_once_in_both_engines():
    k = KPosition("glory", n=1, hand={})
    n = int(k.s["pub_n"])
    k.take_turn(k.public("school"))
    assert list(np.flatnonzero(k.s["pub_side"][:n])) == [n - 1]
    g = position("glory", n=1, hand={})
    gen = g._action_phase()
    next(gen)
    school = next(f"pub:{i}" for i, wp in enumerate(g.public) if wp.key == "school")
    gen.send(school)
    assert [i for i, wp in enumerate(g.public) if wp.sideways] == [len(g.public) - 1]


# ---------------------------------------------------------------- the differential meets each one

def ruling_hits(game: str, n: int, seeds) -> Counter:
    """Replays random kernel games (option sets compared) and counts the positions where a
    revised ruling decides something: the games then agree there in both engines."""
    res = batch.play(data(game), n, seeds, [random_choose] * n, with_log="options")
    hits: Counter = Counter()
    for g in range(len(seeds)):
        seen = {"i": 0}

        def observe(gm, seen=seen):
            for kind, seat, value in gm.log[seen["i"]:]:
                if kind != "PLACE":
                    continue
                p = gm.players[seat]
                key = gm.placed_key(value)
                hits["brewery in round 9"] += key == "brewery" and gm.round == 9
                hits["farm resort with no item"] += key == "farm_resort" and p.items() == 0
                hits["solo 2-unit placement"] += gm.solo and gm.workers_needed(key) == 2
            seen["i"] = len(gm.log)
        ref = replay(data(game), res.decision_log(g), after_step=observe)
        hits["burnt field under head office at the end"] += any(
            p.buildings["head_office_building"] and p.buildings["burnt_field"] for p in ref.players) \
            if game == "progress" else 0
        for p, s in zip(ref.players, ref.scores):
            assert s.total == int(res.players[g, p.seat, core.F_SCORE])
    return hits


def seeds_building(game: str, n: int, keys: list[str], games: int) -> np.ndarray:
    """The seeds among the first ``games`` whose random kernel game has a seat build every card
    of ``keys``: rare combinations are looked for fast, without logs, then replayed."""
    res = batch.play(data(game), n, np.arange(games, dtype=np.uint64), [random_choose] * n)
    ids = [data(game).index[k] for k in keys]
    both = np.all([(res.build_card == i).any(axis=2) for i in ids], axis=0).any(axis=1)
    return res.seeds[both]


def test_the_differential_meets_every_revised_ruling():
    hits = ruling_hits("mecenat", 2, np.arange(300, dtype=np.uint64))
    hits += ruling_hits("glory", 1, np.arange(100, dtype=np.uint64))
    hits += ruling_hits("progress", 3, seeds_building("progress", 3, ["head_office_building",
                                                                   "burnt_field"], 20_000))
    assert all(hits[k] > 0 for k in ("brewery in round 9", "farm resort with no item",
                                     "solo 2-unit placement", "burnt field under head office at the end")), hits
