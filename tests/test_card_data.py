"""The card tables: they match the rulebook's deck sizes, and bad data is refused by name."""

import dataclasses
import shutil

import pytest

from harness import options, position
from kernel_harness import KPosition
from nesim.cards import CONSTRUCT_TERMS, DATA_DIR, DECK_SIZES, EFFECT_KINDS, RULE_FIELDS, load_game
from nesim.errors import NesimError
from nesim.kernel import tables
from nesim.kernel.tables import EFFECT_IDS, ONBUILD_IDS, TERMS_IDS, build_table
from nesim.reference.effects.kinds import KINDS


@pytest.mark.parametrize("game", ["progress", "mecenat", "glory"])
def test_decks_have_the_rulebook_sizes_and_every_workable_card_an_effect(game):
    data = load_game(game)
    assert data.deck_size() == DECK_SIZES[game]
    for b in data.buildings:
        assert (b.effect is not None and b.effect.workplace) == b.workable, b.key


def test_every_effect_kind_is_carried_out_by_both_engines():
    assert set(KINDS) == set(EFFECT_KINDS)
    assert set(EFFECT_IDS) | set(ONBUILD_IDS) == set(EFFECT_KINDS)
    assert not set(EFFECT_IDS) & set(ONBUILD_IDS)
    assert set(TERMS_IDS) == set(CONSTRUCT_TERMS)


def test_lock_cards_are_neither_workable_nor_sellable_and_burnt_field_is_unsellable():
    for game in ("progress", "mecenat", "glory"):
        for b in load_game(game).buildings:
            if b.facility:
                assert not b.workable and not b.sellable and b.workers_needed == 0
    bf = load_game("progress").building("burnt_field")
    assert not bf.sellable and bf.workable and not bf.facility


def test_two_worker_cards_of_glory():
    data = load_game("glory")
    assert {b.key for b in data.buildings if b.workers_needed == 2} == {"cotton_farm", "coal_mine", "transporter"}


def test_rule_parameters_come_from_the_rules_file():
    r = load_game("mecenat").rules
    assert r.start_money == (5, 6, 7, 8) and r.hand_limit == 5 and r.max_workers == 5
    assert r.vp_set_size == 3 and r.vp_set_points == 10 and r.solo_target == 125


def bad_copy(tmp_path, filename, old, new):
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    text = (d / filename).read_text()
    assert old in text
    (d / filename).write_text(text.replace(old, new, 1))
    return d


@pytest.mark.parametrize("filename,old,new,words", [
    ("progress.csv", "farm,Farm,,農場,1,6,8,1,", "farm,Farm,,農場,1,6,8,2,", ["farm", "agriculture"]),
    ("progress.csv", "mansion,Mansion,,邸宅,4,28,1,0,0,1,0,0,", "mansion,Mansion,,邸宅,4,28,1,0,0,1,1,0,",
     ["mansion", "lock"]),
    ("mecenat.csv", "if_vp:5:4", "if_tokens:5:4", ["cathedral", "if_tokens"]),
    ("glory.csv", "only_lock:30", "only_lock", ["temple", "only_lock"]),
    ("progress.csv", ",discard_for_money:1:15,", ",discard_for_cash:1:15,",
     ["restaurant", "effect", "discard_for_cash"]),
    ("progress.csv", ",discard_for_money:1:15,", ",discard_for_money:15,", ["restaurant", "effect", "2"]),
    ("progress.csv", ",discard_for_money:1:15,", ",discard_for_money:1:x,", ["restaurant", "effect"]),
    ("progress.csv", ",construct:discount:1,", ",construct:discount,", ["construction_company", "effect"]),
    ("progress.csv", ",construct:discount:1,", ",construct:cheaply:1,", ["construction_company", "cheaply"]),
    ("progress.csv", ",take_items:2,", ",,", ["farm", "effect", "workable"]),
    ("progress.csv", ",,Lock. Points only.", ",draw:2,Lock. Points only.", ["mansion", "effect", "draw"]),
    ("common.csv", ",hire_up_to:4,", ",hire_up:4,", ["high_school", "effect", "hire_up"]),
    ("common.csv", ",discard_for_money:1:6,3,", ",discard_for_money:1:6,0,", ["stall", "shared_from"]),
    ("rules.toml", "hand_limit = 5", "hand_limit = -1", ["hand_limit"]),
    ("rules.toml", "hand_limit = 5", "hand_size = 5", ["hand_size"]),
    ("rules.toml", "wages = [2, 2, 3, 3, 3, 4, 4, 5, 5]", "wages = [2, 2, 3]", ["wages"]),
])
def test_bad_data_is_refused_naming_file_card_and_field(tmp_path, filename, old, new, words):
    game = filename.split(".")[0] if filename.endswith(".csv") and filename != "common.csv" else "progress"
    with pytest.raises(NesimError) as err:
        load_game(game, bad_copy(tmp_path, filename, old, new))
    for w in [filename, *words]:
        assert w in str(err.value)


