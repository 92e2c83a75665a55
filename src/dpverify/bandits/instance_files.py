"""User-defined bandit instances: explicit arm means, or θ* and an action set, from a file or a sweep spec.

A :class:`FixedInstance` is hashable and picklable and behaves as a family
that always "draws" the same instance, so the simulator, sweeps and the
result store treat it exactly like the papers' random families (its key is
its content, never the file's path).

File formats (``.json`` or ``.toml``), one instance per file::

    {"name": "three arms", "means": [0.2, 0.5, 0.7], "rewards": "bernoulli"}
    {"name": "my linear", "theta": [0.6, 0.8], "actions": [[1, 0], [0, 1], [0.7, 0.7]]}

``rewards`` is ``"bernoulli"`` or ``"clipped-gaussian"`` (standard deviation
``sigma``, default 0.1; the old key ``sd`` is read with a warning) for means; a linear instance is Hanna et al. 2022's :class:`~dpverify.bandits.linear.environments.LinearBandit`
(±1 rewards with mean ``⟨θ*, x⟩``; ``‖x‖, ‖θ*‖ <= 1``).
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dpverify._deprecation import renamed_parameters, renamed_property
from dpverify._validation import check_choice, check_positive, value_error
from dpverify.bandits.environments import REWARD_FAMILIES, BernoulliBandit, ClippedGaussianBandit
from dpverify.bandits.linear.environments import LinearBandit

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["FixedInstance", "load_instance", "instance_from_mapping", "read_toml"]


def _renamed_keys(data: Mapping[str, Any], renames: Mapping[str, str],
                  where: str) -> dict[str, Any]:
    """``data`` with each old key of ``renames`` read as its new one, with a FutureWarning (a
    file's author reads it); giving both is an error."""
    out = dict(data)
    for old, new in renames.items():
        if old not in out:
            continue
        if new in out:
            raise value_error(where, sorted(data), f"one of {old!r} (deprecated) and {new!r}")
        warnings.warn(f"{where}: the key {old!r} is deprecated and will be removed in the next "
                      f"release; use {new!r}", FutureWarning, stacklevel=3)
        out[new] = out.pop(old)
    return out


@renamed_parameters(sd="sigma")
@dataclass(frozen=True)
class FixedInstance:
    """One explicit instance: ``means`` (K-armed) or ``theta`` and ``actions`` (linear).

    >>> instance = FixedInstance("two arms", means=(0.3, 0.6), rewards="bernoulli")
    >>> instance(np.random.default_rng(0)).best_arm, instance.k
    (1, 2)
    """

    name: str
    means: tuple[float, ...] | None = None
    rewards: str = "bernoulli"
    sigma: float = 0.1
    theta: tuple[float, ...] | None = None
    actions: tuple[tuple[float, ...], ...] | None = None
    draws_instances = True

    # the old spellings, read-only, for one release
    sd = renamed_property("sd", "sigma")

    def __post_init__(self) -> None:
        linear = self.theta is not None or self.actions is not None
        if (self.means is None) == (not linear):
            raise value_error("instance", self.name, "either means, or theta and actions")
        if linear:
            if self.theta is None or self.actions is None:
                raise value_error("instance", self.name, "given both theta and actions")
            object.__setattr__(self, "theta", tuple(float(v) for v in self.theta))
            object.__setattr__(self, "actions",
                               tuple(tuple(float(v) for v in row) for row in self.actions))
        else:
            object.__setattr__(self, "means", tuple(float(v) for v in self.means))
            check_choice(self.rewards, "rewards", REWARD_FAMILIES)
            object.__setattr__(self, "sigma", check_positive(self.sigma, "sigma"))
        self.build()  # validates the values now, not in a worker

    @property
    def linear(self) -> bool:
        return self.theta is not None

    @property
    def k(self) -> int:
        return len(self.actions) if self.linear else len(self.means)

    @property
    def d(self) -> int | None:
        return len(self.theta) if self.linear else None

    @property
    def n_arms(self) -> int:
        """Arms (multi-armed) or actions (linear): the name every instance family uses."""
        return self.k

    @property
    def dimension(self) -> int | None:
        return self.d

    def build(self) -> Any:
        """The environment."""
        if self.linear:
            return LinearBandit(actions=np.array(self.actions), theta=np.array(self.theta))
        if self.rewards == "bernoulli":
            return BernoulliBandit(self.means)
        return ClippedGaussianBandit(self.means, self.sigma)

    def __call__(self, rng: np.random.Generator) -> Any:
        return self.build()

    def describe(self) -> str:
        shape = f"k={self.k}, d={self.d}" if self.linear else f"K={self.k}, {self.rewards}"
        return f"{self.name} ({shape})"


def instance_from_mapping(data: dict[str, Any], *, name: str = "instance") -> FixedInstance:
    """A :class:`FixedInstance` from a mapping with ``means`` or ``theta`` + ``actions``."""
    if not isinstance(data, dict):
        raise value_error("instance", data, "a mapping with means, or theta and actions")
    data = _renamed_keys(data, {"sd": "sigma"}, "instance")
    allowed = {"name", "means", "rewards", "sigma", "theta", "actions"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise value_error("instance", unknown, f"keys among {sorted(allowed)}")
    return FixedInstance(name=str(data.get("name", name)), means=data.get("means"),
                         rewards=data.get("rewards", "bernoulli"), sigma=data.get("sigma", 0.1),
                         theta=data.get("theta"), actions=data.get("actions"))


def load_instance(path: str | Path) -> FixedInstance:
    """Read one instance from a ``.json`` or ``.toml`` file (module docstring)."""
    path = Path(path)
    if not path.is_file():
        raise value_error("instance", str(path), "an existing .json or .toml file")
    if path.suffix == ".toml":
        data = read_toml(path)
    elif path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
    else:
        raise value_error("instance", str(path), "a .json or .toml file")
    return instance_from_mapping(data, name=path.stem)


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file (``tomllib`` from Python 3.11, the ``tomli`` backport before)."""
    with Path(path).open("rb") as handle:
        try:
            return tomllib.load(handle)
        except tomllib.TOMLDecodeError as error:
            raise value_error("spec", str(path), "valid TOML", str(error)) from None
