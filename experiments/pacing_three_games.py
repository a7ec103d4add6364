"""Pacing of the three games: the same line-up in Progress, Mecenat and Glory at 2-4 players.

Draws the economy round by round (household money, players' money, workers, buildings, wages
paid, unpaid wages) on shared axes. Usage: python experiments/pacing_three_games.py [--games N]
"""

from pathlib import Path

from _common import arguments, figure_tag, plt, simulate, write_page

from nesim import stats as S

args = arguments(__doc__.splitlines()[0], 10_000)
out = Path(args.out)
lineup = {2: ["greedy", "random"], 3: ["greedy", "greedy", "random"], 4: ["greedy", "greedy", "random", "random"]}
dirs = [simulate(out / "experiments-data" / f"pacing-{g}-{n}p", g, n, lineup[n], args.games, args.seed, args.jobs)
        for g in ("progress", "mecenat", "glory") for n in (2, 3, 4)]
pace = S.read_pacing(dirs)
metrics = ["household", "money", "workers", "buildings", "wages_paid", "unpaid_wages"]
parts = []
for n in (2, 3, 4):
    fig, axes = plt.subplots(2, 3, figsize=(12, 6.5))
    for ax, metric in zip(axes.flat, metrics):
        for game, sub in pace[(pace.n_players == n) & (pace.metric == metric)].groupby("game", sort=False):
            ax.plot(sub["round"], sub["mean"], marker="o", ms=3, label=game)
            ax.fill_between(sub["round"], sub.lo, sub.hi, alpha=0.25)
        ax.set_title(metric)
        ax.set_xlabel("round")
    axes[0, 0].legend()
    fig.suptitle(f"{n} players")
    fig.tight_layout()
    parts.append(figure_tag(fig, f"pacing of the three games, {n} players"))
write_page(out / "pacing_three_games.html", "Pacing of Progress, Mecenat and Glory",
           "Per-round means with 95% bands, the same strategy line-up in each game.", parts)
