"""Deployment plans: every parameter of a private bandit deployment, and the guarantee it gives.

A :class:`DeploymentPlan` answers the privacy engineer's question "what do I
deploy for this budget?" without running anything: every algorithm's
``plan(*, horizon, n_arms=None, dimension=None)`` computes it from
the instance sizes alone (no environment object, no simulation), through the
**same** methods its runs call (the privatizers' ``parameters(n)``,
``user_noise``, ``for_batch``, … — a test compares the plan with the run's
own records for every algorithm).

``requested`` is the (ε, δ) asked for, ``guarantee`` the total (ε, δ) the
deployment actually gives (through :mod:`dpverify.accountants`, rounded up),
``claim_met`` whether the second is within the first. In ``mode="sound"`` the
algorithms calibrate their free noise parameter so that ``claim_met`` holds
whenever some parameter choice can meet the budget; otherwise the plan says
why (``infeasible``) and where it becomes feasible (``feasible_horizon`` /
``feasible_epsilon``). ``mode="paper"`` keeps the printed constants and
reports the true guarantee, with ``claim_met`` False where the paper's claim fails.

>>> from dpverify.guarantees import ApproxDP, PureDP
>>> plan = DeploymentPlan(algorithm="example", mode="sound", model="central", horizon=10,
...                       requested=ApproxDP(1.0, 1e-6), guarantee=ApproxDP(1.0, 0.0),
...                       per_batch=PureDP(1.0), parameters={"laplace_b": 1.0})
>>> plan.claim_met, plan.to_dict()["guarantee"]
(True, {'type': 'approx-dp', 'epsilon': 1.0, 'delta': 0.0})
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from dpverify._deprecation import renamed_parameters
from dpverify._record_validation import check_record
from dpverify._validation import _type_error, check_instance, check_positive_int, value_error
from dpverify.guarantees import ZCDP, ApproxDP, Guarantee, PureDP, RDPCurve, guarantee_to_dict

__all__ = ["DeploymentPlan", "meets_request", "noise_parameters", "instance_sizes", "guarantee_dict", "json_value",
           "CALIBRATIONS", "MODES"]

#: Modes of every algorithm: calibrated to the request (sound) or the printed constants (paper).
MODES = ("sound", "paper")
#: Calibrations: the paper's analysis, or an exact one where it allows less noise.
CALIBRATIONS = ("paper", "exact")


def json_value(value: Any) -> Any:
    """A JSON-ready (RFC 8259) form: guarantees as objects, non-finite floats as ``None``.

    >>> json_value({"a": float("inf"), "b": (1, 2.5)})
    {'a': None, 'b': [1, 2.5]}
    """
    if isinstance(value, (PureDP, ApproxDP, ZCDP, RDPCurve)):
        return guarantee_dict(value)
    if isinstance(value, Mapping):
        return {str(key): json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) or hasattr(value, "__float__"):
        number = float(value)
        return number if math.isfinite(number) else None
    return str(value)


def guarantee_dict(guarantee: Any) -> dict[str, Any] | None:
    """A guarantee value as a JSON object: ``{"type": "approx-dp", <its fields>}`` (``None`` stays);
    :func:`dpverify.guarantees.guarantee_to_dict` with non-finite fields as ``None``.

    >>> guarantee_dict(ApproxDP(0.5, 1e-6))
    {'type': 'approx-dp', 'epsilon': 0.5, 'delta': 1e-06}
    """
    if guarantee is None:
        return None
    return {key: json_value(value) for key, value in guarantee_to_dict(guarantee).items()}


def _frozen_mapping(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))


@dataclass(frozen=True, eq=False)
class DeploymentPlan:
    """Every deployment parameter of one algorithm at one (request, horizon, instance size).

    Attributes
    ----------
    algorithm, mode, calibration, model
        The algorithm's name, ``"sound"`` / ``"paper"``, ``"paper"`` / ``"exact"``
        and the trust model of the guarantee (``"none"`` when non-private).
    horizon, instance
        T and the instance sizes used (``n_arms``, ``dimension``).
    requested
        The (ε, δ) asked for (``None`` for a non-private algorithm).
    guarantee
        The total (ε, δ) the deployment gives towards any one user (rounded up).
    per_batch
        The guarantee of one batch / phase / release (its own type: pure, RDP, zCDP, …).
    parameters
        Every deployment parameter by its paper name (snake_case, symbol last:
        ``precision_g``, ``modulus_m``, ``skellam_mu``, ``local_epsilon_0``, …).
    schedule
        One record per batch size / phase / release kind (``count`` when repeated).
    notes
        Paper references, readings chosen, why a claim fails.
    infeasible
        Why no parameter choice meets the request (``None`` when one does).
    feasible_horizon, feasible_epsilon
        The smallest T, or the largest ε, at which the request becomes feasible, when known.
    """

    algorithm: str
    mode: str
    model: str
    horizon: int
    requested: ApproxDP | None
    guarantee: ApproxDP | None
    per_batch: Guarantee | None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    schedule: Sequence[Mapping[str, Any]] = ()
    notes: Sequence[str] = ()
    calibration: str = "paper"
    instance: Mapping[str, Any] = field(default_factory=dict)
    infeasible: str | None = None
    feasible_horizon: int | None = None
    feasible_epsilon: float | None = None

    def __post_init__(self) -> None:
        check_record(self)  # the annotated fields: texts, counts, guarantees, ε, ...
        check_instance(self.instance, "instance", Mapping, "a mapping of instance sizes")
        for name, expected in (("schedule", "mappings"), ("notes", "strings")):
            value = getattr(self, name)
            if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
                raise _type_error(name, value, f"a sequence of {expected}")
        for i, record in enumerate(self.schedule):
            check_instance(record, f"schedule[{i}]", Mapping, "a mapping")
        for i, note in enumerate(self.notes):
            check_instance(note, f"notes[{i}]", str, "a string")
        object.__setattr__(self, "parameters", _frozen_mapping(self.parameters))
        object.__setattr__(self, "instance", _frozen_mapping(
            {key: value for key, value in self.instance.items() if value is not None}))
        object.__setattr__(self, "schedule", tuple(_frozen_mapping(r) for r in self.schedule))
        object.__setattr__(self, "notes", tuple(str(note) for note in self.notes if note))

    @property
    def claim_met(self) -> bool:
        """The deployment is feasible and its guarantee is within the request (non-private: True)."""
        if self.infeasible is not None:
            return False
        return meets_request(self.guarantee, self.requested)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (strict RFC 8259: non-finite numbers become ``None``)."""
        out = {"algorithm": self.algorithm, "mode": self.mode, "calibration": self.calibration,
               "model": self.model, "horizon": self.horizon, "instance": dict(self.instance),
               "requested": guarantee_dict(self.requested),
               "guarantee": guarantee_dict(self.guarantee),
               "claim_met": self.claim_met, "per_batch": guarantee_dict(self.per_batch),
               "parameters": dict(self.parameters),
               "schedule": [dict(record) for record in self.schedule],
               "notes": list(self.notes), "infeasible": self.infeasible,
               "feasible_horizon": self.feasible_horizon,
               "feasible_epsilon": self.feasible_epsilon}
        return json_value(out)


