"""End-of-game scoring (RULES-NOTES §14) and the tie-break.

The bonus of each lock card is data: its ``end_game`` rule (``kind:args``) in the card table.
Each copy of a bonus card scores on its own. Bonuses read the final state, after round 9's
payday: the final hand, buildings, workers and tokens.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from nesim.cards import CONSUMER, GameData, Rules


@dataclass
class Score:
    seat: int
    building_points: int
    bonus_points: int
    money: int
    vp_tokens: int
    vp_points: int
    unpaid_wages: int  # Unpaid Wage cards left after Law Office
    unpaid_penalty: int
    total: int
    rank: int = 0
    solo_cleared: bool | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def vp_points(tokens: int, rules: Rules) -> int:
    """10 per complete set of 3 tokens and 1 per leftover token, with the default rules."""
    return rules.vp_set_points * (tokens // rules.vp_set_size) + tokens % rules.vp_set_size


class Holdings:
    """The counts that end-of-game rules read, for one player."""

    def __init__(self, data: GameData, buildings: dict[str, int], hand_size: int, items: int,
                 workers: int, vp: int) -> None:
        def icon(name: str) -> list[tuple[int, int]]:  # (count, asset value) of icon buildings
            return [(n, data.building(k).asset_value) for k, n in buildings.items()
                    if getattr(data.building(k), name)]
        self.buildings = sum(buildings.values())
        self.agriculture = sum(n for n, _ in icon("agriculture"))
        self.industry = sum(n for n, _ in icon("industry"))
        self.lock = sum(n for n, _ in icon("facility"))
        # the no-sale icon: every lock card, and Burnt Field (RULES-NOTES §16.10, revised)
        self.no_sale = sum(n for k, n in buildings.items() if not data.building(k).sellable)
        self.agriculture_value = sum(n * v for n, v in icon("agriculture"))
        self.industry_value = sum(n * v for n, v in icon("industry"))
        self.hand_size = hand_size
        self.items = items
        self.workers = workers
        self.vp = vp


def bonus(kind: str, args: tuple[int, ...], h: Holdings) -> int:
    """The points one copy of a bonus card adds."""
    per = {"per_building": h.buildings, "per_consumer_item": h.items, "per_worker": h.workers,
           "per_lock": h.lock, "per_no_sale": h.no_sale, "per_industry": h.industry}
    if kind in per:
        return args[0] * per[kind]
    at_least = {"min_buildings": h.buildings, "min_agriculture": h.agriculture,
                "min_industry": h.industry, "min_lock": h.lock, "min_vp": h.vp,
                "min_workers": h.workers, "min_consumer_items": h.items,
                "agriculture_value": h.agriculture_value, "industry_value": h.industry_value}
    if kind in at_least:
        threshold, points = args
        return points if at_least[kind] >= threshold else 0
    if kind == "empty_hand":
        return args[0] if h.hand_size == 0 else 0
    if kind == "agriculture_and_industry":
        return args[0] if h.agriculture and h.industry else 0
    if kind == "only_lock":
        return args[0] if h.lock == 1 else 0
    if kind in ("double_vp", "forgive_unpaid"):
        return 0  # these change the token points and the penalty instead
    raise ValueError(f"unknown end-game rule {kind!r}")


def score_player(data: GameData, buildings: dict[str, int], hand_size: int, items: int,
                 workers: int, vp: int, money: int, unpaid: int, seat: int = 0) -> Score:
    h = Holdings(data, buildings, hand_size, items, workers, vp)
    rules = data.rules
    building_points = sum(n * data.building(k).asset_value for k, n in buildings.items())
    bonus_points = 0
    doubled = False
    forgiven = 0
    for key, n in buildings.items():
        rule = data.building(key).end_game
        if rule is None:
            continue
        bonus_points += n * bonus(rule.kind, rule.args, h)
        doubled |= rule.kind == "double_vp"
        if rule.kind == "forgive_unpaid":
            forgiven += n * rule.args[0]
    points = vp_points(vp, rules) * (2 if doubled else 1)
    unpaid_left = max(0, unpaid - forgiven)
    penalty = rules.unpaid_wage_penalty * unpaid_left
    total = building_points + bonus_points + money + points - penalty
    return Score(seat, building_points, bonus_points, money, vp, points, unpaid_left, penalty, total)


def rank_seats(totals: list[int], start_player: int) -> list[int]:
    """Rank (1 = winner) of each seat: higher total first, ties to the seat nearest the start player."""
    n = len(totals)
    order = sorted(range(n), key=lambda s: (-totals[s], (s - start_player) % n))
    ranks = [0] * n
    for r, s in enumerate(order, start=1):
        ranks[s] = r
    return ranks


def score_game(g) -> list[Score]:
    scores = [score_player(g.data, dict(p.buildings), p.hand_size(), p.items(), p.workers, p.vp,
                           p.money, p.unpaid, p.seat) for p in g.players]
    for s, r in zip(scores, rank_seats([s.total for s in scores], g.start_player)):
        s.rank = r
    if g.solo:
        scores[0].solo_cleared = scores[0].total >= g.rules.solo_target
    return scores
