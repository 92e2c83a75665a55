"""The values an experiment is made of: algorithm specs, panels, experiments, results."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._record_validation import check_record
from dpverify.bandits.contextual.environment import ContextualInstanceFamily
from dpverify.bandits.environments import InstanceFamily
from dpverify.bandits.instance_files import FixedInstance
from dpverify.bandits.linear import NON_PRIVATE_LINEAR_ALGORITHMS, make_linear_algorithm
from dpverify.bandits.linear.environments import LinearInstanceFamily
from dpverify.bandits.mab import make_algorithm
from dpverify.bandits.simulate import SimulationResult

__all__ = ["AlgorithmSpec", "LinearAlgorithmSpec", "Panel", "Experiment", "ExperimentResult",
           "SCALES", "build_algorithm"]

#: Scales of :func:`reproduce`: (horizon divisor, runs or None for the experiment's own).
SCALES = {"full": (1, None), "quick": (10, 5)}


@dataclass(frozen=True)
class AlgorithmSpec:
    """A registry algorithm name with its options (a hashable tuple of pairs) and a plot label."""

    name: str
    label: str
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        check_record(self)

    def build(self, epsilon: float, delta: float) -> Any:
        return make_algorithm(self.name, epsilon=epsilon, delta=delta, **dict(self.options))


@dataclass(frozen=True)
class Panel:
    """One figure panel: an instance family, (ε, δ), a horizon and the algorithms compared."""

    key: str
    title: str
    instances: InstanceFamily | LinearInstanceFamily | ContextualInstanceFamily | FixedInstance
    epsilon: float
    horizon: int
    algorithms: tuple[AlgorithmSpec, ...]
    delta: float = 1e-6

    def __post_init__(self) -> None:
        check_record(self)


@dataclass(frozen=True)
class Experiment:
    """A named experiment: panels of regret curves (``kind="curves"``) or an ε sweep (``"scaling"``)."""

    name: str
    description: str
    panels: tuple[Panel, ...]
    runs: int = 20
    kind: str = "curves"
    #: Horizon divisor of ``preset="quick"`` (the ε sweep needs the full T to show its slopes).
    quick_divisor: int = 10
    #: Printed on the quick-preset figure and in the CSV when the quick preset does not keep the
    #: paper's orderings (empty: it keeps them).
    quick_note: str = ""
    #: Label of the non-private reference of an ε sweep: the figure then shows each
    #: algorithm's excess regret over it (its privacy cost).
    reference: str = ""

    def __post_init__(self) -> None:
        check_record(self)


@renamed_parameters(scale="preset")
@dataclass(frozen=True, eq=False)
class ExperimentResult:
    """The simulations of every (panel, algorithm), and the files written."""

    experiment: Experiment
    preset: str
    results: tuple[tuple[Panel, tuple[SimulationResult, ...]], ...]
    files: tuple[Path, ...]
    seconds: float
    #: Runs simulated now and runs read from the result store.
    computed: int = 0
    cached: int = 0

    scale = renamed_property("scale", "preset")

    def __post_init__(self) -> None:
        check_record(self)


@dataclass(frozen=True)
class LinearAlgorithmSpec:
    """A :func:`~dpverify.bandits.linear.make_linear_algorithm` name, options and plot label."""

    name: str
    label: str
    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        check_record(self)

    @property
    def needs_horizon(self) -> bool:
        return self.name == "dpe-fixedu"

    def build(self, epsilon: float, delta: float, horizon: int | None = None) -> Any:
        options = dict(self.options)
        if self.needs_horizon:
            options.update(horizon=horizon, dimension=20)
        private = self.name not in NON_PRIVATE_LINEAR_ALGORITHMS
        return make_linear_algorithm(self.name, epsilon=epsilon if private else None,
                                     delta=delta, **options)


def build_algorithm(spec: Any, epsilon: float, delta: float, horizon: int) -> Any:
    """The spec's algorithm; specs with ``needs_horizon`` (DPE-FixedU) also get the horizon."""
    if getattr(spec, "needs_horizon", False):
        return spec.build(epsilon, delta, horizon=horizon)
    return spec.build(epsilon, delta)
