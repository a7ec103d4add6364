"""Seat advantage: win rate by seat against 1/N in each game at 2, 3 and 4 players.

All seats play the same strategy (greedy), so any difference comes from the seat.
Usage: python experiments/seat_advantage.py [--games N]
"""

from pathlib import Path

from _common import arguments, figure_tag, plt, simulate, table_html, write_page

from nesim import stats as S

args = arguments(__doc__.splitlines()[0], 20_000)
out = Path(args.out)
dirs = [simulate(out / "experiments-data" / f"seats-{g}-{n}p", g, n, ["greedy"], args.games, args.seed, args.jobs)
        for g in ("progress", "mecenat", "glory") for n in (2, 3, 4)]
rates = S.seat_win_rates(S.read_table(dirs, "players"))
fig, axes = plt.subplots(1, 3, figsize=(12, 3.5), sharey=True)
for ax, (game, sub) in zip(axes, rates.groupby("game", sort=False)):
    for n, s in sub.groupby("n_players"):
        ax.errorbar(s.seat + (n - 3) * 0.08, s.rate, yerr=[s.rate - s.lo, s.hi - s.rate], fmt="o-", label=f"{n} players")
        ax.axhline(1 / n, ls=":", lw=0.8, color="gray")
    ax.set_title(game.capitalize())
    ax.set_xlabel("seat (0 = start player)")
axes[0].set_ylabel("win rate, 95% interval")
axes[0].legend()
balance = S.seat_balance(rates)
write_page(out / "seat_advantage.html", "Seat advantage",
           "Win rate by seat with every seat played by greedy; dotted lines at 1/N.",
           [figure_tag(fig, "win rate by seat"), table_html(rates), "<h2>Balance</h2>", table_html(balance)])
