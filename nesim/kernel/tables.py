"""The kernel's view of the data: card tables and rules as one int64 array, and the state layout.

Card ids: building types keep their type id (0..B-1, the order of the game's CSV); the consumer
item is ``CONS``; the common workplaces follow from ``COMMON0``. ``TAB[row, card]`` holds one
field of one card; row ``R`` holds the rule parameters at the ``R_*`` columns. Changing a card's
cost or copies, or a rule, changes only this array, so the kernel never recompiles for it.

How each card behaves is its effect column (``nesim.cards.EFFECT_KINDS``): the kind becomes an
effect id (``E_*``, :data:`EFFECT_IDS`) and its arguments rows ``EA``, ``EB``, ``EC``
(:func:`effect_row`), the kernel's counterpart of ``nesim/reference/effects/kinds.py``.
"""

from __future__ import annotations

import numba
import numpy as np

from nesim.cards import END_RULES, RULE_FIELDS, GameData

MAXP = 4  # players
NT = 32  # hand/building slots: building types 0..30, consumer item at CONS
CONS = 31
COMMON0 = 32
COMMON_KEYS = ("quarry", "mine", "school", "carpenter", "relics_workplace", "stall", "market",
               "high_school", "supermarket", "university", "department_store", "technical_college",
               "world_expo")
QUARRY, MINE, SCHOOL, CARPENTER, RELICS_WP = range(COMMON0, COMMON0 + 5)
NCARDS = COMMON0 + len(COMMON_KEYS)
MAXDECK = 160
MAXPUB = 64
MAXBUILDS = 64
MAXROUNDS = 12
LOGMAX = 4096
LOGMAX_OPTIONS = 1 << 15  # a log that records every decision's options as well
MAXOPTS = 600
PREFIX_MAX = 96  # answers a lookahead can replay within one turn or payday
NEST_MAX = 512  # answers a nested playout can replay, from a checkpoint to the end of the game

# rows of TAB
# (EC, the third effect argument, comes after R: the rows before it keep their numbers, so code
# compiled against the older layout and still in Numba's cache reads the same rows)
(COST, ASSET, COPIES, AGRI, IND, LOCK, SELLABLE, WORKABLE, NEED, CR_KIND, CR_A, CR_B,
 END_KIND, END_A, END_B, EFFECT, EA, EB, SHARED, ONBUILD, R, EC) = range(22)
NROWS = 22
NCOLS = 64

# columns of row R: first the rule parameters, one column per field of cards.Rules in its order
# (a tuple field one per round or per player count: RULE_WIDTHS), so that a new rule parameter
# gets its column from its field; then what build_table derives from the cards
RULE_WIDTHS = {"wages": MAXROUNDS, "start_money": MAXP, "carpenters": MAXP}
assert all(name in RULE_WIDTHS for name, kind in RULE_FIELDS.items() if "tuple" in str(kind)), \
    "every tuple field of cards.Rules needs its number of columns in RULE_WIDTHS"


def _rule_columns() -> tuple[dict[str, int], int]:
    """Rule field -> its first column of row R, and the first column after them."""
    columns, at = {}, 0
    for name in RULE_FIELDS:
        columns[name] = at
        at += RULE_WIDTHS.get(name, 1)
    return columns, at


RULE_COLUMNS, _RULES_END = _rule_columns()
(R_ROUNDS, R_WAGES, R_START_MONEY, R_SOLO_MONEY, R_START_HAND, R_START_WORKERS, R_MAX_WORKERS,
 R_HAND_LIMIT, R_WAREHOUSE_BONUS, R_VP_SET, R_VP_POINTS, R_UNPAID_PENALTY, R_CARPENTERS, R_SOLO_DIV,
 R_SOLO_TARGET, R_SOLO_A, R_SOLO_B) = (RULE_COLUMNS[name] for name in (
    "rounds", "wages", "start_money", "solo_start_money", "start_hand", "start_workers",
    "max_workers", "hand_limit", "warehouse_hand_bonus", "vp_set_size", "vp_set_points",
    "unpaid_wage_penalty", "carpenters", "solo_sale_divisor", "solo_target", "solo_a", "solo_b"))
# derived from the cards: the number of building types, whether the game is Glory, the ids of
# the buildings some rules name (-1 when the game has no such card), and from R_ROUND_CARD on, the
# card id arriving at the start of round r (-1: none), MAXROUNDS columns
(R_NTYPES, R_GLORY, R_ID_WAREHOUSE, R_ID_COMPANY_HOUSE, R_ID_BURNT_FIELD,
 R_ROUND_CARD) = range(_RULES_END, _RULES_END + 6)
