"""Result tables: rows per run and checkpoint, summaries with standard errors, guarantees,
excess regret, CSV files."""

from __future__ import annotations

import csv
from types import SimpleNamespace

import numpy as np
import pytest

from dpverify import ApproxDP
from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.experiments import AlgorithmSpec, Panel, SweepSpec, sweep
from dpverify.bandits.experiments.tables import (
    add_excess_regret,
    guarantee_columns,
    guarantee_label,
    run_rows,
    summary_rows,
    write_rows,
)


def test_run_and_summary_rows_of_a_small_sweep() -> None:
    algorithms = (AlgorithmSpec("dp-se", "DP-SE"), AlgorithmSpec("se", "SE"))
    spec = SweepSpec("small", (Panel("p", "", InstanceFamily("easy", 3), 1.0, 2000, algorithms),),
                     runs=3, seed=1, checkpoints=5)
    result = sweep(spec, cache=False)
    (_, (private, public)), = result.results
    rows = run_rows(spec, result.results)
    assert len(rows) == 2 * 3 * len(private.checkpoints)
    assert {(r["algorithm"], r["run"]) for r in rows} == {(a, run) for a in ("DP-SE", "SE")
                                                          for run in range(3)}
    assert max(r["round"] for r in rows) == 2000
    summary = {r["algorithm"]: r for r in summary_rows(result.results)}
    final = private.final_regret()
    assert summary["DP-SE"]["final_regret"] == pytest.approx(final.mean())
    assert summary["DP-SE"]["standard_error"] == pytest.approx(final.std(ddof=1) / np.sqrt(3))
    assert summary["DP-SE"]["guarantee_epsilon"] == 1.0 and summary["DP-SE"]["guarantee_delta"] == 0
    assert summary["SE"]["guarantee_model"] == public.guarantee.model


def test_guarantee_columns_and_label() -> None:
    assert guarantee_columns(None) == {"guarantee_model": "none", "guarantee_epsilon": None,
                                       "guarantee_delta": None}
    approx = guarantee_columns(SimpleNamespace(model="central", approx_dp=ApproxDP(0.12345, 1e-6)))
    assert approx == {"guarantee_model": "central", "guarantee_epsilon": 0.12345,
                      "guarantee_delta": 1e-6}
    assert guarantee_label(approx, 0.1) == "(0.123, 1e-06)-DP"
    pure = {"guarantee_epsilon": 0.1, "guarantee_delta": 0.0}
    assert guarantee_label(pure, 0.1) == "" and guarantee_label(pure, 0.2) == "0.1-DP"
    assert guarantee_label(guarantee_columns(None), 0.1) == ""


def test_excess_regret_is_against_the_reference_on_the_same_panel() -> None:
    rows = [{"panel": "a", "algorithm": "AE", "final_regret": 10.0},
            {"panel": "a", "algorithm": "SDP-AE", "final_regret": 14.5},
            {"panel": "b", "algorithm": "SDP-AE", "final_regret": 3.0}]
    add_excess_regret(rows, "AE")
    assert [r["excess_regret"] for r in rows] == [None, 4.5, None]


def test_csv_columns_are_the_union_of_keys_and_floats_round_trip(tmp_path) -> None:
    rows = [{"a": 0.1, "b": 1}, {"b": 2, "c": 1 / 3}]
    path = write_rows(rows, tmp_path / "rows.csv")
    with path.open() as handle:
        reader = csv.DictReader(handle)
        read = list(reader)
    assert reader.fieldnames == ["a", "b", "c"]
    assert float(read[0]["a"]) == 0.1 and float(read[1]["c"]) == 1 / 3 and read[1]["a"] == ""
