"""The audit pipeline behind :func:`~dpverify.auditing.audit` and its siblings (internal).

* :mod:`.arguments` — the arguments every audit entry point shares (sampler,
  samples, confidence, seed, events);
* :mod:`.sampler` — a user's sampler as a :data:`~.engine.Draw`: one spawned
  generator per side, record outputs flattened (:mod:`.outputs`), the
  sampler's contract probed before the two sides are drawn in two threads
  (:mod:`.safety`);
* :mod:`.engine` — draw the search split, choose events on it
  (:mod:`dpverify.auditing.events`), count them on the certification split,
  and turn the counts into simultaneous Clopper–Pearson bounds;
* :mod:`.chunked` — the certification split in independent chunks on any
  executor (large audits);
* :mod:`.run` — one audit of one claim on a draw: :func:`~.run.run_audit`
  and :func:`~.run.audit_from_draw`, which :func:`~dpverify.auditing.audit`,
  the sequential, worst-pair and interactive audits call with validated
  arguments.

Nothing here is public: the entry points are the modules of
:mod:`dpverify.auditing`.
"""
