"""The privacy accountant: a ledger of privacy events, accounted by PLD, RDP or zCDP.

Public module: ``ledger`` — :class:`PrivacyAccountant` (``compose``, ``step``,
``get_epsilon``, ``get_delta``, ``report``, ``state_dict``), :data:`ACCOUNTING_METHODS`,
:data:`NEIGHBOURING_RELATIONS` and :func:`from_dp_accounting` (dp_accounting's
``DpEvent`` trees as dpverify events, from the private ``_dp_accounting``).

The private modules translate events into each method's value, dispatched by a
registry (``_registry``: ``translates`` keyed by event or mechanism type and
method) rather than an ``isinstance`` ladder. The translators are grouped by event
family, each next to its siblings for the other methods: ``_composition`` (composed,
self-composed), ``_mechanisms`` (a mechanism event by its mechanism's type, tree
aggregation), ``_sampling`` (Poisson, without replacement), ``_truncated`` (truncated Poisson) and ``_selection``
(repeat-and-select, the exponential mechanism); ``_common`` holds what they share.
"""

from dpverify.accountants.accountant.ledger import (
    ACCOUNTING_METHODS,
    NEIGHBOURING_RELATIONS,  # noqa: F401 (0.1 name, see below)
    PrivacyAccountant,
    from_dp_accounting,
)

# ``__all__`` lists the names ``dpverify.accountants`` exports from this family. The names
# marked above are the other public names of the 0.1 module of this path, importable from here
# as before and documented in the public module that defines them.
__all__ = ["PrivacyAccountant", "ACCOUNTING_METHODS", "from_dp_accounting"]
