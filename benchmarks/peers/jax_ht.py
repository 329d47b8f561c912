"""JAX peer for ADBench hand tracking: the residuals and their Jacobian by `jax.jacfwd`.

    python jax_ht.py --variant simple|complicated [--n N] [--samples S] [--compare JAC.bin]

The objective is benchmarks/c/ht.h's, written again with jax.numpy from the same definition, in
float64 (`jax_enable_x64`), on the same data: the instance file named by $XENZYME_BENCH_INPUT,
else the variant's default instance in benchmarks/data/hand/, its first N correspondences
(cycled when N is larger).  The simple variant's Jacobian is jacfwd of the residuals with respect
to the 26 pose parameters (3N x 26).  The complicated variant's is jacfwd with respect to two
shifts (s1, s2) added to every correspondence's barycentric coordinates and the pose, which
gives ADBench's compressed 3N x 28 Jacobian (u columns first), as the C program computes it.

With --compare, xenzyme's Jacobian (raw row-major float64, as the C program dumps it) is
checked against JAX's to 1e-9 relative in the 2-norm before anything is timed.  The residuals
("primal") and the Jacobian ("gradient") are `jax.jit`-compiled; the compile time is reported
as its own record, and every timed call blocks until its result is ready.

Single-threaded: besides peerlib's thread-pool settings, the process is bound to one CPU before
JAX loads (XLA sizes its thread pools by the CPUs it may run on) and Eigen's multi-threading is
off.  Bound this way, dispatch and computation share one core, as the C programs do.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import peerlib  # noqa: F401  (single-threaded thread pools, before numpy loads)

if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
os.environ["XLA_FLAGS"] = " ".join(
    f for f in (os.environ.get("XLA_FLAGS", ""), "--xla_cpu_multi_thread_eigen=false") if f
)
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
from peerlib import check, emit, time_calls  # noqa: E402

BONES, THETA = 22, 26
INSTANCE = "hand6_t26_c1600.txt"
DATA = Path(__file__).resolve().parent.parent / "data" / "hand"


def instance_path(variant: str) -> Path:
    env = os.environ.get("XENZYME_BENCH_INPUT")
    return Path(env) if env else DATA / f"{variant}_small" / INSTANCE


def model_dir(instance: Path) -> Path:
    """`model` beside the instance, or beside its folder (as benchmarks/c/ht.h looks)."""
    here = instance.parent / "model"
    return here if here.is_dir() else instance.parent.parent / "model"


def _lines(path: Path) -> list[list[str]]:
    return [line.split(":") for line in path.read_text().splitlines() if line.strip()]


def read(variant: str, n: int) -> dict:
    """The model and an instance of n correspondences, as numpy arrays."""
    inst = instance_path(variant)
    model = model_dir(inst)
    bones = _lines(model / "bones.txt")
    if len(bones) != BONES:
        raise SystemExit(f"{model / 'bones.txt'}: expected {BONES} bones")
    parents = [int(f[1]) for f in bones]
    rel = np.array([[float(x) for x in f[2:18]] for f in bones]).reshape(BONES, 4, 4)
    inv = np.array([[float(x) for x in f[18:34]] for f in bones]).reshape(BONES, 4, 4)
    verts = _lines(model / "vertices.txt")
    pos = np.array([[float(x) for x in f[:3]] for f in verts])
    weights = np.zeros((len(verts), BONES))
    for v, f in enumerate(verts):
        for j in range(int(f[8])):
            weights[v, int(f[9 + 2 * j])] += float(f[10 + 2 * j])
    tris = np.array([[int(x) for x in f] for f in _lines(model / "triangles.txt")])

    tokens = inst.read_text().split()
    nc, nt = int(tokens[0]), int(tokens[1])
    if nt != THETA:
        raise SystemExit(f"{inst}: expected {THETA} pose parameters")
    body = np.array(tokens[2 : 2 + 4 * nc], dtype=float).reshape(nc, 4)
    corr, pts = body[:, 0].astype(int), body[:, 1:]
    rest = tokens[2 + 4 * nc :]
    complicated = variant == "complicated"
    if complicated:
        us = np.array(rest[: 2 * nc], dtype=float).reshape(nc, 2)
        rest = rest[2 * nc :]
    else:
        us = np.zeros((nc, 2))
    theta = np.array(rest[:THETA], dtype=float)
    idx = np.arange(n) % nc
    return {"parents": parents, "rel": rel, "inv": inv, "pos": pos, "weights": weights,
            "tris": tris, "corr": corr[idx], "points": pts[idx], "us": us[idx], "theta": theta}  # fmt: skip


def make_objective(d: dict, complicated: bool):
    """residuals(theta) (simple) or residuals(theta, shift) (complicated), in jax.numpy."""
    import jax.numpy as jnp

    parents = d["parents"]
    rel0, inv = jnp.asarray(d["rel"]), jnp.asarray(d["inv"])
    pos_h = jnp.concatenate([jnp.asarray(d["pos"]), jnp.ones((len(d["pos"]), 1))], axis=1)  # M x 4
    weights = jnp.asarray(d["weights"])  # M x 22
    points = jnp.asarray(d["points"])
    corr = jnp.asarray(d["corr"])
    # angles[bone, slot] = theta[src]: slot 0 is the x angle, slot 1 the z angle
    bone_idx, slot_idx, src = [], [], []
    t = 6
    for f in range(5):
        b = 2 + 4 * f
        for bone, slot in ((b, 0), (b, 1), (b + 1, 0), (b + 2, 0)):
            bone_idx.append(bone)
            slot_idx.append(slot)
            src.append(t)
            t += 1
    bone_idx, slot_idx, src = jnp.array(bone_idx), jnp.array(slot_idx), jnp.array(src)

    def euler(a):  # a: 22 x 3 angles (x, z, y) -> 22 x 4 x 4, rotation Rz Ry Rx
        cx, sx = jnp.cos(a[:, 0]), jnp.sin(a[:, 0])
        cz, sz = jnp.cos(a[:, 1]), jnp.sin(a[:, 1])
        cy, sy = jnp.cos(a[:, 2]), jnp.sin(a[:, 2])
        z, o = jnp.zeros_like(cx), jnp.ones_like(cx)
        return jnp.stack([
            jnp.stack([cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx, z], -1),
            jnp.stack([sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx, z], -1),
            jnp.stack([-sy, cy * sx, cy * cx, z], -1),
            jnp.stack([z, z, z, o], -1),
        ], -2)  # fmt: skip

    def angle_axis(aa):
        angle = jnp.sqrt(jnp.sum(aa * aa))
        small = angle < 1e-4
        safe = jnp.where(small, 1.0, angle)
        x, y, z = aa[0] / safe, aa[1] / safe, aa[2] / safe
        s, c = jnp.sin(safe), jnp.cos(safe)
        r = jnp.array([
            [x * x + (1 - x * x) * c, x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
            [x * y * (1 - c) + z * s, y * y + (1 - y * y) * c, y * z * (1 - c) - x * s],
            [x * z * (1 - c) - y * s, y * z * (1 - c) + x * s, z * z + (1 - z * z) * c],
        ])  # fmt: skip
        return jnp.where(small, jnp.eye(3), r)

    def skin(theta):
        angles = jnp.zeros((BONES, 3)).at[bone_idx, slot_idx].set(theta[src])
        relatives = rel0 @ euler(angles)
        absolutes = []
        for b in range(BONES):
            p = parents[b]
            absolutes.append(relatives[b] if p < 0 else absolutes[p] @ relatives[b])
        transforms = jnp.stack(absolutes) @ inv  # 22 x 4 x 4
        per_bone = jnp.einsum("bij,mj->bmi", transforms[:, :3, :], pos_h)  # 22 x M x 3
        v = jnp.einsum("mb,bmi->mi", weights, per_bone)  # M x 3
        return v @ angle_axis(theta[:3]).T + theta[3:6]

    if not complicated:

        def residuals(theta):
            return (points - skin(theta)[corr]).reshape(-1)

        return residuals

    us = jnp.asarray(d["us"])
    tri = jnp.asarray(d["tris"])[corr]  # N x 3

    def residuals_c(theta, shift):
        v = skin(theta)
        u = us + shift  # the same shift for every correspondence
        u3 = 1 - u[:, 0] - u[:, 1]
        hp = u[:, :1] * v[tri[:, 0]] + u[:, 1:2] * v[tri[:, 1]] + u3[:, None] * v[tri[:, 2]]
        return (points - hp).reshape(-1)

    return residuals_c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", choices=("simple", "complicated"), required=True)
    ap.add_argument("--n", type=int, default=1600)
    ap.add_argument("--samples", type=int, default=7)
    ap.add_argument("--compare", help="raw float64 Jacobian to check against (xenzyme's)")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("--n must be at least 1")

    try:
        import jax
    except ImportError:
        print("jax_ht.py: JAX is not installed; `make bench` installs it (the `bench` extra: "
              "pip install -e '.[bench]')", file=sys.stderr)  # fmt: skip
        return 1

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    bench, tool = f"ht_{args.variant}", "jax"
    complicated = args.variant == "complicated"
    d = read(args.variant, args.n)
    f = make_objective(d, complicated)
    theta = jnp.asarray(d["theta"])
    t0 = time.perf_counter()
    if complicated:
        shift0 = jnp.zeros(2)
        primal = jax.jit(lambda th: f(th, shift0))
        jac_fn = jax.jit(jax.jacfwd(lambda x: f(x[2:], x[:2])))  # columns: u1, u2, then the pose
        x = jnp.concatenate([shift0, theta])
    else:
        primal = jax.jit(f)
        jac_fn = jax.jit(jax.jacfwd(f))
        x = theta
    jac = np.asarray(jac_fn(x).block_until_ready())
    primal(theta).block_until_ready()
    emit({"bench": bench, "kind": "compile", "tool": tool, "n": args.n,
          "seconds": time.perf_counter() - t0})  # fmt: skip
    if args.compare:
        other = np.fromfile(args.compare, dtype=np.float64)
        if other.size != jac.size:
            print(f"{args.compare}: {other.size} values, expected {jac.size} "
                  f"({jac.shape[0]} x {jac.shape[1]})", file=sys.stderr)  # fmt: skip
            return 1
        err = float(np.linalg.norm(other - jac.reshape(-1)) / np.linalg.norm(jac))
        if not check(bench, tool, args.n, err, 1e-9, "xenzyme Jacobian"):
            return 1
    if args.samples > 0:
        fns = [("primal", lambda: primal(theta).block_until_ready()),
               ("gradient", lambda: jac_fn(x).block_until_ready())]  # fmt: skip
        time_calls(bench, tool, args.n, args.samples, fns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
