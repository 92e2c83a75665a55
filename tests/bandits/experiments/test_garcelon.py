"""The experiments on Garcelon et al. 2022: registered, one cell reproduces to CSV + PNG; slope fitting."""

from __future__ import annotations

import csv

import pytest

from dpverify.bandits.experiments import EXPERIMENTS, reproduce
from dpverify.bandits.experiments.garcelon import fit_slopes


def test_registered() -> None:
    assert {"garcelon2022-scaling", "garcelon2022-privacy"} <= set(EXPERIMENTS)


@pytest.mark.slow
def test_one_scaling_cell_writes_csv_and_png(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    outcome = reproduce("garcelon2022-scaling", preset="quick", seed=0, out_dir=tmp_path,
                        panels=("d=2,T=1000", "d=2,T=3162"), runs=1)
    names = {path.name for path in outcome.files}
    assert {"garcelon2022-scaling.csv", "garcelon2022-scaling.png"} <= names
    with (tmp_path / "garcelon2022-scaling.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * 6 and {r["horizon"] for r in rows} == {"1000", "3162"}
    assert all(float(r["final_regret"]) >= 0 for r in rows)


def test_fit_slopes_recovers_a_power_law() -> None:
    table = [{"algorithm": "LinUCB", "dimension": 2, "horizon": T, "final_regret": 3 * T ** 0.5}
             for T in (10**3, 10**4, 10**5)]
    (row,) = fit_slopes(table, min_horizon=10**3)
    assert row["fitted_slope"] == pytest.approx(0.5, abs=1e-9)
    assert row["predicted_slope"] == 0.5