assert R_ROUND_CARD + MAXROUNDS <= NCOLS, "row R has room for every rule column"

# cost rules and end-game rules
CR_NONE, CR_IF_AGRI, CR_PER_IND, CR_IF_VP = range(4)
COST_RULE_IDS = {"if_agriculture": CR_IF_AGRI, "per_industry": CR_PER_IND, "if_vp": CR_IF_VP}
# The kernel's id of each end-game rule is its place in cards.END_RULES, the one list of their names.
END_RULE_IDS = {k: i + 1 for i, k in enumerate(END_RULES)}
(END_PER_BUILDING, END_PER_ITEM, END_PER_WORKER, END_PER_LOCK, END_PER_IND, END_EMPTY_HAND,
 END_DOUBLE_VP, END_FORGIVE, END_MIN_BUILDINGS, END_MIN_AGRI, END_MIN_IND, END_MIN_LOCK,
 END_MIN_VP, END_MIN_WORKERS, END_MIN_ITEMS, END_AGRI_VALUE, END_IND_VALUE, END_AGRI_AND_IND,
 END_ONLY_LOCK, END_PER_NO_SALE) = (END_RULE_IDS[k] for k in (
    "per_building", "per_consumer_item", "per_worker", "per_lock", "per_industry", "empty_hand",
    "double_vp", "forgive_unpaid", "min_buildings", "min_agriculture", "min_industry", "min_lock",
    "min_vp", "min_workers", "min_consumer_items", "agriculture_value", "industry_value",
    "agriculture_and_industry", "only_lock", "per_no_sale"))
assert END_PER_NO_SALE == len(END_RULES), "every end-game rule of cards.END_RULES needs its kernel constant"

# effect ids
(E_NONE, E_QUARRY, E_MINE, E_SCHOOL, E_RELICS_WP, E_DISCARD_MONEY, E_HIRE_UPTO, E_TECH_COLLEGE,
 E_TAKE_ITEMS, E_BURNT_FIELD, E_DESIGN_OFFICE, E_MONEY, E_DISCARD_DRAW, E_FILL_HAND, E_DRAW,
 E_CHEMICAL, E_IRONWORK, E_ITEMS_VP, E_LOTTERY, E_FISH_FARM, E_FARM_RESORT, E_DRAW_VP,
 E_BREWERY, E_FARM_VILLAGE, E_CHICKEN, E_CAFE, E_MUSEUM_GLORY, E_CONSTRUCT) = range(28)

# construction terms (row EA of an E_CONSTRUCT card): what it builds and how it is paid
(C_PLAIN, C_DISCOUNT, C_SETTLER, C_CONTRACTOR, C_DOUBLE_CITY, C_TEMPLE, C_BUILDING_CO, C_PREFAB,
 C_WORLDWIDE, C_COLONY, C_SKYSCRAPER, C_MODERN, C_TRANSPORTER) = range(13)

ONBUILD_NONE, ONBUILD_VP, ONBUILD_DOLL = range(3)

# effect kind (the ``effect`` column, nesim.cards.EFFECT_KINDS) -> kernel effect id; a kind's
# arguments go to rows EA, EB, EC in the order EFFECT_KINDS names them
EFFECT_IDS = {
    "draw_and_lead": E_QUARRY, "mine_draw": E_MINE, "hire": E_SCHOOL, "relics": E_RELICS_WP,
    "discard_for_money": E_DISCARD_MONEY, "hire_up_to": E_HIRE_UPTO, "hire_ready": E_TECH_COLLEGE,
    "take_items": E_TAKE_ITEMS, "take_items_once": E_BURNT_FIELD, "reveal_keep_one": E_DESIGN_OFFICE,
    "money": E_MONEY, "discard_then_draw": E_DISCARD_DRAW, "fill_hand": E_FILL_HAND, "draw": E_DRAW,
    "draw_more_if_empty": E_CHEMICAL, "draw_if_on_mine": E_IRONWORK, "items_and_vp": E_ITEMS_VP,
    "lottery": E_LOTTERY, "items_more_if_holding": E_FISH_FARM, "money_per_item": E_FARM_RESORT,
    "draw_and_vp": E_DRAW_VP, "items_next_round": E_BREWERY, "items_or_trade": E_FARM_VILLAGE,
    "items_by_parity": E_CHICKEN, "money_more_if_last_unit": E_CAFE,
    "money_if_hand_size": E_MUSEUM_GLORY, "construct": E_CONSTRUCT,
}
# construct terms (nesim.cards.CONSTRUCT_TERMS) -> C_* in row EA; their number goes to row EB
TERMS_IDS = {
    "plain": C_PLAIN, "discount": C_DISCOUNT, "free_agriculture": C_SETTLER, "then_draw": C_CONTRACTOR,
    "pair_same_cost": C_DOUBLE_CITY, "then_vp": C_TEMPLE, "lock_then_draw": C_BUILDING_CO,
    "free_up_to_value": C_PREFAB, "pair_then_draw_if_empty": C_WORLDWIDE, "then_items": C_COLONY,
    "then_draw_if_empty": C_SKYSCRAPER, "items_double": C_MODERN, "free": C_TRANSPORTER,
}
# lock cards' effects when built -> row ONBUILD; the number goes to row EA
ONBUILD_IDS = {"vp_on_build": ONBUILD_VP, "doll_on_build": ONBUILD_DOLL}


