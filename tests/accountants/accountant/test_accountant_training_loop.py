"""PrivacyAccountant in a training loop: per-step queries equal one-shot ones, grouped histories,
remaining_steps, and the Opacus accountant protocol (issue 30, sections 1 and 2)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dpverify.accountants.pld._spectra as spectra
from dpverify.accountants.accountant import PrivacyAccountant
from dpverify.accountants.calibrate import dp_sgd_epsilon
from dpverify.accountants.events import PoissonSampledEvent
from dpverify.accountants.pld import PrivacyLossDistribution, compose_plds, dp_sgd_interval
from dpverify.accountants.rdp import compose_rdp, rdp_to_dp, scale_rdp, subsampled_gaussian_rdp
from dpverify.mechanisms import Gaussian

Q = 0.01


def _one_shot(method: str, history: list[tuple[float, int]]) -> PrivacyAccountant:
    accountant = PrivacyAccountant(method)
    for sigma, count in history:
        accountant.compose(PoissonSampledEvent(Gaussian(sigma=sigma), Q), count)
    return accountant


def _planned_bases(history: list[tuple[float, int]]) -> list[PrivacyLossDistribution]:
    """The PLDs the accountant composes for a history of distinct σ: each on the one planned
    grid, the coarsest DP-SGD grid among the σ run most often (``common_dp_sgd_interval``)."""
    most = max(count for _, count in history)
    common = max(dp_sgd_interval(sigma, Q) for sigma, count in history if count == most)
    return [PrivacyLossDistribution.from_subsampled_gaussian(
        sigma, Q, value_discretization_interval=common) for sigma, _ in history]


def _own_grid_bases(history: list[tuple[float, int]]) -> list[PrivacyLossDistribution]:
    """Each σ on its own DP-SGD grid (what the accountant composed before the planned grid)."""
    return [PrivacyLossDistribution.from_subsampled_gaussian(
        sigma, Q, value_discretization_interval=dp_sgd_interval(sigma, Q)) for sigma, _ in history]


# --------------------------------------------------------------------------- per-step = one-shot
def test_query_after_every_step_equals_a_fresh_accountant_and_a_cold_engine():
    """The memoised engine (spectra, answers) returns the bits of a cold one-shot query."""
    looped = PrivacyAccountant("pld")
    answers = []
    for _ in range(40):
        looped.step(noise_multiplier=1.1, sample_rate=Q)
        answers.append((looped.get_epsilon(1e-5), looped.get_delta(1.0)))
    for n in (1, 2, 7, 16, 33, 40):
        spectra._MEMO.clear()   # cold: nothing memoised
        fresh = _one_shot("pld", [(1.1, n)])
        assert (fresh.get_epsilon(1e-5), fresh.get_delta(1.0)) == answers[n - 1]
    assert answers == sorted(answers, key=lambda pair: pair[0])   # ε grows with the steps here


def test_accountant_equals_dp_sgd_epsilon_and_the_pld_on_its_grid():
    """One DP-SGD answer: accountant, dp_sgd_epsilon and the PLD on dp_sgd_interval agree exactly."""
    accountant = _one_shot("pld", [(0.9, 500)])
    base = PrivacyLossDistribution.from_subsampled_gaussian(
        0.9, Q, value_discretization_interval=dp_sgd_interval(0.9, Q))
    assert accountant.get_epsilon(1e-6) == base.self_compose(500).epsilon_for_delta(1e-6)
    assert accountant.get_epsilon(1e-6) == dp_sgd_epsilon(
        noise_multiplier=0.9, delta=1e-6, sampling_probability=Q, steps=500)


# --------------------------------------------------------------------------- grouped histories
def test_identical_events_are_grouped_wherever_they_occur():
    """Alternating σ: the same answer as the grouped history, as compose_plds with counts."""
    alternating = PrivacyAccountant("pld")
    for i in range(60):
        alternating.step(noise_multiplier=1.0 if i % 2 else 1.5, sample_rate=Q)
    assert len(alternating) == 60
    grouped = _one_shot("pld", [(1.5, 30), (1.0, 30)])
    assert alternating.get_epsilon(1e-5) == grouped.get_epsilon(1e-5)
    bases = _planned_bases([(1.5, 30), (1.0, 30)])
    assert alternating.get_epsilon(1e-5) == compose_plds(bases, counts=[30, 30]).epsilon_for_delta(1e-5)
    # close to the PLD composed pairwise (other FFT windows; both upper bounds)
    pairwise = bases[0].self_compose(30).compose(bases[1].self_compose(30)).epsilon_for_delta(1e-5)
    assert alternating.get_epsilon(1e-5) == pytest.approx(pairwise, rel=1e-3)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([0.8, 1.2, 2.0]), min_size=1, max_size=30))
def test_rdp_grouping_equals_the_sum_of_curves(sigmas):
    orders = (2.0, 4.0, 8.0, 16.0)
    accountant = PrivacyAccountant("rdp", orders=orders)
    for sigma in sigmas:
        accountant.step(noise_multiplier=sigma, sample_rate=Q)
    curves = [scale_rdp(subsampled_gaussian_rdp(s, Q, orders=orders), sigmas.count(s))
              for s in dict.fromkeys(sigmas)]
    assert accountant.get_epsilon(1e-5) == rdp_to_dp(compose_rdp(curves), delta=1e-5).epsilon


@pytest.mark.slow
def test_epoch_schedule_of_many_sigmas_is_one_composition():
    """12 σ (an epoch schedule): grouped = the one-shot composition of the 12 self-compositions."""
    sigmas = [0.8 + 0.1 * i for i in range(12)]
    looped = PrivacyAccountant("pld")
    for sigma in sigmas:
        for _ in range(25):
            looped.step(noise_multiplier=sigma, sample_rate=Q)
    bases = _planned_bases([(s, 25) for s in sigmas])
    expected = compose_plds(bases, counts=[25] * 12).epsilon_for_delta(1e-5)
    assert looped.get_epsilon(1e-5) == expected
    rdp = _one_shot("rdp", [(s, 25) for s in sigmas]).get_epsilon(1e-5)
    assert expected <= rdp   # the PLD is the tighter of two upper bounds here


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.floats(0.7, 3.0), st.integers(1, 200)), min_size=2, max_size=5,
                unique_by=lambda step: step[0]))
def test_a_schedule_of_sigmas_equals_its_pairwise_composition(schedule):
    """A history of distinct σ (an epoch schedule) answers what the PLDs on its one planned grid,
    self-composed and composed pairwise in order, answer: the same bits (issue 30 §1)."""
    accountant = _one_shot("pld", schedule)
    bases = _planned_bases(schedule)
    pairwise = bases[0].self_compose(schedule[0][1])
    for base, (_, count) in zip(bases[1:], schedule[1:]):
        pairwise = pairwise.compose(base.self_compose(count))
    assert accountant.get_epsilon(1e-5) == pairwise.epsilon_for_delta(1e-5)
    assert accountant.get_delta(1.0) == pairwise.delta_for_epsilon(1.0)


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.floats(0.7, 3.0), st.integers(1, 200)), min_size=2, max_size=4,
                unique_by=lambda step: step[0]),
       st.sampled_from([1e-5, 1e-8]))
def test_the_planned_grid_is_no_looser_than_spreading_each_own_grid(schedule, delta):
    """Each σ discretised directly on the planned grid gives an ε (and δ) at most that of each σ on
    its own DP-SGD grid spread onto it (connect-the-dots twice), up to the float noise of two FFTs
    (1e-9 relative, and 1e-13 absolute in δ: the FFT error bounds, ~1e-11, differ with the
    window); both are upper bounds, and the RDP bound stays above both."""
    accountant = _one_shot("pld", schedule)
    counts = [count for _, count in schedule]
    spread = compose_plds(_own_grid_bases(schedule), counts=counts)
    assert accountant.get_epsilon(delta) <= spread.epsilon_for_delta(delta) * (1 + 1e-9)
    epsilon = spread.epsilon_for_delta(delta) / 2
    assert accountant.get_delta(epsilon) <= spread.delta_for_epsilon(epsilon) * (1 + 1e-9) + 1e-13
    assert spread.epsilon_for_delta(delta) <= _one_shot("rdp", schedule).get_epsilon(delta)


def test_the_planned_grid_follows_the_most_run_events_and_keeps_two_spacings():
    """The plan is the coarsest DP-SGD grid among the σ run most often; translations on
    spacings no longer planned are dropped, the last two are kept."""
    from dpverify.accountants.accountant._registry import Request
    from dpverify.accountants.accountant._sampling import common_dp_sgd_interval

    request = Request("pld", "add-remove", ())
    events = {PoissonSampledEvent(Gaussian(sigma=s), Q): k for s, k in ((0.8, 5), (1.5, 9), (2.0, 9))}
    assert common_dp_sgd_interval(events, request) == dp_sgd_interval(1.5, Q)
    assert common_dp_sgd_interval(dict(list(events.items())[:1]), request) is None
    assert common_dp_sgd_interval(events, Request("pld", "replace-one", ())) is None
    assert common_dp_sgd_interval(events, Request("rdp", "add-remove", ())) is None
    mixed = {**events, PoissonSampledEvent(Gaussian(sigma=1.0), 0.5): 9}
    assert common_dp_sgd_interval(mixed, request) == max(dp_sgd_interval(1.5, Q),
                                                         dp_sgd_interval(1.0, 0.5))
    accountant = PrivacyAccountant("pld")
    for sigma, count in ((0.8, 3), (1.5, 4), (2.0, 5), (0.9, 6)):
        accountant.step(noise_multiplier=sigma, sample_rate=Q)   # a new most-run σ: a new plan
        for _ in range(count):
            accountant.step(noise_multiplier=sigma, sample_rate=Q)
        accountant.get_epsilon(1e-5)
    spacings = {interval for _, interval in accountant._values}   # None: 0.8 alone, on its own grid
    assert spacings == {None, dp_sgd_interval(2.0, Q), dp_sgd_interval(0.9, Q)}


def test_a_planned_grid_the_constructor_refuses_leaves_the_event_on_its_own_grid():
    """A planned spacing with a grid point on ln(1 − q) (refused by the constructor) is not an
    error: that event is translated on its own DP-SGD grid (then spread, as before)."""
    from dpverify.accountants.accountant._registry import Request, translate

    q = 0.5
    refused = -math.log1p(-q) / 1000   # the point −1000 h is the loss floor
    event = PoissonSampledEvent(Gaussian(sigma=1.0), q)
    request = Request("pld", "add-remove", (), value_discretization_interval=refused)
    pld = translate(event, request)
    assert pld.value_discretization_interval == dp_sgd_interval(1.0, q)


def test_a_schedule_query_is_bit_identical_when_repeated():
    """Asked again, asked of a fresh accountant, and with the spectra memo cold: the same bits."""
    schedule = [(0.8 + 0.15 * i, 7) for i in range(8)]
    accountant = _one_shot("pld", schedule)
    first = (accountant.get_epsilon(1e-5), accountant.get_delta(1.0))
    assert (accountant.get_epsilon(1e-5), accountant.get_delta(1.0)) == first
    assert (_one_shot("pld", schedule).get_epsilon(1e-5), _one_shot("pld", schedule).get_delta(1.0)) == first
    spectra._MEMO.clear()   # cold: nothing memoised
    cold = _one_shot("pld", schedule)
    assert (cold.get_epsilon(1e-5), cold.get_delta(1.0)) == first


# --------------------------------------------------------------------------- remaining_steps
@pytest.mark.parametrize("method", ["pld", "rdp"])
def test_remaining_steps_is_the_verified_passing_end(method):
    accountant = _one_shot(method, [(1.0, 50)])
    budget = 1.2
    m = accountant.remaining_steps(epsilon=budget, delta=1e-5, noise_multiplier=1.0, sample_rate=Q)
    assert m > 0
    after = _one_shot(method, [(1.0, 50 + m)])
    assert after.get_epsilon(1e-5) <= budget
    assert after.step(noise_multiplier=1.0, sample_rate=Q).get_epsilon(1e-5) > budget
    assert len(accountant) == 1 and accountant.history[0][1] == 50   # nothing was recorded


def test_remaining_steps_after_other_events_counts_them():
    accountant = _one_shot("rdp", [(0.8, 10), (2.0, 10)])
    m = accountant.remaining_steps(epsilon=2.5, delta=1e-5, noise_multiplier=2.0, sample_rate=Q)
    assert m > 0
    assert _one_shot("rdp", [(0.8, 10), (2.0, 10 + m)]).get_epsilon(1e-5) <= 2.5
    assert _one_shot("rdp", [(0.8, 10), (2.0, 11 + m)]).get_epsilon(1e-5) > 2.5


def test_remaining_steps_edges():
    spent = _one_shot("rdp", [(0.5, 1000)])
    assert spent.remaining_steps(epsilon=1.0, delta=1e-5, noise_multiplier=0.5, sample_rate=Q) == 0
    fresh = PrivacyAccountant("rdp")
    assert fresh.remaining_steps(epsilon=50.0, delta=1e-5, noise_multiplier=100.0, sample_rate=Q,
                                 max_steps=1000) == 1000
    with pytest.raises(ValueError, match="^noise_multiplier=-1"):
        fresh.remaining_steps(epsilon=1.0, delta=1e-5, noise_multiplier=-1.0, sample_rate=Q)
    with pytest.raises(ValueError, match="^max_steps=0"):
        fresh.remaining_steps(epsilon=1.0, delta=1e-5, noise_multiplier=1.0, sample_rate=Q,
                              max_steps=0)
    with pytest.raises(ValueError, match="^delta=0"):
        fresh.remaining_steps(epsilon=1.0, delta=0.0, noise_multiplier=1.0, sample_rate=Q)


# --------------------------------------------------------------------------- Opacus protocol
class _Optimizer:
    """Opacus's DPOptimizer as the accountant's hook sees it."""

    noise_multiplier = 1.1
    accumulated_iterations = 2


def test_opacus_protocol():
    accountant = PrivacyAccountant("rdp")
    hook = accountant.get_optimizer_hook_fn(sample_rate=0.005)
    for _ in range(3):
        hook(_Optimizer())
    assert len(accountant) == 1 and accountant.mechanism() == "rdp"
    assert accountant.history[0] == (PoissonSampledEvent(Gaussian(sigma=1.1), 0.01), 3)
    destination: dict = {"other": 1}
    state = accountant.state_dict(destination)
    assert state is destination and state["other"] == 1
    restored = PrivacyAccountant("pld").load_state_dict(json.loads(json.dumps(state)))
    assert restored.method == "rdp" and restored.history == accountant.history
    assert restored.get_epsilon(1e-5) == accountant.get_epsilon(1e-5)
    with pytest.raises(TypeError, match="^state_dict="):
        restored.load_state_dict({"nothing": []})
    assert restored.history == accountant.history     # a refused state changes nothing
    with pytest.raises(TypeError, match="^destination="):
        accountant.state_dict([])
