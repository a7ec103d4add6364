"""Strategy ladder: every registered strategy against every other in 2-player games, each game.

Seats rotate, so each pairing is played from both seats. Draws the win-rate matrix and the
Bradley-Terry ratings. Usage: python experiments/strategy_ladder.py [--games N]
"""

from itertools import combinations
from pathlib import Path

import pandas as pd
from _common import arguments, figure_tag, plt, simulate, table_html, write_page

from nesim import stats as S
from nesim.registry import modules

args = arguments(__doc__.splitlines()[0], 4_000)
out = Path(args.out)
names = list(modules())
parts = []
for game in ("progress", "mecenat", "glory"):
    dirs = [simulate(out / "experiments-data" / f"ladder-{game}-{a}-{b}", game, 2, [a, b], args.games, args.seed, args.jobs)
            for a, b in combinations(names, 2)]
    players = S.read_table(dirs, "players")
    pair = S.pairings(players)
    matrix = pair.pivot_table(index="strategy", columns="opponent", values="rate", observed=True)
    fig, ax = plt.subplots(figsize=(1.1 * len(names) + 2, 0.8 * len(names) + 1))
    im = ax.imshow(matrix.values, vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(len(matrix.columns)), matrix.columns, rotation=45)
    ax.set_yticks(range(len(matrix.index)), matrix.index)
    for (i, j), v in pd.DataFrame(matrix.values).stack().items():
        ax.text(j, i, f"{v:.2f}", ha="center", va="center")
    fig.colorbar(im, ax=ax, label="row strategy's win rate")
    ax.set_title(f"{game.capitalize()}, 2 players")
    parts += [f"<h2>{game.capitalize()}</h2>", figure_tag(fig, f"{game} win-rate matrix"),
              table_html(S.ratings(players))]
write_page(out / "strategy_ladder.html", "Strategy ladder",
           "Round robin of the registered strategies in 2-player games, seats rotated.", parts)