def effect_row(effect) -> tuple[int, int, int, int]:
    """(effect id, EA, EB, EC) of a workplace's parsed effect, (E_NONE, 0, 0, 0) for none."""
    if effect is None or effect.kind in ONBUILD_IDS:
        return (E_NONE, 0, 0, 0)
    if effect.kind == "construct":
        return (E_CONSTRUCT, TERMS_IDS[effect.terms], effect.args[0], 0)
    args = list(effect.args) + [0, 0, 0]
    return (EFFECT_IDS[effect.kind], args[0], args[1], args[2])


def card_ids(data: GameData) -> dict[str, int]:
    """Card key -> kernel card id for one game."""
    ids = {b.key: i for i, b in enumerate(data.buildings)}
    ids["consumer_item"] = CONS
    ids.update({k: COMMON0 + i for i, k in enumerate(COMMON_KEYS)})
    return ids


def build_table(data: GameData) -> np.ndarray:
    """The int64 array the kernel plays from: card fields, effects and rule parameters."""
    if len(data.buildings) > CONS:
        raise ValueError(f"the kernel holds at most {CONS} building types")
    if data.rules.rounds > MAXROUNDS:
        raise ValueError(f"the kernel plays at most {MAXROUNDS} rounds")
    t = np.zeros((NROWS, NCOLS), dtype=np.int64)
    t[NEED, COMMON0:NCARDS] = 1
    t[WORKABLE, COMMON0:NCARDS] = 1
    for i, b in enumerate(data.buildings):
        t[COST, i], t[ASSET, i], t[COPIES, i] = b.cost, b.asset_value, b.copies
        t[AGRI, i], t[IND, i], t[LOCK, i] = b.agriculture, b.industry, b.facility
        t[SELLABLE, i], t[WORKABLE, i], t[NEED, i] = b.sellable, b.workable, b.workers_needed
        if b.cost_rule is not None:
            t[CR_KIND, i] = COST_RULE_IDS[b.cost_rule.kind]
            args = list(b.cost_rule.args) + [0]
            t[CR_A, i], t[CR_B, i] = args[0], args[1]
        if b.end_game is not None:
            t[END_KIND, i] = END_RULE_IDS[b.end_game.kind]
            args = list(b.end_game.args) + [0, 0]
            t[END_A, i], t[END_B, i] = args[0], args[1]
        t[EFFECT, i], t[EA, i], t[EB, i], t[EC, i] = effect_row(b.effect)
        if b.effect is not None and b.effect.kind in ONBUILD_IDS:
            t[ONBUILD, i], t[EA, i] = ONBUILD_IDS[b.effect.kind], b.effect.args[0]
    ids = card_ids(data)
    for c in data.common:
        if c.kind != "consumer":
            cid = ids[c.key]
            t[EFFECT, cid], t[EA, cid], t[EB, cid], t[EC, cid] = effect_row(c.effect)
            t[SHARED, cid] = c.shared_from or 0
    for name, column in RULE_COLUMNS.items():
        value = getattr(data.rules, name)
        if isinstance(value, str):  # a card key (solo_a, solo_b): its card id
            value = ids[value]
        if isinstance(value, tuple):
            if len(value) > RULE_WIDTHS[name]:
                raise ValueError(f"the kernel holds at most {RULE_WIDTHS[name]} values of {name}")
            t[R, column:column + len(value)] = value
        else:
            t[R, column] = value
    t[R, R_NTYPES] = len(data.buildings)
    t[R, R_GLORY] = data.game == "glory"
    for col, key in ((R_ID_WAREHOUSE, "warehouse"), (R_ID_COMPANY_HOUSE, "company_house"),
                     (R_ID_BURNT_FIELD, data.worked_once_key())):
        t[R, col] = data.index.get(key, -1)
    t[R, R_ROUND_CARD:R_ROUND_CARD + MAXROUNDS] = -1
    for rnd, key in data.round_cards().items():
        if rnd <= data.rules.rounds:
            t[R, R_ROUND_CARD + rnd - 1] = ids[key]
    return t


