"""Each experiment script runs end to end on a few games and writes its page with its figures."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIGURES = {"card_values": 3, "seat_advantage": 1, "pacing_three_games": 3, "strategy_ladder": 3}


@pytest.mark.parametrize("script", sorted(FIGURES))
def test_experiment_writes_its_page(script, tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "experiments" / f"{script}.py"), "--games", "60",
                        "--jobs", "1", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    page = (tmp_path / f"{script}.html").read_text()
    assert len(re.findall(r'<img alt="[^"]+" src="data:image/png;base64,', page)) == FIGURES[script]
    assert "http://" not in page and "https://" not in page