def check_request(value: Any, name: str = "requested") -> ApproxDP | None:
    """``value`` as the (ε, δ) request of a deployment: ``None``, an ApproxDP, or a PureDP (δ = 0).

    Raises
    ------
    TypeError
        Naming ``name`` for anything else (NaN, a number, an RDP curve, ...).
    """
    if value is None:
        return None
    check_instance(value, name, (ApproxDP, PureDP), "None or an ApproxDP / PureDP guarantee")
    if isinstance(value, PureDP):
        return ApproxDP(value.epsilon, 0.0)
    return value


def meets_request(guarantee: ApproxDP | None, requested: ApproxDP | None) -> bool:
    """``guarantee`` is within ``requested`` (both ε and δ); a non-private run claims nothing.

    >>> meets_request(ApproxDP(0.9, 0.0), ApproxDP(1.0, 1e-6)), meets_request(None, None)
    (True, True)
    """
    if requested is None:
        return True
    if guarantee is None:
        return False
    return guarantee.epsilon <= requested.epsilon and guarantee.delta <= requested.delta


#: Paper names of the noise laws' parameters (Chowdhury & Zhou 2023, Tenenbaum et al. 2021,
#: Hanna et al. 2022, Li, Zhou & Ji 2022).
_NOISE_NAMES = {
    "PolyaDifference": {"shares": "polya_shares", "scale": "polya_scale"},
    "Skellam": {"mu": "skellam_mu"},
    "DiscreteGaussian": {"sigma": "discrete_gaussian_sigma"},
    "DiscreteLaplace": {"scale": "discrete_laplace_scale"},
    "Laplace": {"scale": "laplace_b"},
    "Gaussian": {"sigma": "gaussian_sigma"},
    "BinomialNoise": {"trials": "noise_bits_N"},
}


def noise_parameters(mechanism: Any, *, role: str = "") -> dict[str, Any]:
    """The parameters of a noise mechanism under their paper names (``role`` prefixes them).

    >>> from dpverify.mechanisms import Skellam
    >>> noise_parameters(Skellam(mu=2.5), role="user")
    {'user_noise': 'Skellam', 'user_skellam_mu': 2.5}
    """
    if mechanism is None:
        return {}
    law = type(mechanism).__name__
    prefix = f"{role}_" if role else ""
    out: dict[str, Any] = {f"{prefix}noise": law}
    names = _NOISE_NAMES.get(law, {})
    for item in fields(mechanism):
        value = getattr(mechanism, item.name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[prefix + names.get(item.name, f"{law.lower()}_{item.name}")] = value
    return out


#: The instance sizes each family's ``plan`` reads (the others must not be given).
_FAMILY_SIZES = {
    "multi-armed": ("n_arms",),
    "linear": ("n_arms", "dimension"),
    "contextual": ("n_arms", "dimension"),
}


@renamed_parameters(actions="n_arms")
def instance_sizes(family: str, *, n_arms: int | None = None, dimension: int | None = None,
                   required: Sequence[str] = ()) -> dict[str, int | None]:
    """Validated instance sizes for ``family`` (a size of another family is an error).

    ``n_arms`` is the number of arms: of actions, for a linear instance.

    >>> instance_sizes("linear", n_arms=100, dimension=5)
    {'n_arms': 100, 'dimension': 5}
    """
    given = {"n_arms": n_arms, "dimension": dimension}
    allowed = _FAMILY_SIZES[family]
    out: dict[str, int | None] = {}
    for name, value in given.items():
        if value is not None and name not in allowed:
            raise value_error(name, value, f"None for a {family} algorithm",
                              f"it reads {', '.join(allowed)}")
        if value is None and name in required:
            raise value_error(name, value, f"a positive integer for a {family} algorithm")
        out[name] = None if value is None else check_positive_int(value, name)
    return out