# The lookahead's record (nesim/kernel/search.py), one in each state of ``st`` so that copying a
# state copies its search: what the state is (MODE_*), whether its strategies answer directly
# (inside a playout), the answers recorded or to be replayed since the checkpoint, the decision a
# probe stopped at, and the luck of a playout's sampled future.
SEARCH = np.dtype([
    ("mode", np.int32), ("playout", np.int32), ("halt", np.int32), ("lookahead_on", np.int32),
    ("prefix", np.int64, (NEST_MAX,)), ("prefix_n", np.int32), ("forced_pos", np.int32),
    # nested playouts (search.nested_playout): 1 while the answers are recorded to the game's end,
    # each one's number of options (0: not to be searched), and where the playout's luck begins
    ("nest", np.int32), ("prefix_opts", np.int16, (NEST_MAX,)), ("luck_at", np.int32),
    ("nest_until", np.int32),
    # the seat whose decision is searched (whose unseen cards a playout deals anew), and the
    # number of options of the decision a probe stopped at
    ("seat", np.int32), ("n_options", np.int32),
    ("luck", np.uint64),
    # scratch of search.deal_unseen: each seat's building cards dealt anew, then the known top
    # cards of the deck (at most MAXP + 4 numbers)
    ("deal_n", np.int32, (MAXP + 4,)),
])

STATE = np.dtype([
    ("deck", np.int32, (MAXDECK,)), ("deck_n", np.int32), ("discard", np.int32, (NT,)),
    ("hand", np.int32, (MAXP, NT)), ("bld", np.int32, (MAXP, NT)), ("used", np.int32, (MAXP, NT)),
    ("hand_n", np.int32, (MAXP,)), ("bld_n", np.int32, (MAXP,)),
    # bit c set when the player holds (owns) at least one card of type c: loops over a hand or a
    # row of buildings visit the few types present instead of every type of the game
    ("hand_mask", np.int64, (MAXP,)), ("bld_mask", np.int64, (MAXP,)),
    ("money", np.int32, (MAXP,)), ("workers", np.int32, (MAXP,)), ("training", np.int32, (MAXP,)),
    ("dolls", np.int32, (MAXP,)), ("placed", np.int32, (MAXP,)), ("stuck", np.int32, (MAXP,)),
    ("vp", np.int32, (MAXP,)), ("unpaid", np.int32, (MAXP,)), ("on_mine", np.int32, (MAXP,)),
    ("burnt", np.int32, (MAXP,)), ("brewery", np.int32, (MAXP,)),
    ("wages_paid", np.int32, (MAXP,)), ("sold_value", np.int32, (MAXP,)),
    ("pub_card", np.int32, (MAXPUB,)), ("pub_origin", np.int32, (MAXPUB,)),
    ("pub_plc", np.int32, (MAXPUB,)), ("pub_side", np.int32, (MAXPUB,)), ("pub_n", np.int32),
    ("build_card", np.int16, (MAXP, MAXBUILDS)), ("build_round", np.int16, (MAXP, MAXBUILDS)),
    ("n_builds", np.int32, (MAXP,)),
    ("budget", np.int64), ("sales_total", np.int64), ("start_player", np.int32),
    ("round", np.int32), ("n", np.int32), ("error", np.int32), ("n_log", np.int32),
    ("rng", np.uint64), ("srng", np.uint64, (MAXP,)),
    # deck size right after setup: in solo the set-aside card B lies known on top of the deck
    # until the first draw (core.known_on_top)
    ("deck_start_n", np.int32),
    # 1 when the game's log also records the options of every decision (LOG_OPTIONS, for the
    # kernel-reference differential); not cleared by setup, set per batch
    ("log_opts", np.int32),
    # the lookahead's own record (SEARCH): the rules never read it
    ("search", SEARCH),
])
STATE_T = numba.from_dtype(STATE)

# origin of a general workplace
ORIG_INITIAL, ORIG_ROUND, ORIG_SOLD, ORIG_SOLO = range(4)
# error codes a game can end with (0: none)
ERR_LOG_FULL, ERR_BAD_CHOICE, ERR_BAD_SALE, ERR_OVERFLOW = 1, 2, 4, 8
