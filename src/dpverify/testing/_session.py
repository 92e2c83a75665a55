"""The state the pytest plugin shares with :func:`~dpverify.testing.assert_satisfies`.

Standard library only (numpy on first use), so that the plugin stays light. The plugin pushes
one :class:`RunState` per pytest session in ``pytest_configure`` and pops it in
``pytest_unconfigure``; a stack, because a test may run pytest inside pytest
(``pytester``'s in-process runs). Outside the plugin the stack is empty and the
assertions use their library defaults.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AuditRecord", "TestContext", "RunState", "push", "pop", "current", "describe",
           "stream_seed"]


@dataclass(frozen=True)
class AuditRecord:
    """One :func:`assert_satisfies` call, for the end-of-session table."""

    test: str
    label: str
    claim: str
    epsilon_lower_bound: float
    violation: bool
    samples: int
    confidence: float
    claimed_epsilon: float = 0.0
    rerun: str = ""

    @property
    def excess(self) -> float:
        """Certified lower bound minus the claim (positive exactly at a violation)."""
        return self.epsilon_lower_bound - self.claimed_epsilon


@dataclass
class TestContext:
    """The running test: its node id and its effective audit settings."""

    __test__ = False  # not a pytest test class

    nodeid: str
    samples: int | None
    confidence: float | None
    seed: int
    rerun: bool = False


@dataclass
class RunState:
    """One pytest session's settings (from the command line) and audit records."""

    seed: int = 0
    samples: int | None = None
    confidence: float | None = None
    rerun: bool = False
    test: TestContext | None = None
    records: list[AuditRecord] = field(default_factory=list)


_STACK: list[RunState] = []


def push(state: RunState) -> None:
    _STACK.append(state)


def pop(state: RunState) -> None:
    if state in _STACK:
        _STACK.remove(state)


def current() -> RunState | None:
    """The innermost active session, or ``None`` outside the plugin."""
    return _STACK[-1] if _STACK else None


def describe(value: Any) -> str:
    """A short label for a sampler: its qualified name, else its repr."""
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    return name if isinstance(name, str) else repr(value)[:60]


def stream_seed(seed: int, nodeid: str, *spawn_key: int) -> Any:
    """A test's ``numpy.random.SeedSequence``: entropy ``(seed, sha256(nodeid))``.

    Child ``spawn_key=(0,)`` feeds the ``dp_rng`` fixture, ``(1, digest)``
    an :func:`~dpverify.testing.assert_satisfies` call (digest of its question)
    and ``(2, digest)`` its rerun (``--dpverify-rerun``). It
    depends on nothing but ``seed`` and ``nodeid``, so selecting, reordering or
    parallelising tests changes no test's streams. (numpy is imported here, on
    first use, to keep the plugin's import light.)
    """
    import numpy as np  # deferred: the pytest plugin imports this module in every run

    digest = int.from_bytes(hashlib.sha256(nodeid.encode("utf-8")).digest()[:16], "little")
    return np.random.SeedSequence(entropy=(seed, digest), spawn_key=spawn_key)
