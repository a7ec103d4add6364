"""What the experiment scripts share: running games into a dataset and writing an HTML page."""

from __future__ import annotations

import argparse
import base64
import html
import io
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REPORTS = ROOT / "reports"


def arguments(description: str, games: int) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--games", type=int, default=games, help="games per game and player count")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default=str(REPORTS), help="folder for the page, its figures and data")
    return p.parse_args()


def simulate(out: Path, game: str, players: int, strategies: list[str], games: int, seed: int, jobs: int) -> Path:
    """Runs (or reuses, if already complete with this configuration) one dataset."""
    from nesim.registry import resolve_seats
    from nesim.runner import Unit, run

    specs = tuple(s.label for s in resolve_seats(",".join(strategies), players))
    unit = Unit("baseline", game, players, specs, games)
    run([unit], out, seed, jobs=jobs, resume=True, progress=sys.stderr.isatty())
    return out


def figure_tag(fig, alt: str) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode()
    return f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}"><figcaption>{html.escape(alt)}</figcaption></figure>'


def write_page(path: Path, title: str, intro: str, parts: list[str]) -> None:
    """A self-contained page (figures inline), written whole."""
    body = "\n".join(parts)
    text = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}img{max-width:100%}"
            "table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
            f"</style></head><body><h1>{html.escape(title)}</h1><p>{html.escape(intro)}</p>{body}</body></html>")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)
    print(f"wrote {path}")


def table_html(df, float_format: str = "{:.3f}") -> str:
    return df.to_html(index=False, float_format=lambda x: float_format.format(x), border=0)
