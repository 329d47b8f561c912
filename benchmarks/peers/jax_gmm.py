"""JAX peer for ADBench GMM: `jax.jit(jax.grad(f))` of the objective written with jax.numpy.

    python jax_gmm.py [--input FILE] [--n N] [--samples S] [--compare GRAD.bin]

The objective is benchmarks/c/gmm.c's, vectorised over points and components, in float64 on
one CPU thread.  The first calls (tracing and XLA compilation) are reported as the compile time;
timed calls block until the result is ready.
"""

from __future__ import annotations

import sys

from adbench_io import gmm_constant, gmm_unpack_icf, jax_x64, run
import numpy as np


def setup(g: dict):
    jax = jax_x64()
    import jax.numpy as jnp

    d, k, n = g["d"], g["k"], g["n"]
    gamma, m = g["gamma"], g["m"]
    _, _, (rows, cols) = gmm_unpack_icf(d, g["icf"])
    const = gmm_constant(d, k, n, gamma, m)
    x = jnp.asarray(g["x"])
    diag = np.arange(d)

    def lse(v, axis=None):
        mx = jnp.max(v, axis=axis, keepdims=True)
        return jnp.log(jnp.sum(jnp.exp(v - mx), axis=axis, keepdims=True)) + mx

    def f(alphas, means, icf):
        q, l = icf[:, :d], icf[:, d:]
        Q = jnp.zeros((k, d, d)).at[:, diag, diag].set(jnp.exp(q)).at[:, rows, cols].set(l)
        xc = x[:, None, :] - means[None, :, :]
        y = jnp.einsum("kij,nkj->nki", Q, xc)
        beta = alphas + q.sum(1) - 0.5 * jnp.sum(y * y, axis=2)
        prior = 0.5 * gamma**2 * (jnp.sum(jnp.exp(2 * q)) + jnp.sum(l * l)) - m * jnp.sum(q)
        return const + jnp.sum(lse(beta, 1)) - n * lse(alphas)[0] + prior

    params = tuple(jnp.asarray(g[name]) for name in ("alphas", "means", "icf"))
    primal_fn = jax.jit(f)
    grad_fn = jax.jit(jax.grad(f, argnums=(0, 1, 2)))

    def primal():
        return primal_fn(*params).block_until_ready()

    def gradient():
        return jnp.concatenate([t.ravel() for t in grad_fn(*params)]).block_until_ready()

    return primal, gradient


if __name__ == "__main__":
    sys.exit(run("gmm", "jax", setup, __doc__.splitlines()[0], jit=True))
