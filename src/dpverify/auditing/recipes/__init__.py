"""Ready audits of peer libraries' mechanisms: :class:`Recipe` and one module per library.

* :mod:`dpverify.auditing.recipes.diffprivlib` — IBM's diffprivlib mechanisms
  (``Laplace``, ``LaplaceBoundedDomain``, ``Geometric``, ``Exponential``,
  ``GaussianAnalytic``, ``Binary``, ``Snapping``) and tools (``mean``,
  ``var``, ``histogram``), seeded through ``random_state=``;
* :mod:`dpverify.auditing.recipes.opendp` — OpenDP's Laplace and Gaussian over
  integers and floats, report-noisy-max and randomized response (unseedable:
  ``reproducible: no``).

Each recipe is a :class:`Recipe`: the sampler
(:func:`dpverify.auditing.adapters.sampler_from_calls`), a neighbouring pair
and the library's own claim; ``recipe.audit(samples=..., seed=...)`` audits
it. The libraries are optional: ``pip install "dpverify[peers-mechanisms]"``.
"""

from dpverify.auditing.recipes.recipe import Recipe

__all__ = ["Recipe"]
