"""Card effects as data: a sweep variant changes what a card does and adds a new card, and both
engines play it from the effect column alone (issue 40, items 1 and 2).

The variant below gives the Restaurant $12 instead of $15 and adds a Savings Bank that does the
same. Expected values come from the variant's own text (discard 1 card, take $12), never from
the code under test.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from harness import data, place, position
from kernel_harness import KPosition
from nesim import stats
from nesim.cli import cli
from nesim.errors import NesimError
from nesim.kernel import batch
from nesim.reference import replay
from nesim.sweep import load_sweep
from strategies.random import choose as random_choose
from test_kernel import assert_same_game

NESIM = [sys.executable, "-m", "nesim"]
HEAD = 'game = "progress"\nplayers = [2]\ngames = 60\nseed = 3\nstrategies = ["greedy", "random"]\n'
VARIANT = """
[[variant]]
name = "cheaper-restaurant-and-a-bank"
cards.restaurant = { effect = "discard_for_money:1:12" }
new_cards.savings_bank = { name = "Savings Bank", cost = 1, asset_value = 8, copies = 8, effect = "discard_for_money:1:12" }
"""
NAME = "cheaper-restaurant-and-a-bank"


@pytest.fixture(scope="module")
def sweep_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("newcards") / "bank.toml"
    p.write_text(HEAD + VARIANT)
    return p


@pytest.fixture(scope="module")
def variant(sweep_file):
    sw = load_sweep(sweep_file)
    return sw.data(sw.variant(NAME), "progress")


def test_the_variant_changes_the_restaurant_and_appends_the_bank_after_the_file_cards(variant):
    base = data("progress")
    assert str(variant.building("restaurant").effect) == "discard_for_money:1:12"
    assert str(base.building("restaurant").effect) == "discard_for_money:1:15"  # the files untouched
    assert [b.key for b in variant.buildings] == [b.key for b in base.buildings] + ["savings_bank"]
    bank = variant.building("savings_bank")
    assert (bank.cost, bank.asset_value, bank.copies, bank.workable, bank.sellable) == (1, 8, 8, True, True)
    assert variant.deck_size() == base.deck_size() + 8


@pytest.mark.parametrize("key", ["savings_bank", "restaurant"])
def test_working_the_changed_or_new_card_takes_12_dollars_in_the_reference(variant, key):
    g = position("progress", game_data=variant, budget=20, money=0, hand={"consumer_item": 1},
                 buildings={key: 1})
    place(g, key, "consumer_item")
    p = g.players[0]
    assert (p.money, g.budget, p.hand_size()) == (12, 8, 0)


@pytest.mark.parametrize("key", ["savings_bank", "restaurant"])
def test_working_the_changed_or_new_card_takes_12_dollars_in_the_kernel(variant, key):
    k = KPosition("progress", game_data=variant, budget=20, hand={"consumer_item": 1},
                  buildings={key: 1}, money=0)
    k.take_turn(k.own(key))
    s = k.s
    assert (int(s["money"][0]), int(s["budget"]), int(s["hand_n"][0])) == (12, 8, 0)


def test_the_bank_is_refused_when_the_budget_cannot_pay_12_in_both_engines(variant):
    g = position("progress", game_data=variant, budget=11, hand={"consumer_item": 1},
                 buildings={"savings_bank": 1})
    assert "own:savings_bank" not in g.placement_options(g.players[0])
    k = KPosition("progress", game_data=variant, budget=11, hand={"consumer_item": 1},
                  buildings={"savings_bank": 1})
    assert k.own("savings_bank") not in k.options()


def test_kernel_games_with_the_new_card_replay_identically_in_the_reference(variant):
    seeds = np.arange(150, dtype=np.uint64)
    res = batch.play(variant, 2, seeds, [random_choose] * 2, with_log="options")
    bank = variant.index["savings_bank"]
    built = [g for g in range(len(seeds)) if (res.build_card[g] == bank).any()]
    assert len(built) >= 5  # the new card is built, so the replays below exercise it
    for g in built[:30]:
        assert_same_game(res, g, replay(variant, res.decision_log(g)))


def test_a_sweep_builds_the_new_card_lists_it_by_key_and_replays_a_game_that_built_it(sweep_file, tmp_path):
    out = tmp_path / "out"
    r = CliRunner().invoke(cli, ["sweep", str(sweep_file), "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    builds = pd.read_parquet(out / "builds")
    mine = builds[(builds["variant"] == NAME) & (builds["card"] == "savings_bank")]
    assert len(mine) > 0
    assert not (builds[builds["variant"] == "baseline"]["card"] == "savings_bank").any()
    manifest = json.loads((out / "manifest.json").read_text())
    table = next(v for v in manifest["variants"] if v["name"] == NAME)
    cards = stats.card_info("progress", table["cards"])  # the report's card section reads this
    assert cards.set_index("card").loc["savings_bank", "name"] == "Savings Bank"
    game_id = int(mine["game_id"].iloc[0])
    r = CliRunner().invoke(cli, ["replay", str(out), str(game_id)])
    assert r.exit_code == 0, r.output
    assert "Savings Bank" in r.output or "savings_bank" in r.output


def test_the_cards_command_shows_the_new_card_and_the_changed_effect(sweep_file):
    r = CliRunner().invoke(cli, ["cards", "--spec", str(sweep_file), "--variant", NAME, "--json"])
    assert r.exit_code == 0, r.output
    rows = {row["key"]: row for row in json.loads(r.output)}
    assert rows["savings_bank"]["effect"] == "discard_for_money:1:12" and rows["savings_bank"]["cost"] == 1
    assert rows["restaurant"]["effect"] == "discard_for_money:1:12"
    assert rows["restaurant"]["changed"] == ["effect"]
    assert rows["savings_bank"]["new"] and not rows["restaurant"]["new"]


BAD = [
    ('cards.restaurant = { effect = "discard_for_cash:1:12" }', "cards.restaurant.effect: unknown effect kind 'discard_for_cash'"),
    ('cards.restaurant = { effect = "discard_for_money:12" }', "cards.restaurant.effect: effect 'discard_for_money' takes 2"),
    ('cards.restaurant = { effect = 12 }', "cards.restaurant.effect: must be text"),
    ('cards.mansion = { effect = "draw:2" }', "cards.mansion: field effect: 'draw' is a workplace effect"),
    ('new_cards.restaurant = { name = "R", cost = 1, asset_value = 1, copies = 1, effect = "money:1" }',
     "new_cards.restaurant: the key already exists"),
    ('new_cards.bank = { name = "B", cost = 1, asset_value = 1, copies = 1, effect = "money:x" }',
     "new_cards.bank.effect: effect 'money:x' has an argument that is not a whole number"),
    ('new_cards.bank = { name = "B", cost = 1, asset_value = 1, effect = "money:1" }', "new_cards.bank.copies: missing"),
    ('new_cards.bank = { name = "B", cost = 1, asset_value = 1, copies = 1, colour = "red" }', "new_cards.bank.colour: unknown field"),
    ('new_cards.bank = { name = "B", cost = 1, asset_value = 1, copies = 1, effect = "money:1", game = "glory" }',
     "new_cards.bank.game: 'glory' is not a game of this sweep"),
    ('new_cards.bank = { name = "B", cost = 1, asset_value = 1, copies = 1, icons = ["gold"] }', "new_cards.bank.icons"),
    ('new_cards.bank = { name = "B", cost = 1, asset_value = 1, copies = 1, effect = "construct:cheap" }',
     "new_cards.bank.effect: construct terms 'cheap' unknown"),
]


@pytest.mark.parametrize("line,message", BAD)
def test_a_bad_effect_or_new_card_is_refused_naming_file_key_and_reason(tmp_path, line, message):
    p = tmp_path / "bad.toml"
    p.write_text(HEAD + f'\n[[variant]]\nname = "x"\n{line}\n')
    with pytest.raises(NesimError) as err:
        load_sweep(p)
    assert str(err.value).startswith(str(p)) and message in str(err.value), str(err.value)


def test_a_deck_that_no_longer_deals_is_refused(tmp_path):
    gone = ", ".join(f"cards.{b.key} = {{ copies = 0 }}" for b in data("progress").buildings)
    p = tmp_path / "bad.toml"
    p.write_text(HEAD + '\n[[variant]]\nname = "x"\n' + gone.replace(", ", "\n") +
                 '\nnew_cards.bank = { name = "B", cost = 1, asset_value = 1, copies = 2, effect = "money:1" }\n')
    with pytest.raises(NesimError, match="too few to deal"):
        load_sweep(p)


def test_the_command_line_says_it_in_one_line_exits_2_and_writes_nothing(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(HEAD + '\n[[variant]]\nname = "x"\nnew_cards.bank = { name = "B", cost = 1, '
                 'asset_value = 1, copies = 1, effect = "lend:3" }\n')
    out = tmp_path / "out"
    r = subprocess.run(NESIM + ["sweep", str(p), "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"nesim: error: {p}") and "unknown effect kind 'lend'" in lines[0]
    assert not out.exists()


def test_a_grid_varies_an_effect_by_dotted_key(tmp_path):
    p = tmp_path / "grid.toml"
    p.write_text(HEAD + '[grid]\n"cards.restaurant.effect" = ["discard_for_money:1:12", "discard_for_money:1:18"]\n')
    sw = load_sweep(p)
    got = {v.name: str(sw.data(v, "progress").building("restaurant").effect) for v in sw.variants}
    assert got == {"baseline": "discard_for_money:1:15",
                   "restaurant.effect=discard_for_money:1:12": "discard_for_money:1:12",
                   "restaurant.effect=discard_for_money:1:18": "discard_for_money:1:18"}


def test_nesim_effects_lists_every_kind_with_its_arguments():
    r = CliRunner().invoke(cli, ["effects", "--json"])
    assert r.exit_code == 0, r.output
    kinds = {k["kind"]: k for k in json.loads(r.output)["kinds"]}
    assert kinds["discard_for_money"]["args"] == ["discard", "money"]
    assert kinds["take_items"]["args"] == ["items"] and kinds["vp_on_build"]["when"] == "built"
    # every kind the data files use is listed
    used = {b.effect.kind for g in ("progress", "mecenat", "glory") for b in data(g).buildings if b.effect}
    assert used <= set(kinds)


def test_numbers_once_written_in_the_engines_come_from_the_effect_column():
    """Chemical Plant and Lottery had their numbers written in both engines' code; a variant
    that changes them changes what both engines do (draw 6 into an empty hand; a Lottery that
    needs $30 and returns $10)."""
    chem = data("progress").with_changes(cards={"chemical_plant": {"effect": "draw_more_if_empty:1:6"}})
    g = position("progress", game_data=chem, hand={}, buildings={"chemical_plant": 1})
    place(g, "chemical_plant")
    assert g.players[0].hand_size() == 6
    k = KPosition("progress", game_data=chem, hand={}, buildings={"chemical_plant": 1})
    k.take_turn(k.own("chemical_plant"))
    assert int(k.s["hand_n"][0]) == 6

    lottery = data("mecenat").with_changes(cards={"lottery": {"effect": "lottery:30:10"}})
    for budget, usable in ((29, False), (30, True)):
        g = position("mecenat", game_data=lottery, budget=budget, money=0, buildings={"lottery": 1})
        k = KPosition("mecenat", game_data=lottery, budget=budget, money=0, buildings={"lottery": 1})
        assert ("own:lottery" in g.placement_options(g.players[0])) == usable
        assert (k.own("lottery") in k.options()) == usable
    place(g, "lottery")
    k.take_turn(k.own("lottery"))
    assert (g.players[0].money, g.budget) == (20, 10)
    assert (int(k.s["money"][0]), int(k.s["budget"])) == (20, 10)
