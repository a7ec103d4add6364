"""The reference engine: the rules of Progress, Mecenat and Glory as plain Python.

A game is a generator (:meth:`Game.play`) that yields a :class:`Decision` whenever the rules
leave a choice to a player and receives the chosen value back. The round structure, payday and
the primitives that card effects use (draw, take, construct, hire ...) live here; each effect
kind (read from the card's ``effect`` column) lives in the ``effects`` package and the end-of-game scoring in ``scoring.py``.

The paragraphs cited as RULES-NOTES §n are those of the project's shared rules notes; the readings
nesim follows are stated in ``docs/RULES.md``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, Callable, Generator, Iterable

from nesim.cards import CONSUMER, GameData
from nesim.reference.decisions import (BUILD, DISCARD, PLACE, SELL, Decision, IllegalDecision,
                                       normalise)
from nesim.reference.state import Player, Workplace
from nesim.rng import SplitMix64

Gen = Generator[Decision, Any, Any]



class Game:
    """One game in progress. Create it, then drive :meth:`play` (see :func:`run_game`)."""

    def __init__(self, data: GameData, n_players: int, seed: int, trace: bool = False) -> None:
        if not 1 <= n_players <= 4:
            raise ValueError(f"a game has 1 to 4 players, not {n_players}")
        if n_players == 1:
            data.check_solo()
        self.data = data
        self.rules = data.rules
        self.game = data.game
        self.n = n_players
        self.solo = n_players == 1
        self.seed = seed
        self.rng = SplitMix64(seed)
        self.trace = trace
        self.events: list[dict] = []
        self.log: list[tuple[str, int, Any]] = []  # (kind, seat, value) of every decision
        self.round = 0
        self.budget = 0
        self.sales_total = 0  # money that entered the game from the supply through sales
        self.deck: list[str] = []
        self.discard: Counter = Counter()  # building discard pile, by key
        self.limbo: Counter = Counter()  # building cards between places (being built, revealed)
        self.public: list[Workplace] = []
        # common workplaces any number of units may share, from this many players on (common.csv)
        self.shared_from = {c.key: c.shared_from for c in data.common if c.shared_from is not None}
        self.players: list[Player] = []
        self.start_player = 0
        self.finished = False
        self.scores: list = []
        self.initial_deck: list[str] = []
        # after each payday, per player: money, Budget, workers, hand, buildings, wages paid,
        # unpaid wage cards so far, money from sales (the pacing figures of a dataset)
        self.round_records: list[list[tuple[int, ...]]] = []
        self._setup()

    # ------------------------------------------------------------------ setup (RULES-NOTES §2, §15)

    def _setup(self) -> None:
        r = self.rules
        deck = [b.key for b in self.data.buildings for _ in range(b.copies)]
        set_aside_a = None
        if self.solo:
            for key in (r.solo_a, r.solo_b):
                if self.data.is_building(key):
                    deck.remove(key)
            set_aside_a = r.solo_a
        self.rng.shuffle(deck)
        self.deck = deck
        self.initial_deck = list(deck)
        for seat in range(self.n):
            money = r.solo_start_money if self.solo else r.start_money[seat]
            p = Player(seat=seat, money=money, workers=r.start_workers)
            for _ in range(r.start_hand):
                p.add_to_hand(self.deck.pop())
            self.players.append(p)
        carpenters = [Workplace("carpenter", "initial") for _ in range(r.carpenters[self.n - 1])]
        if self.solo:
            self.deck.append(r.solo_b)
            self.public = [Workplace("mine", "initial"), *carpenters, Workplace("school", "initial"),
                           Workplace(set_aside_a, "solo")]
        else:
            self.public = [Workplace("quarry", "initial"), Workplace("mine", "initial"),
                           Workplace("school", "initial"), *carpenters]
            if self.game == "glory":
                self.public.append(Workplace("relics_workplace", "initial"))
        self.emit("setup", players=self.n, deck=len(self.deck),
                  hands=[dict(p.hand) for p in self.players])

    # ------------------------------------------------------------------ the game

    def play(self) -> Gen:
        """The whole game: nine rounds of action phase and payday, then scoring."""
        from nesim.reference.scoring import score_game

        round_cards = self.data.round_cards()
        for rnd in range(1, self.rules.rounds + 1):
            self.round = rnd
            self._start_round(round_cards.get(rnd))
            yield from self._action_phase()
            yield from self._payday()
        self.scores = score_game(self)
        self.finished = True
        self.emit("end", scores=[s.as_dict() for s in self.scores])

    def _start_round(self, round_card: str | None) -> None:
        """Next-round setup (§13): the new round card, Brewery items, every unit ready again."""
        if round_card is not None:
            self.public.append(Workplace(round_card, "round"))
        for p in self.players:
            if p.brewery:
                p.add_to_hand(CONSUMER, p.brewery)
                p.brewery = 0
        self.emit("round", round=self.round, new_workplace=round_card, start_player=self.start_player,
                  wage=self.rules.wage(self.round))

    def seat_order(self) -> list[Player]:
        """Players clockwise from the current start player."""
        return [self.players[(self.start_player + i) % self.n] for i in range(self.n)]

    # ------------------------------------------------------------------ asking players

    def ask(self, kind: str, p: Player, options: list, **context: Any) -> Gen:
        """Yields a decision and returns the answer once it is known to be legal."""
        decision = Decision(kind, p.seat, options, self.round, context)
        choice = normalise(kind, (yield decision))
        if kind == SELL and isinstance(choice, tuple):  # a set: any order names the same sale
            choice = tuple(sorted(choice, key=lambda k: self.data.index.get(k, -1)))
        if choice not in options:
            raise IllegalDecision(len(self.log), decision, choice)
        self.log.append((kind, p.seat, choice))
        return choice

    # ------------------------------------------------------------------ action phase (§4, §5)

    def _action_phase(self) -> Gen:
        seat = self.start_player
        while any(p.units_left() > 0 for p in self.players):
            p = self.players[seat]
            if p.units_left() > 0:
                options = self.placement_options(p)
                if not options:  # solo blocking can close everything (§16.20)
                    p.stuck = True
                    self.emit("stuck", seat=p.seat)
                else:
                    choice = yield from self.ask(PLACE, p, options)
                    units = self.workers_needed(self.placed_key(choice))
                    yield from self._place(p, choice)
                    if self.solo:  # every unit placed blocks once, after the effect (§15)
                        for _ in range(units):
                            self._block_newest()
            seat = (seat + 1) % self.n

    def workers_needed(self, key: str) -> int:
        return self.data.building(key).workers_needed if self.data.is_building(key) else 1

    def _public_open(self, wp: Workplace) -> bool:
        if wp.sideways:
            return False
        shared = self.shared_from.get(wp.key)
        if shared is not None and self.n >= shared:
            return True
        return wp.placements == 0

    def placement_options(self, p: Player) -> list[str]:
        """Every legal placement, public ones first in row order, then own buildings by type.

        Identical open public cards are offered once (the oldest) except in solo, where which
        copy is taken decides what blocking turns sideways next.
        """
        from nesim.reference.effects import can_use

        units = p.units_left()
        options: list[str] = []
        seen: set[str] = set()
        for i, wp in enumerate(self.public):
            if not self._public_open(wp) or (not self.solo and wp.key in seen):
                continue
            if units >= self.workers_needed(wp.key) and can_use(self, p, wp.key):
                options.append(f"pub:{i}")
                seen.add(wp.key)
        for b in self.data.buildings:
            owned = p.buildings[b.key]
            if owned and b.workable and p.used[b.key] < owned and units >= b.workers_needed \
                    and can_use(self, p, b.key):
                options.append(f"own:{b.key}")
        return options

    def placed_key(self, choice: str) -> str:
        """The card a placement names: ``pub:<row index>`` or ``own:<key>``."""
        where, _, ref = choice.partition(":")
        return self.public[int(ref)].key if where == "pub" else ref

    def _place(self, p: Player, choice: str) -> Gen:
        from nesim.reference.effects import use

        where, _, ref = choice.partition(":")
        if where == "pub":
            wp = self.public[int(ref)]
            key = wp.key
            wp.placements += 1
            if key == "mine":
                p.on_mine = True
        else:
            key = ref
            p.used[key] += 1
        p.placed += self.workers_needed(key)
        self.emit("place", seat=p.seat, workplace=key, public=where == "pub",
                  slot=int(ref) if where == "pub" else None)
        yield from use(self, p, key)
        if self.trace:
            self.emit("state", **self.snapshot())

    def _block_newest(self) -> None:
        """Solo (§15): turn sideways the newest upright general workplace with no unit on it."""
        for wp in reversed(self.public):
            if wp.placements == 0 and not wp.sideways:
                wp.sideways = True
                self.emit("blocked", workplace=wp.key)
                return

    # ------------------------------------------------------------------ payday (§12)

    def hand_limit(self, p: Player) -> int:
        return self.rules.hand_limit + self.rules.warehouse_hand_bonus * p.buildings["warehouse"]

    def sale_price(self, key: str) -> int:
        value = self.data.building(key).asset_value
        return value // self.rules.solo_sale_divisor if self.solo else value

    def _payday(self) -> Gen:
        for wp in self.public:
            wp.placements = 0
            wp.sideways = False
        for p in self.players:
            p.placed = p.training = 0
            p.stuck = p.on_mine = False
            p.used.clear()
        order = self.seat_order()
        for p in order:
            excess = p.hand_size() - self.hand_limit(p)
            if excess > 0:
                yield from self.discard_from_hand(p, excess, "hand_limit")
        wage = self.rules.wage(self.round)
        for p in order:
            yield from self._pay_wages(p, wage * p.workers)
        for p in order:
            if p.burnt_worked:
                self.emit("burnt_field_discarded", seat=p.seat, count=p.burnt_worked)
                key = self.data.worked_once_key()
                self._remove_building(p, key, p.burnt_worked)
                self.discard[key] += p.burnt_worked
                p.burnt_worked = 0
        self.round_records.append([(p.money, self.budget, p.workers, p.hand_size(), p.building_count(),
                                    p.wages_paid, p.unpaid, p.sold_value) for p in self.players])
        if self.trace:
            self.emit("state", **self.snapshot())

    def _pay_wages(self, p: Player, owed: int) -> Gen:
        p.sold_value = 0
        if p.money < owed:
            options = self.sale_options(p, owed - p.money)
            if options:
                sold = yield from self.ask(SELL, p, options, short=owed - p.money)
                for key in sold:
                    self._sell(p, key)
        paid = min(p.money, owed)
        p.money -= paid
        self.budget += paid
        p.wages_paid = paid
        p.unpaid += owed - paid
        self.emit("wages", seat=p.seat, owed=owed, paid=paid, unpaid=owed - paid)

    def _sell(self, p: Player, key: str) -> None:
        price = self.sale_price(key)
        self._remove_building(p, key)
        p.money += price
        p.sold_value += price
        self.sales_total += price
        self.public.append(Workplace(key, "sold"))
        self.emit("sell", seat=p.seat, card=key, price=price)

    def sale_options(self, p: Player, short: int) -> list[tuple[str, ...]]:
        """Every legal set of buildings to sell when ``short`` of wages (§12.4).

        A set is legal if it covers the shortfall and dropping its cheapest building would not,
        or if it is every sellable building and even that does not cover it.
        """
        types = [(b.key, p.buildings[b.key], self.sale_price(b.key))
                 for b in self.data.buildings if b.sellable and p.buildings[b.key]]
        if not types:
            return []
        everything = tuple(k for k, n, _ in types for _ in range(n))
        if sum(n * price for _, n, price in types) < short:
            return [everything]
        options = []
        for counts in itertools.product(*(range(n + 1) for _, n, _ in types)):
            total = sum(c * price for c, (_, _, price) in zip(counts, types))
            if total < short:
                continue
            cheapest = min(price for c, (_, _, price) in zip(counts, types) if c)
            if total - cheapest < short:
                options.append(tuple(k for c, (k, _, _) in zip(counts, types) for _ in range(c)))
        return options

    # ------------------------------------------------------------------ primitives used by effects

    def emit(self, event: str, **fields: Any) -> None:
        if self.trace:
            self.events.append({"event": event, "round": self.round, **fields})

    def snapshot(self) -> dict:
        return {"budget": self.budget,
                "row": [{"card": wp.key, "units": wp.placements, "sideways": wp.sideways} for wp in self.public],
                "players": [{"seat": p.seat, "money": p.money, "hand": p.hand_size(),
                             "items": p.items(), "workers": p.workers, "dolls": p.dolls,
                             "vp": p.vp, "unpaid": p.unpaid,
                             "buildings": sorted(p.buildings.elements())} for p in self.players]}

    def draw_one(self) -> str:
        """The top card of the deck, reshuffling the discard pile when the deck is empty (§7).

        The discard pile is laid out in type order before the shuffle, so the new deck depends on
        which cards were discarded, never on the order they were discarded in. With both piles
        empty the card drawn is a consumer item.
        """
        if not self.deck and self.discard:
            pile = [b.key for b in self.data.buildings for _ in range(self.discard[b.key])]
            self.discard.clear()
            self.rng.shuffle(pile)
            self.deck = pile
            self.emit("reshuffle", cards=len(pile))
        return self.deck.pop() if self.deck else CONSUMER

    def draw(self, p: Player, n: int) -> None:
        drawn = [self.draw_one() for _ in range(n)]
        for key in drawn:
            p.add_to_hand(key)
        self.emit("draw", seat=p.seat, cards=drawn)

    def take_items(self, p: Player, n: int) -> None:
        p.add_to_hand(CONSUMER, n)
        self.emit("take_items", seat=p.seat, count=n)

    def take_money(self, p: Player, amount: int) -> None:
        """From the Budget; effects check beforehand that it holds the whole amount."""
        assert self.budget >= amount, "an effect took more than the Budget holds"
        self.budget -= amount
        p.money += amount
        self.emit("income", seat=p.seat, amount=amount)

    def give_money(self, p: Player, amount: int) -> None:
        p.money -= amount
        self.budget += amount
        self.emit("pay_budget", seat=p.seat, amount=amount)

    def take_vp(self, p: Player, n: int) -> None:
        p.vp += n
        self.emit("vp", seat=p.seat, count=n)

    def hire(self, p: Player, n: int, ready: bool = False) -> None:
        p.workers += n
        if not ready:
            p.training += n
        self.emit("hire", seat=p.seat, count=n, ready=ready)

    def worker_cap(self, p: Player) -> int:
        return self.rules.max_workers + p.buildings["company_house"]

    def put_in_discard(self, key: str) -> None:
        if key != CONSUMER:  # consumer items go back to the unlimited supply
            self.discard[key] += 1

    def discard_options(self, p: Player) -> list[str]:
        """Distinct cards in hand, buildings in type order, consumer items last."""
        keys = [b.key for b in self.data.buildings if p.hand[b.key]]
        if p.hand[CONSUMER]:
            keys.append(CONSUMER)
        return keys

    def discard_from_hand(self, p: Player, n: int, purpose: str, **context: Any) -> Gen:
        """Discards n cards of the player's choosing, one decision per card."""
        gone = []
        for i in range(n):
            key = yield from self.ask(DISCARD, p, self.discard_options(p), purpose=purpose,
                                      remaining=n - i, **context)
            p.remove_from_hand(key)
            self.put_in_discard(key)
            gone.append(key)
        self.emit("discard", seat=p.seat, cards=gone, purpose=purpose)

    def _remove_building(self, p: Player, key: str, n: int = 1) -> None:
        p.buildings[key] -= n
        assert p.buildings[key] >= 0
        if p.buildings[key] == 0:
            del p.buildings[key]

    # ------------------------------------------------------------------ construction (§8)

    def current_cost(self, p: Player, key: str) -> int:
        """The building's construction cost for this player now, its cost rule applied."""
        b = self.data.building(key)
        rule = b.cost_rule
        cost = b.cost
        if rule is not None:
            if rule.kind == "if_agriculture":
                if self.count_icon(p, "agriculture"):
                    cost -= rule.args[0]
            elif rule.kind == "per_industry":
                cost -= rule.args[0] * self.count_icon(p, "industry")
            elif rule.kind == "if_vp":
                if p.vp >= rule.args[0]:
                    cost -= rule.args[1]
        return max(0, cost)

    def count_icon(self, p: Player, icon: str) -> int:
        """Buildings the player owns that carry an icon (agriculture, industry or facility)."""
        return sum(n for key, n in p.buildings.items() if getattr(self.data.building(key), icon))

    def build_options(self, p: Player, how: "Construction") -> list[str]:
        """The buildings (or pairs) in hand that this construction workplace can build now."""
        keys = [b.key for b in self.data.buildings if p.hand[b.key] and how.allows(self, b)]
        if not how.pair:
            return [k for k in keys if how.payable(self, p, (k,))]
        options = []
        for i, a in enumerate(keys):
            for b in keys[i:]:
                if (a != b or p.hand[a] >= 2) and how.payable(self, p, (a, b)):
                    options.append(f"{a}+{b}")
        return options

    def construct(self, p: Player, how: "Construction") -> Gen:
        """Asks which building(s) to build, takes the payment card by card, places them."""
        choice = yield from self.ask(BUILD, p, self.build_options(p, how), workplace=how.name)
        keys = tuple(choice.split("+"))
        cost = how.cost(self, p, keys)  # every cost is read before anything is placed
        for key in keys:
            p.remove_from_hand(key)
            self.limbo[key] += 1
        yield from self.pay_cost(p, cost, how.consumer_worth)
        for key in keys:
            self.limbo[key] -= 1
            self.place_building(p, key)

    def pay_cost(self, p: Player, cost: int, consumer_worth: int = 1) -> Gen:
        """Discards a construction cost one card at a time.

        With consumer items worth 2 (Modern Architecture) a payment may not overshoot except by
        the one unavoidable point of an odd cost paid in items only (§8, Project ruling).
        """
        paid = 0
        used_building = False
        gone = []
        while paid < cost:
            options = self.discard_options(p)
            if consumer_worth == 2:
                options = [k for k in options
                           if payment_step_ok(cost - paid, k == CONSUMER, used_building,
                                              p.hand_size() - p.items() - (k != CONSUMER),
                                              p.items() - (k == CONSUMER))]
            key = yield from self.ask(DISCARD, p, options, purpose="cost", remaining=cost - paid)
            p.remove_from_hand(key)
            self.put_in_discard(key)
            gone.append(key)
            paid += consumer_worth if key == CONSUMER else 1
            used_building |= key != CONSUMER
        self.emit("paid", seat=p.seat, cards=gone)

    def place_building(self, p: Player, key: str) -> None:
        from nesim.reference.effects import on_build

        p.buildings[key] += 1
        p.builds.append((self.round, key))
        self.emit("build", seat=p.seat, card=key)
        on_build(self, p, key)

    # ------------------------------------------------------------------ checks

    def card_locations(self) -> Counter:
        """Where every building card is, added up by key (for the conservation invariant)."""
        total = Counter(self.deck)
        total.update(self.discard)
        total.update(self.limbo)
        for p in self.players:
            total.update({k: n for k, n in p.hand.items() if k != CONSUMER})
            total.update(p.buildings)
        total.update(wp.key for wp in self.public if wp.origin in ("sold", "solo")
                     and self.data.is_building(wp.key))
        return +total

    def check_invariants(self) -> None:
        """Raises AssertionError if the state breaks a rule that holds at every moment."""
        expected = Counter({b.key: b.copies for b in self.data.buildings if b.copies})
        assert self.card_locations() == expected, "building cards not conserved"
        start = sum((self.rules.solo_start_money,) if self.solo else self.rules.start_money[:self.n])
        assert self.budget + sum(p.money for p in self.players) == start + self.sales_total, \
            "money not conserved"
        assert self.budget >= 0
        for p in self.players:
            assert p.money >= 0 and p.vp >= 0 and p.unpaid >= 0 and p.dolls >= 0
            assert all(n > 0 for n in p.hand.values()) and all(n > 0 for n in p.buildings.values())
            assert 0 <= p.training <= p.workers <= self.worker_cap(p), "worker cap broken"
            assert 0 <= p.placed <= p.workers - p.training + p.dolls
            assert all(p.used[k] <= p.buildings[k] for k in p.used)


