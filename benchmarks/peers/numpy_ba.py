"""numpy peer for ADBench BA: the residuals and their sparse Jacobian written by hand.

    python numpy_ba.py [--input FILE] [--n N] [--samples S] [--compare JAC.bin]

The residuals are benchmarks/c/ba.c's, vectorised over observations.  With Y = X - C, the
rotated point Z = c Y + s (a x Y) + (1 - c)(a . Y) a (theta = |r|, a = r / theta, c = cos theta,
s = sin theta) and the projection proj = f L q + x0 (q = Z[:2] / Z[2], L = 1 + k1 |q|^2 + k2 |q|^4):

    dZ/dY = c I + s [a]x + (1 - c) a a^T
    dZ/dr = (-s Y + c (a x Y) + s (a . Y) a) a^T - s [Y]x P + (1 - c)((a . Y) P + a (P Y)^T),
            P = (I - a a^T) / theta                     (Z = Y + r x Y when theta = 0)
    d proj/dZ = f (L I + 2 (k1 + 2 k2 |q|^2) q q^T) dq/dZ
    residual w (proj - u): d/dw = proj - u, d/df = w L q, d/dx0 = w I,
    d/dk1 = w f |q|^2 q, d/dk2 = w f |q|^4 q, d/dX = w d proj/dZ dZ/dY = -d/dC.

The Jacobian is laid out as the C program dumps it: per observation a 2 x 15 block (camera 11,
point 3, weight), then the weight residuals' derivatives -2 w.
"""

from __future__ import annotations

import sys

from adbench_io import run
import numpy as np


def skew(v: np.ndarray) -> np.ndarray:
    """[v]x for each row of v (p x 3 -> p x 3 x 3): [v]x y = v x y."""
    z = np.zeros(len(v))
    return np.stack([np.stack([z, -v[:, 2], v[:, 1]], -1),
                     np.stack([v[:, 2], z, -v[:, 0]], -1),
                     np.stack([-v[:, 1], v[:, 0], z], -1)], -2)  # fmt: skip


def setup(b: dict):
    cam = b["cams"][b["cam_idx"]]
    X = b["X"][b["pt_idx"]]
    w, u = b["w"], b["feats"]
    p = b["p"]

    def rotate(r, Y):
        sq = (r * r).sum(1)
        nz = sq != 0
        theta = np.sqrt(np.where(nz, sq, 1.0))
        a = r / theta[:, None]
        c, s = np.cos(theta)[:, None], np.sin(theta)[:, None]
        axy = np.cross(a, Y)
        ay = (a * Y).sum(1)
        Z = Y * c + axy * s + a * (ay[:, None] * (1 - c))
        Z0 = Y + np.cross(r, Y)
        return np.where(nz[:, None], Z, Z0), (nz, theta, a, c, s, axy, ay)

    def project(cam, X):
        Z, aux = rotate(cam[:, :3], X - cam[:, 3:6])
        q = Z[:, :2] / Z[:, 2:3]
        s2 = (q * q).sum(1)
        L = 1 + cam[:, 9] * s2 + cam[:, 10] * s2 * s2
        proj = cam[:, 6:7] * L[:, None] * q + cam[:, 7:9]
        return proj, Z, q, s2, L, aux

    def primal():
        proj, *_ = project(cam, X)
        return w[:, None] * (proj - u), 1 - w * w

    def jacobian():
        proj, Z, q, s2, L, (nz, theta, a, c, s, axy, ay) = project(cam, X)
        Y = X - cam[:, 3:6]
        f, k1, k2 = cam[:, 6], cam[:, 9], cam[:, 10]
        eye = np.eye(3)
        # rotation
        dZdY = (c[:, :, None] * eye + s[:, :, None] * skew(a)
                + (1 - c)[:, :, None] * np.einsum("pi,pj->pij", a, a))  # fmt: skip
        P = (eye - np.einsum("pi,pj->pij", a, a)) / theta[:, None, None]
        PY = np.einsum("pij,pj->pi", P, Y)
        v = -s * Y + c * axy + (s[:, 0] * ay)[:, None] * a
        dZdr = (np.einsum("pi,pj->pij", v, a) - s[:, :, None] * np.einsum("pij,pjk->pik", skew(Y), P)
                + (1 - c)[:, :, None] * (ay[:, None, None] * P + np.einsum("pi,pj->pij", a, PY)))  # fmt: skip
        dZdY = np.where(nz[:, None, None], dZdY, eye + skew(cam[:, :3]))
        dZdr = np.where(nz[:, None, None], dZdr, -skew(Y))
        # projection
        z = Z[:, 2]
        dqdZ = np.zeros((p, 2, 3))
        dqdZ[:, 0, 0] = dqdZ[:, 1, 1] = 1 / z
        dqdZ[:, :, 2] = -q / z[:, None]
        dLq = L[:, None, None] * np.eye(2) + (2 * (k1 + 2 * k2 * s2))[:, None, None] * np.einsum("pi,pj->pij", q, q)
        dres_dZ = (w * f)[:, None, None] * np.einsum("pij,pjk->pik", dLq, dqdZ)
        dX = np.einsum("pij,pjk->pik", dres_dZ, dZdY)
        J = np.empty((p, 2, 15))
        J[:, :, 0:3] = np.einsum("pij,pjk->pik", dres_dZ, dZdr)
        J[:, :, 3:6] = -dX
        J[:, :, 6] = w[:, None] * L[:, None] * q
        J[:, :, 7:9] = w[:, None, None] * np.eye(2)
        J[:, :, 9] = (w * f * s2)[:, None] * q
        J[:, :, 10] = (w * f * s2 * s2)[:, None] * q
        J[:, :, 11:14] = dX
        J[:, :, 14] = proj - u
        return np.concatenate([J.ravel(), -2 * w])

    return primal, jacobian


if __name__ == "__main__":
    sys.exit(run("ba", "numpy", setup, __doc__.splitlines()[0]))
