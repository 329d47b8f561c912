"""JAX peer for ADBench BA: the Jacobian as `jax.vmap(jax.jacrev(residual))` over observations.

    python jax_ba.py [--input FILE] [--n N] [--samples S] [--compare JAC.bin]

One observation's reprojection residual (benchmarks/c/ba.c's, written with jax.numpy) is a
function of its 15 inputs (camera 11, point 3, weight); `jacrev` gives its 2 x 15 block by two
reverse passes and `vmap` runs it over all observations; the weight residuals' derivatives are
`vmap(grad(lambda w: 1 - w * w))`.  float64 on one CPU thread; the first calls (tracing and
compilation) are reported as the compile time.
"""

from __future__ import annotations

import sys

from adbench_io import jax_x64, run


def setup(b: dict):
    jax = jax_x64()
    import jax.numpy as jnp

    def rotate(r, y):
        sq = jnp.sum(r * r)
        nz = sq != 0
        theta = jnp.sqrt(jnp.where(nz, sq, 1.0))
        a = r / theta
        c, s = jnp.cos(theta), jnp.sin(theta)
        z = y * c + jnp.cross(a, y) * s + a * (jnp.dot(a, y) * (1 - c))
        return jnp.where(nz, z, y + jnp.cross(r, y))

    def residual(z15, feat):
        cam, X, w = z15[:11], z15[11:14], z15[14]
        Z = rotate(cam[:3], X - cam[3:6])
        q = Z[:2] / Z[2]
        s = jnp.dot(q, q)
        proj = cam[6] * (1 + cam[9] * s + cam[10] * s * s) * q + cam[7:9]
        return w * (proj - feat)

    def weight_residual(w):
        return 1 - w * w

    Z = jnp.concatenate([jnp.asarray(b["cams"][b["cam_idx"]]), jnp.asarray(b["X"][b["pt_idx"]]),
                         jnp.asarray(b["w"])[:, None]], axis=1)  # fmt: skip
    feats, w = jnp.asarray(b["feats"]), jnp.asarray(b["w"])
    primal_fn = jax.jit(lambda Z, f, w: (jax.vmap(residual)(Z, f), jax.vmap(weight_residual)(w)))
    jac_fn = jax.jit(lambda Z, f, w: jnp.concatenate([
        jax.vmap(jax.jacrev(residual))(Z, f).ravel(), jax.vmap(jax.grad(weight_residual))(w)]))  # fmt: skip

    def primal():
        return jax.block_until_ready(primal_fn(Z, feats, w))

    def jacobian():
        return jac_fn(Z, feats, w).block_until_ready()

    return primal, jacobian


if __name__ == "__main__":
    sys.exit(run("ba", "jax", setup, __doc__.splitlines()[0], jit=True))
