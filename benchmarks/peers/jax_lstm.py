"""JAX peer for ADBench LSTM: `jax.jit(jax.grad(loss))`, the steps as a `lax.scan`.

    python jax_lstm.py [--input FILE] [--n N] [--samples S] [--compare GRAD.bin]

The loss is benchmarks/c/lstm.c's, written with jax.numpy: `lax.scan` over the c - 1 steps, the
layers unrolled inside the step.  float64 on one CPU thread; the first calls (tracing and
compilation) are reported as the compile time.
"""

from __future__ import annotations

import sys

from adbench_io import jax_x64, run


def setup(m: dict):
    jax = jax_x64()
    import jax.numpy as jnp

    l, c, b = m["l"], m["c"], m["b"]
    state0, seq = jnp.asarray(m["state"]), jnp.asarray(m["seq"])

    def loss(main, extra):
        W = main.reshape(2 * l, 4, b)
        in_w, out_w, out_b = extra[0], extra[1], extra[2]

        def step(carry, xs):
            h, cell = carry
            x_t, nxt = xs
            x = x_t * in_w
            hs, cs = [], []
            for k in range(l):
                Wk, Bk = W[2 * k], W[2 * k + 1]
                f = jax.nn.sigmoid(x * Wk[0] + Bk[0])
                i = jax.nn.sigmoid(h[k] * Wk[1] + Bk[1])
                o = jax.nn.sigmoid(x * Wk[2] + Bk[2])
                g = jnp.tanh(h[k] * Wk[3] + Bk[3])
                cn = cell[k] * f + i * g
                hn = o * jnp.tanh(cn)
                hs.append(hn)
                cs.append(cn)
                x = hn
            y = x * out_w + out_b
            return (jnp.stack(hs), jnp.stack(cs)), jnp.dot(nxt, y - jnp.log(2 + jnp.sum(jnp.exp(y))))

        init = (state0[0::2], state0[1::2])
        _, terms = jax.lax.scan(step, init, (seq[:-1], seq[1:]))
        return -jnp.sum(terms) / (b * (c - 1))

    main, extra = jnp.asarray(m["main"]), jnp.asarray(m["extra"])
    primal_fn = jax.jit(loss)
    grad_fn = jax.jit(jax.grad(loss, argnums=(0, 1)))

    def primal():
        return primal_fn(main, extra).block_until_ready()

    def gradient():
        gm, ge = grad_fn(main, extra)
        return jnp.concatenate([gm.ravel(), ge.ravel()]).block_until_ready()

    return primal, gradient


if __name__ == "__main__":
    sys.exit(run("lstm", "jax", setup, __doc__.splitlines()[0], jit=True))
