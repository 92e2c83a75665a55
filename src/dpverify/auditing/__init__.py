"""Empirical lower bounds on privacy: audit an implementation against its claim.

* :func:`audit` — one (ε, δ) claim on a neighbouring pair; :class:`AuditReport`.
* :func:`audit_curve` — a whole claimed privacy profile; :class:`CurveAuditReport`.
* :func:`audit_interactive` — a whole interactive algorithm (a bandit over a
  reward stream), runs in parallel over processes.
* :func:`audit_search` — the worst of many neighbouring pairs (pilot, then
  certification on fresh samples; family-wise); :func:`query_vector_patterns`
  — StatDP's input patterns.
* ``audit(..., samples="auto", max_samples=N)`` — :func:`audit_sequential`,
  stops at the first certified violation; :func:`samples_to_certify` and
  :func:`largest_certifiable_epsilon` plan sample sizes.
* :func:`audit_model` — a lower bound valid *under a stated noise model*
  (Gaussian, Laplace, randomized response), labelled as such;
  :func:`weakest_profile` for :func:`audit_curve`.
* :func:`sampler_from_calls` — a mechanism that releases one output per call
  (a real library's: diffprivlib, OpenDP) as the sampler every audit takes,
  its calls in parallel; :mod:`dpverify.auditing.recipes` — diffprivlib's and
  OpenDP's mechanisms ready to audit against their own claims.

* :func:`audit_scores` — canary scores (of independent runs, or of one run with
  canaries included at random) to a certified ε lower bound, against any claim;
  :func:`audit_training` draws the canaries' inclusion itself and calls the
  user's training code; :class:`ScoreAuditReport` (:mod:`dpverify.auditing.scores`).
* :func:`exact_epsilon`, :func:`exact_delta` — the exact privacy of a pair of
  finite pmfs, to cross-check the statistical path.
* :func:`clopper_pearson`, :func:`epsilon_lower_bound`, :func:`delta_lower_bound`
  — the estimators underneath; :func:`hockey_stick_lower_bound` — a δ(ε)
  lower bound from two samples.

Every reported bound is a lower bound holding with probability at least
``confidence`` for the whole audit (event search, both directions, every
candidate event): ``docs/proofs/auditing.md``.

Layout: one public module per kind of audit (``audit``, ``curves``,
``sequential``, ``search``, ``interactive``, ``model``, ``divergences``),
``planning``, ``estimators``, ``report``, ``exact`` and ``examples``
(``dp_sgd`` and ``dp_sgd_variants``: a reference numpy DP-SGD, its canaries and
its classic bugs, for audits of training runs);
:mod:`dpverify.auditing.events` is the event search (candidate events and
their statistics, the scalar, vector and sentinel families); the private
``_pipeline`` folder is the engine every sampling audit shares (argument
checks, the sampler's draw and its thread-safety probe, the search and
certification splits, chunked counting, the simultaneous bounds).
"""

from dpverify._deprecation import renamed_attributes
from dpverify.auditing.adapters import sampler_from_calls
from dpverify.auditing.audit import audit
from dpverify.auditing.curves import audit_curve, claimed_delta_curve
from dpverify.auditing.divergences import HockeyStickBound, hockey_stick_lower_bound
from dpverify.auditing.estimators import (
    ConfidenceInterval,
    clopper_pearson,
    clopper_pearson_lower,
    clopper_pearson_upper,
    delta_lower_bound,
    epsilon_lower_bound,
)
from dpverify.auditing.events import FAMILIES, OutputEvent
from dpverify.auditing.exact import exact_delta, exact_epsilon
from dpverify.auditing.interactive import audit_interactive
from dpverify.auditing.model import ModelAuditReport, audit_model, weakest_profile
from dpverify.auditing.planning import largest_certifiable_epsilon, samples_to_certify
from dpverify.auditing.report import AuditReport, CurveAuditReport, CurvePoint
from dpverify.auditing.scores import ScoreAuditReport, audit_scores, audit_training
from dpverify.auditing.search import InputPair, SearchReport, audit_search, query_vector_patterns
from dpverify.auditing.sequential import audit_sequential

__all__ = [
    "audit",
    "sampler_from_calls",
    "audit_curve",
    "audit_interactive",
    "audit_search",
    "audit_sequential",
    "audit_model",
    "audit_scores",
    "audit_training",
    "ScoreAuditReport",
    "weakest_profile",
    "query_vector_patterns",
    "InputPair",
    "SearchReport",
    "ModelAuditReport",
    "samples_to_certify",
    "largest_certifiable_epsilon",
    "claimed_delta_curve",
    "exact_epsilon",
    "exact_delta",
    "hockey_stick_lower_bound",
    "HockeyStickBound",
    "AuditReport",
    "CurveAuditReport",
    "CurvePoint",
    "OutputEvent",
    "FAMILIES",
    "ConfidenceInterval",
    "clopper_pearson",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "epsilon_lower_bound",
    "delta_lower_bound",
]

#: ``Event`` (dpverify 0.1) is :class:`OutputEvent`, for one release.
__getattr__ = renamed_attributes(__name__, {"Event": ("OutputEvent", OutputEvent)})
