"""Small synthetic datasets in the nesim dataset schema, so report and stats tests need no runner.

``write_dataset`` writes DIR/manifest.json and DIR/{games,players,builds,rounds}/part-*.parquet with
planted effects that the tests know independently of the statistics code:

- ``strength``: log-odds strength per strategy (winner drawn by Gumbel-max over the players'
  utilities, i.e. a softmax / Plackett-Luce model, so pairwise it is exactly Bradley-Terry);
- ``variant_strength``: extra strength per variant and strategy (a planted sweep difference);
- ``card_effects``: log-odds added to a player's utility for each named card it built;
- ``seat_effects``: log-odds added per seat (a planted start-player advantage);
- ``build_bias``: per strategy, the probability that a player of it builds a named card (so that
  a card can go with a strong player without being worth anything itself).

``write_dataset(..., lineups={variant: strategies})`` gives a variant its own line-up; a line-up of
one strategy makes every game of that variant a mirror game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from nesim.cards import load_game

# The runner's own schemas, so the fixtures follow any change to the dataset layout.
from nesim.dataset import SCHEMAS  # noqa: E402

# Per-game pacing shape, so that the three games look different in the pacing figures.
HOUSEHOLD_SLOPE = {"progress": 6.0, "mecenat": 9.0, "glory": 4.0}
MONEY_SLOPE = {"progress": 2.0, "mecenat": 3.0, "glory": 1.5}
WAGES = (2, 2, 3, 3, 3, 4, 4, 5, 5)
PENALTY = 3


def simulate_tables(game: str, n_players: int, variant: str, strategies: Sequence[str], n_games: int,
                    rng: np.random.Generator, id_base: int = 0,
                    strength: Mapping[str, float] | None = None,
                    variant_strength: Mapping[str, Mapping[str, float]] | None = None,
                    card_effects: Mapping[str, float] | None = None,
                    seat_effects: Sequence[float] | None = None,
                    build_p: float = 0.3,
                    build_bias: Mapping[str, Mapping[str, float]] | None = None) -> dict[str, pd.DataFrame]:
    """The four tables of n_games synthetic games of one (game, n_players, variant)."""
    cards = load_game(game).buildings
    keys = np.array([b.key for b in cards])
    nc = len(cards)
    st = dict(strength or {})
    for s, d in (variant_strength or {}).get(variant, {}).items():
        st[s] = st.get(s, 0.0) + d
    n, g = n_players, n_games
    # seat strategies rotate so that each strategy sits in each seat equally often
    strat_idx = (np.arange(g)[:, None] + np.arange(n)[None, :]) % len(strategies)
    labels = np.asarray(strategies)[strat_idx]
    util = np.vectorize(lambda s: st.get(s, 0.0))(labels).astype(float)
    if seat_effects is not None:
        util += np.asarray(seat_effects, dtype=float)[:n][None, :]
    # cards: each built independently per player-game, with card-specific probability
    # fixed per card (not drawn), so that variants differ only where an effect is planted
    pc = np.clip(build_p + 0.2 * (((np.arange(nc) * 7) % 11) / 10 - 0.5), 0.05, 0.9)
    pc = np.broadcast_to(pc, (g, n, nc)).copy()
    for s, per_card in (build_bias or {}).items():
        for card, prob in per_card.items():
            pc[labels == s, int(np.nonzero(keys == card)[0][0])] = prob
    built = rng.random((g, n, nc)) < pc
    eff = np.array([(card_effects or {}).get(k, 0.0) for k in keys])
    util += built.astype(float) @ eff
    perturbed = util + rng.gumbel(size=(g, n))
    order = np.argsort(-perturbed, axis=1)
    rank = np.empty_like(order)
    rank[np.arange(g)[:, None], order] = np.arange(1, n + 1)[None, :]
    score = np.round(40 + 4 * perturbed).astype(int)
    building_points = np.round(0.55 * score).astype(int)
    vp_tokens = rng.integers(0, 5, (g, n))
    vp_points = vp_tokens.copy()
    unpaid = (rng.random((g, n)) < 0.1).astype(int)
    money = np.maximum(0, np.round(0.2 * score) + rng.integers(-2, 3, (g, n)))
    bonus = score - building_points - money - vp_points + PENALTY * unpaid
    win = rank == 1
    if n == 1:
        cleared = rng.random((g, 1)) < 1 / (1 + np.exp(-util))
        win = cleared
    else:
        cleared = np.zeros((g, n), dtype=bool)
    gid = id_base + np.arange(g, dtype=np.int64)
    common = lambda rows: {"variant": [variant] * rows, "game": [game] * rows,
                           "n_players": np.full(rows, n, np.int8)}
    games = pd.DataFrame({"game_id": gid, **common(g), "seed": rng.integers(0, 2**63, g, dtype=np.uint64),
                          "winner_seat": np.argmax(win, axis=1).astype(np.int8),
                          "rounds_played": np.full(g, 9, np.int8),
                          "household_end": rng.integers(0, 60, g).astype(np.int32),
                          "strategies": [";".join(r) for r in labels]})
    flat = lambda a: a.reshape(-1)
    players = pd.DataFrame({
        "game_id": np.repeat(gid, n), **common(g * n), "seat": np.tile(np.arange(n, dtype=np.int8), g),
        "strategy": flat(labels), "score": flat(score).astype(np.int16),
        "rank": flat(rank).astype(np.int8), "win": flat(win), "money": flat(money).astype(np.int16),
        "building_points": flat(building_points).astype(np.int16),
        "bonus_points": flat(bonus).astype(np.int16), "vp_tokens": flat(vp_tokens).astype(np.int16),
        "vp_points": flat(vp_points).astype(np.int16), "unpaid_wages": flat(unpaid).astype(np.int16),
        "workers": np.full(g * n, 4, np.int8), "buildings": flat(built.sum(axis=2) + 2).astype(np.int8),
        "solo_cleared": flat(cleared)})
    gi, si, ci = np.nonzero(built)
    mean_round = 1 + (np.arange(nc) % 8)  # card c is built around round 1 + c % 8
    rnd = np.clip(mean_round[ci] + rng.integers(-1, 2, ci.size), 1, 9)
    builds = pd.DataFrame({"game_id": gid[gi], **common(gi.size), "seat": si.astype(np.int8),
                           "card": keys[ci], "round": rnd.astype(np.int8)})
    r = np.arange(1, 10)
    rows = g * n * 9
    rg = np.repeat(np.arange(g), n * 9)
    rr = np.tile(r, g * n)
    household = (10 + HOUSEHOLD_SLOPE[game] * rr + rng.normal(0, 3, rows)).round()
    household = household.reshape(g, n, 9)[:, :1, :].repeat(n, axis=1).reshape(-1)  # one per game
    workers = np.minimum(5, 2 + rr // 3)
    rounds = pd.DataFrame({
        "game_id": gid[rg], **common(rows), "seat": np.tile(np.repeat(np.arange(n), 9), g).astype(np.int8),
        "round": rr.astype(np.int8),
        "money": (5 + MONEY_SLOPE[game] * rr + rng.normal(0, 2, rows)).round().astype(np.int16),
        "household": household.astype(np.int32), "workers": workers.astype(np.int8),
        "hand": rng.integers(1, 6, rows).astype(np.int16),
        "buildings": (2 + rr // 2).astype(np.int16),
        "wages_paid": (workers * np.asarray(WAGES)[rr - 1]).astype(np.int16),
        "unpaid_wages": np.zeros(rows, np.int16),
        "sold": (rng.random(rows) < 0.05).astype(np.int16) * 6})
    return {"games": games, "players": players, "builds": builds, "rounds": rounds}


def write_dataset(path: str | Path, games: Sequence[str] = ("progress",),
                  n_players: Sequence[int] = (2,), variants: Sequence[str] = ("baseline",),
                  strategies: Sequence[str] = ("greedy", "random"), n_games: int = 200,
                  seed: int = 0, parts: int = 2, baseline: str = "baseline",
                  lineups: Mapping[str, Sequence[str]] | None = None, **effects) -> Path:
    """Writes a synthetic dataset directory and returns its path. ``effects`` go to
    :func:`simulate_tables` (strength, variant_strength, card_effects, seat_effects, build_p,
    build_bias); ``lineups`` maps a variant to its own strategies (default ``strategies``)."""
    lineups = dict(lineups or {})
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    tables: dict[str, list[pd.DataFrame]] = {t: [] for t in SCHEMAS}
    id_base = 0
    variant_tables = []
    for game in games:
        data = load_game(game)
        for v in variants:
            variant_tables.append({
                "name": v, "game": game, "changes": {},
                "cards": [{"key": b.key, "cost": b.cost, "asset_value": b.asset_value,
                           "copies": b.copies} for b in data.buildings],
                "rules": {"unpaid_wage_penalty": PENALTY, "wages": list(WAGES)}})
            for n in n_players:
                t = simulate_tables(game, n, v, lineups.get(v, strategies), n_games, rng, id_base=id_base,
                                    **effects)
                id_base += n_games
                for name, df in t.items():
                    tables[name].append(df)
    full = {name: pd.concat(dfs, ignore_index=True) for name, dfs in tables.items()}
    all_ids = full["games"]["game_id"].to_numpy()
    chunks = []
    for c in range(parts):
        ids = all_ids[all_ids % parts == c]
        chunks.append({"id": c, "status": "done", "count": int(ids.size)})
        for name, df in full.items():
            folder = out / name
            folder.mkdir(exist_ok=True)
            part = df[df["game_id"] % parts == c]
            pq.write_table(pa.Table.from_pandas(part, schema=SCHEMAS[name], preserve_index=False),
                           folder / f"part-{c:05d}.parquet")
    manifest = {
        "format": 1, "nesim_version": "test", "command": ["synthetic", "fixture"],
        "games": list(games), "players": list(n_players),
        "strategies": sorted(set(strategies).union(*lineups.values())),
        "variants": variant_tables, "baseline": baseline, "seed": seed,
        "games_per_variant": n_games, "total_games": int(all_ids.size), "complete": True,
        "chunks": chunks}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return out
