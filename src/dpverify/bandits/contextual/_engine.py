"""The shared run loop of the contextual algorithms: vectorised between model updates.

All four algorithms (SBLB, its fixed-batch variant, LinUCB, LDP LinUCB) have
the same shape: users arrive one per round, choose their arm locally from the
current model ``(θ̃, Ṽ^{-1}, β)``; their statistics are released in units of
``unit`` users (a shuffler batch of l users, or one user); each release
updates a *candidate* ``(Ṽ, B̃)``, and the model is recomputed from the
candidate when ``det(Ṽ_cand) >= (1+η) det(Ṽ_last)`` (or after every release
for the fixed-batch variant).

Between two model updates the actions depend only on the current model, so
:func:`run` draws the contexts of many rounds at once, chooses all their arms
in one vectorised step, draws their rewards and the releases, and only then
looks for the first release whose candidate triggers an update. Rounds after
that release were played with a stale model: they are discarded and redrawn
(fresh, independent draws — the law of the run is exactly the sequential
algorithm's). Ties in the argmax go to the lowest arm index (Garcelon et al. 2022 do not say).

Regret is booked per round: pseudo-regret ``max_a ⟨x_{t,a}, θ*⟩ − ⟨x_{t,a_t}, θ*⟩``
and realised regret ``r_t(a*_t) − r_t`` with both Bernoulli rewards driven by
the same uniform (common random numbers).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: Rounds drawn at once (bounds memory: rounds × K × d floats).
CHUNK = 1 << 14


class Learner:
    """Base of the per-run states: the det-triggered (or fixed-batch) linear model.

    Subclasses define ``unit``, :meth:`user_stats`, :meth:`release`,
    :meth:`increments`, :meth:`regularization` and :meth:`radius`.
    """

    unit: int = 1
    fixed_batch: bool = False
    eta: float = 0.5
    scale: float = 1.0  # θ̃ = Ṽ^{-1} B̃ / scale (L for SBLB's normalised features)
    radius_scale: float = 1.0  # multiplies β (1 = the paper's radius; not in the papers otherwise)

    def __init__(self, d: int) -> None:
        self.d = d
        self.gram = np.zeros((d, d))
        self.vector = np.zeros(d)
        self.samples = 0
        reg0 = float(self.regularization(np.array([0.0]))[0])
        self.logdet_last = d * math.log(reg0)
        self.theta = np.zeros(d)
        self.inverse = np.eye(d) / reg0
        self.beta = self.radius(1.0, reg0)
        self.updates = 0
        self.next_releases = 8

    # -- to define -------------------------------------------------------------------
    def user_stats(self, chosen: NDArray, rewards: NDArray, rng: np.random.Generator) -> NDArray:
        raise NotImplementedError

    def release(self, summed: NDArray, rng: np.random.Generator) -> NDArray:
        raise NotImplementedError

    def increments(self, released: NDArray) -> tuple[NDArray, NDArray]:
        raise NotImplementedError

    def regularization(self, samples: NDArray) -> NDArray:
        raise NotImplementedError

    def radius(self, samples: float, regularization: float) -> float:
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------
    def releases_per_chunk(self) -> int:
        if self.fixed_batch:
            return 1
        return max(1, min(self.next_releases, CHUNK // self.unit))

    def absorb(self, released: NDArray) -> int | None:
        """Feed releases in order; return the index of the first that updated the model (or None).

        The state afterwards reflects releases ``[0, index]`` only (all of them if None).
        """
        grams, vectors = self.increments(released)
        count = len(grams)
        cumulative_gram = self.gram + np.cumsum(grams, axis=0)
        cumulative_vector = self.vector + np.cumsum(vectors, axis=0)
        samples = self.samples + self.unit * np.arange(1, count + 1)
        regs = self.regularization(samples.astype(float))
        candidates = cumulative_gram + regs[:, None, None] * np.eye(self.d)
        if self.fixed_batch:
            triggered = np.ones(count, dtype=bool)
        else:
            signs, logdets = np.linalg.slogdet(candidates)
            triggered = (signs > 0) & (logdets >= self.logdet_last + math.log1p(self.eta))
        for index in np.flatnonzero(triggered):
            if self._update(candidates[index], cumulative_vector[index], float(samples[index]),
                            float(regs[index])):
                self.gram, self.vector = cumulative_gram[index], cumulative_vector[index]
                self.samples = int(samples[index])
                self.next_releases = max(8, 2 * (int(index) + 1))
                return int(index)
        self.gram, self.vector = cumulative_gram[-1], cumulative_vector[-1]
        self.samples = int(samples[-1])
        self.next_releases = 2 * count
        return None

    def _update(self, matrix: NDArray, vector: NDArray, samples: float, reg: float) -> bool:
        try:
            factor = np.linalg.cholesky(matrix)
        except np.linalg.LinAlgError:  # not positive definite (LDP noise beyond λ_j): no update
            return False
        inverse = np.linalg.inv(matrix)
        self.theta = inverse @ vector / self.scale
        self.inverse = (inverse + inverse.T) / 2
        self.beta = self.radius(max(samples, 1.0), reg)
        self.logdet_last = 2 * float(np.log(np.diag(factor)).sum())
        self.updates += 1
        return True

    def choose(self, contexts: NDArray) -> NDArray[np.int64]:
        """UCB arms of every round: ``argmax_a ⟨x, θ̃⟩ + β ‖x‖_{Ṽ^{-1}}`` (lowest index on ties)."""
        means = contexts @ self.theta
        widths = np.sqrt(np.maximum(np.einsum("nkd,nkd->nk", contexts @ self.inverse, contexts), 0))
        return np.argmax(means + (self.radius_scale * self.beta) * widths, axis=1)


class _Book:
    """Regret curves at checkpoints, booked round by round in vectorised pieces."""

    def __init__(self, checkpoints: NDArray[np.int64], n_arms: int) -> None:
        self.checkpoints = checkpoints
        self.pseudo_out = np.zeros(len(checkpoints))
        self.realised_out = np.zeros(len(checkpoints))
        self.pulls = np.zeros(n_arms, dtype=np.int64)
        self.t = 0
        self.pseudo = 0.0
        self.realised = 0.0
        self.cursor = 0

    def add(self, pseudo: NDArray, realised: NDArray, actions: NDArray) -> None:
        n = len(pseudo)
        if n == 0:
            return
        end = self.t + n
        stop = int(np.searchsorted(self.checkpoints, end, side="right"))
        if stop > self.cursor:
            cum_pseudo, cum_realised = np.cumsum(pseudo), np.cumsum(realised)
            offsets = self.checkpoints[self.cursor:stop] - self.t - 1
            self.pseudo_out[self.cursor:stop] = self.pseudo + cum_pseudo[offsets]
            self.realised_out[self.cursor:stop] = self.realised + cum_realised[offsets]
            self.cursor = stop
        self.pseudo += float(pseudo.sum())
        self.realised += float(realised.sum())
        self.pulls += np.bincount(actions, minlength=len(self.pulls))
        self.t = end


def _play(learner: Learner, environment: Any, rounds: int, rng: np.random.Generator
          ) -> tuple[NDArray, NDArray, NDArray, NDArray, NDArray]:
    """Play ``rounds`` rounds with the current model: (chosen contexts, rewards, pseudo, realised, arms)."""
    contexts = environment.contexts(rounds, rng=rng)
    actions = learner.choose(contexts)
    means = environment.mean_rewards(contexts)
    index = np.arange(rounds)
    chosen_means, best = means[index, actions], means.max(axis=1)
    uniforms = rng.random(rounds)
    rewards = (uniforms < chosen_means).astype(float)
    realised = (uniforms < best).astype(float) - rewards
    return contexts[index, actions], rewards, best - chosen_means, realised, actions


def run(learner: Learner, environment: Any, horizon: int, checkpoints: NDArray[np.int64],
        rng: np.random.Generator) -> tuple[NDArray, NDArray, NDArray]:
    """One run: (pseudo-regret at checkpoints, realised regret at checkpoints, pulls per arm index)."""
    book = _Book(checkpoints, environment.n_arms)
    unit = learner.unit
    while book.t < horizon:
        remaining = horizon - book.t
        if remaining < unit:  # the last, incomplete shuffler batch: played, never released
            for start in range(0, remaining, CHUNK):
                _, _, pseudo, realised, arms = _play(learner, environment,
                                                     min(CHUNK, remaining - start), rng)
                book.add(pseudo, realised, arms)
            break
        if unit >= CHUNK:  # one long release, played in pieces (nothing to discard)
            summed = 0
            for start in range(0, unit, CHUNK):
                chosen, rewards, pseudo, realised, arms = _play(
                    learner, environment, min(CHUNK, unit - start), rng)
                summed = summed + learner.user_stats(chosen, rewards, rng).sum(axis=0)
                book.add(pseudo, realised, arms)
            learner.absorb(learner.release(np.asarray(summed)[None], rng))
            continue
        releases = min(learner.releases_per_chunk(), remaining // unit)
        chosen, rewards, pseudo, realised, arms = _play(learner, environment, releases * unit, rng)
        stats = learner.user_stats(chosen, rewards, rng)
        summed = stats.reshape(releases, unit, -1).sum(axis=1) if unit > 1 else stats
        index = learner.absorb(learner.release(summed, rng))
        keep = releases * unit if index is None else (index + 1) * unit
        book.add(pseudo[:keep], realised[:keep], arms[:keep])
    book.pseudo_out[book.cursor:], book.realised_out[book.cursor:] = book.pseudo, book.realised
    return book.pseudo_out, book.realised_out, book.pulls
