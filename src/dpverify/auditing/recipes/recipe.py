"""A real library's mechanism, ready to audit: its sampler, a neighbouring pair and its own claim.

:class:`Recipe` is what :mod:`dpverify.auditing.recipes.diffprivlib` and
:mod:`dpverify.auditing.recipes.opendp` return; :meth:`Recipe.audit` audits the
library's claim (or another one) with :func:`dpverify.auditing.audit`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dpverify._record_validation import check_record
from dpverify._validation import check_callable, value_error
from dpverify.auditing.adapters import CallSampler
from dpverify.auditing.audit import audit
from dpverify.auditing.report import AuditReport
from dpverify.guarantees import ApproxDP, PureDP

__all__ = ["Recipe"]


@dataclass(frozen=True)
class Recipe:
    """One mechanism of a peer library as an audit: sampler, neighbouring pair, claim.

    Attributes
    ----------
    name
        The library call audited, e.g. ``"diffprivlib.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0)"``.
    sampler
        Its :func:`~dpverify.auditing.adapters.sampler_from_calls` sampler.
    x, x_prime
        A neighbouring pair under ``neighbouring`` on which the claim is tight
        or close to it (the recipe's docstring says how close).
    guarantee
        The library's own claim for the pair: :class:`~dpverify.guarantees.PureDP`
        or :class:`~dpverify.guarantees.ApproxDP`, read from the library
        (OpenDP's privacy map) or from its documented parameters (diffprivlib).
    neighbouring
        The relation under which the library states its guarantee.
    """

    name: str
    sampler: CallSampler
    x: Any
    x_prime: Any
    guarantee: PureDP | ApproxDP
    neighbouring: str = "replace-one"

    def __post_init__(self) -> None:
        check_record(self)
        check_callable(self.sampler, "sampler", "a callable sampler(data, size, rng)")
        for name in ("x", "x_prime"):  # numeric data with NaN is no fixed neighbouring pair
            value = getattr(self, name)
            try:
                array = np.asarray(value, dtype=float)
            except (TypeError, ValueError, OverflowError):  # not float data (or beyond floats)
                continue
            if np.isnan(array).any():
                raise value_error(name, value, "data without NaN (a recipe's pair is fixed data)")
        if self.neighbouring not in ("replace-one", "add-remove"):
            raise value_error("neighbouring", self.neighbouring, "'replace-one' or 'add-remove'")

    def audit(self, *, epsilon: float | None = None, delta: float | None = None,
              **options: Any) -> AuditReport:
        """:func:`dpverify.auditing.audit` of this recipe's claim (or of ``epsilon`` / ``delta``).

        ``options`` go to :func:`~dpverify.auditing.audit` as they are
        (``samples``, ``seed``, ``confidence``, ``events``, ...).
        """
        claimed_delta = getattr(self.guarantee, "delta", 0.0)
        return audit(self.sampler, self.x, self.x_prime,
                     epsilon=self.guarantee.epsilon if epsilon is None else epsilon,
                     delta=claimed_delta if delta is None else delta, **options)