def payment_step_ok(remaining: int, is_item: bool, used_building: bool, buildings_left: int,
                    items_left: int) -> bool:
    """Whether paying this card keeps a legal Modern Architecture payment reachable.

    Legal payments: exact, or items only overshooting by one. ``buildings_left`` and
    ``items_left`` are what the hand holds after this card.
    """
    if is_item:
        if remaining == 1:
            return not used_building
        return payable_exact(remaining - 2, buildings_left, items_left) or (
            not used_building and items_only_payable(remaining - 2, items_left))
    return payable_exact(remaining - 1, buildings_left, items_left)


def payable_exact(need: int, buildings: int, items: int) -> bool:
    """Some b buildings and i items with b + 2i == need."""
    lo = max(0, -(-(need - buildings) // 2))
    hi = min(items, need // 2)
    return lo <= hi


def items_only_payable(need: int, items: int) -> bool:
    return need <= 0 or items * 2 >= need


def ma_payable(cost: int, buildings: int, items: int) -> bool:
    """A legal Modern Architecture payment of ``cost`` exists from this hand."""
    return cost == 0 or payable_exact(cost, buildings, items) or items_only_payable(cost, items)


class Construction:
    """The terms of one construction workplace: what it may build and what that costs."""

    def __init__(self, name: str, *, discount: int = 0, free: bool = False,
                 allows: Callable[["Game", Any], bool] | None = None, pair: str | None = None,
                 consumer_worth: int = 1) -> None:
        self.name = name
        self.discount = discount
        self.free = free
        self._allows = allows
        self.pair = pair  # None, "same_cost" (Double City) or "sum" (Worldwide Building)
        self.consumer_worth = consumer_worth

    def allows(self, g: Game, b: Any) -> bool:
        return self._allows is None or self._allows(g, b)

    def cost(self, g: Game, p: Player, keys: Iterable[str]) -> int:
        costs = [g.current_cost(p, k) for k in keys]
        if self.free:
            return 0
        if self.pair == "same_cost":
            return costs[0]
        return max(0, sum(costs) - self.discount)

    def payable(self, g: Game, p: Player, keys: tuple[str, ...]) -> bool:
        if self.pair == "same_cost" and g.current_cost(p, keys[0]) != g.current_cost(p, keys[1]):
            return False
        cost = self.cost(g, p, keys)
        building_cards = p.hand_size() - p.items() - len(keys)
        if self.consumer_worth == 2:
            return ma_payable(cost, building_cards, p.items())
        return building_cards + p.items() >= cost


def run_game(game: Game, players: list, after_step: Callable[[Game], None] | None = None) -> Game:
    """Plays a game to the end, asking ``players[seat].decide(game, decision)`` at each decision."""
    gen = game.play()
    try:
        decision = next(gen)
        while True:
            if after_step is not None:
                after_step(game)
            decision = gen.send(players[decision.seat].decide(game, decision))
    except StopIteration:
        pass
    if after_step is not None:
        after_step(game)
    return game