def test_variant_changes_are_checked_and_applied():
    data = load_game("mecenat")
    v = data.with_changes(cards={"cathedral": {"cost": 8}, "lottery": {"copies": 0}}, rules={"hand_limit": 6})
    assert v.building("cathedral").cost == 8 and v.building("lottery").copies == 0 and v.rules.hand_limit == 6
    assert data.building("cathedral").cost == 10  # the original is untouched
    for cards, rules in [({"castle": {"cost": 1}}, {}), ({"lottery": {"copies": -1}}, {}),
                         ({"lottery": {"colour": 1}}, {}), ({}, {"wages": [1, 2]})]:
        with pytest.raises(NesimError):
            data.with_changes(cards=cards, rules=rules)
    everything_gone = {b.key: {"copies": 0} for b in data.buildings}
    with pytest.raises(NesimError, match="too few"):
        data.with_changes(cards=everything_gone)


# Each rule parameter and the R_* column the kernel reads it from: stated here once more, by hand,
# so that a column derived from the wrong field, or two fields sharing a column, is caught.
KERNEL_RULE_COLUMNS = {
    "rounds": "R_ROUNDS", "wages": "R_WAGES", "start_money": "R_START_MONEY",
    "solo_start_money": "R_SOLO_MONEY", "start_hand": "R_START_HAND",
    "start_workers": "R_START_WORKERS", "max_workers": "R_MAX_WORKERS", "hand_limit": "R_HAND_LIMIT",
    "warehouse_hand_bonus": "R_WAREHOUSE_BONUS", "vp_set_size": "R_VP_SET",
    "vp_set_points": "R_VP_POINTS", "unpaid_wage_penalty": "R_UNPAID_PENALTY",
    "carpenters": "R_CARPENTERS", "solo_sale_divisor": "R_SOLO_DIV", "solo_target": "R_SOLO_TARGET",
    "solo_a": "R_SOLO_A", "solo_b": "R_SOLO_B",
}


@pytest.mark.parametrize("game", ["progress", "glory"])
def test_every_rule_parameter_lands_in_the_column_the_kernel_reads(game):
    """Every field of Rules set to a value of its own (card keys to two distinct cards): the
    kernel's R_* column for it must hold that value, and the columns derived from the cards after
    them must be intact."""
    data = load_game(game)
    assert set(KERNEL_RULE_COLUMNS) == set(RULE_FIELDS), "a new rule parameter: name its R_* column"
    keys = iter(b.key for b in data.buildings)
    marked = {}
    for i, (name, value) in enumerate(dataclasses.asdict(data.rules).items()):
        if name == "rounds":
            marked[name] = value  # it bounds the table; wages keep one value per round
        elif isinstance(value, str):
            marked[name] = next(keys)
        elif isinstance(value, tuple):
            marked[name] = tuple(100 * (i + 1) + j for j in range(len(value)))
        else:
            marked[name] = 100 * (i + 1)
    table = build_table(dataclasses.replace(data, rules=dataclasses.replace(data.rules, **marked)))
    for name, value in marked.items():
        column = getattr(tables, KERNEL_RULE_COLUMNS[name])
        if isinstance(value, str):
            assert table[tables.R, column] == data.index[value], name
        elif isinstance(value, tuple):
            assert list(table[tables.R, column:column + len(value)]) == list(value), name
        else:
            assert table[tables.R, column] == value, name
    assert table[tables.R, tables.R_NTYPES] == len(data.buildings)
    assert table[tables.R, tables.R_GLORY] == (game == "glory")
    assert table[tables.R, tables.R_ROUND_CARD + 1] == tables.card_ids(data)["stall"]


@pytest.mark.parametrize("shared_from, n, offered", [(None, 2, False), (None, 3, True), (2, 2, True)])
def test_both_engines_share_a_workplace_from_the_number_of_players_its_data_names(shared_from, n,
                                                                                     offered):
    """The Stall with one unit on it is offered again only from the number of players in its
    ``shared_from`` (common.csv: 3; a variant here: 2), in the kernel and the reference engine."""
    data = load_game("progress")
    if shared_from is not None:
        data = dataclasses.replace(data, common=tuple(
            dataclasses.replace(c, shared_from=shared_from) if c.key == "stall" else c
            for c in data.common))
    g = position("progress", n, round=2, budget=6, game_data=data)
    stall = next(i for i, wp in enumerate(g.public) if wp.key == "stall")
    g.public[stall].placements = 1
    assert (f"pub:{stall}" in options(g)) == offered
    k = KPosition("progress", n, round=2, budget=6, game_data=data)
    slot = k.public("stall")
    k.s["pub_plc"][slot] = 1
    assert (slot in k.options()) == offered
