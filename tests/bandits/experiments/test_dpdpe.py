"""The experiments on Li, Zhou & Ji 2022 (dpdpe): the paper's settings; DPE-FixedU at DPE's
communication."""

from __future__ import annotations

import pytest

from dpverify.bandits.experiments import DPDPE_EPSILONS, EXPERIMENTS
from dpverify.bandits.experiments.dpdpe import EqualCommunicationSpec
from dpverify.errors import DpverifyValueError


@pytest.mark.slow
def test_dpe_fixedu_sends_what_dpe_sends_at_the_papers_horizon() -> None:
    """Li, Zhou & Ji 2022, Fig. 2(c) at T = 10^6: U calibrated on the runs' own communication (within 5%)."""
    import numpy as np

    from dpverify.bandits.experiments import experiment_spec, sweep

    spec = experiment_spec("dpdpe-fig2c", preset="full", runs=6, seed=0)
    dpe, fixed = spec.panels[0].algorithms
    assert fixed.options[0][0] == "users" and fixed.options[0][1] < 245  # the nominal rule's U
    result = sweep(spec, cache=False)
    (_, (dpe_result, fixed_result)), = result.results
    dpe_cost = float(np.mean(dpe_result.communication_cost))
    fixed_cost = float(np.mean(fixed_result.communication_cost))
    assert abs(fixed_cost - dpe_cost) <= 0.05 * dpe_cost, (fixed_cost, dpe_cost)
    nominal = sweep(experiment_spec("dpdpe-fig2c", preset="full", runs=6, seed=0).__class__(
        "nominal", (spec.panels[0].__class__(
            "c", "", spec.panels[0].instances, spec.panels[0].epsilon, 10 ** 6,
            (fixed.__class__("dpe-fixedu", "nominal", (("users", 245),)),), 0.25),), runs=6,
        seed=0), cache=False)
    assert float(np.mean(nominal.results[0][1][0].communication_cost)) > 2 * dpe_cost


def test_registered_settings_are_the_papers() -> None:
    sweep_panels = EXPERIMENTS["dpdpe-fig2a"].panels
    assert tuple(p.epsilon for p in sweep_panels) == DPDPE_EPSILONS
    for name in ("dpdpe-fig2a", "dpdpe-fig2b", "dpdpe-fig2c"):
        experiment = EXPERIMENTS[name]
        assert experiment.runs == 20
        for panel in experiment.panels:
            assert (panel.horizon, panel.delta) == (10 ** 6, 0.25)
            assert (panel.instances.dimension, panel.instances.n_arms) == (20, 1000)


def test_equal_communication_is_resolved_per_panel_not_built() -> None:
    with pytest.raises(DpverifyValueError, match="resolved per panel"):
        EqualCommunicationSpec("DPE-FixedU").build(1.0, 0.25)
