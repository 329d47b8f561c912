"""PyTorch peer for ADBench BA: the residuals written with torch, the sparse Jacobian by autograd.

    python torch_ba.py [--input FILE] [--n N] [--samples S] [--compare JAC.bin]

The residuals are benchmarks/c/ba.c's, vectorised over observations, as functions of a p x 15
tensor of per-observation inputs (camera 11, point 3, weight).  Each residual depends on its own
row only, so the two reverse passes `autograd.grad(res[:, k].sum(), inputs)` (k = 0, 1) give
every 2 x 15 block at once; the weight residuals' derivatives take a third.  float64, one thread.
"""

from __future__ import annotations

import sys

from adbench_io import run, torch_f64
import numpy as np


def setup(b: dict):
    torch = torch_f64()
    Z0 = torch.from_numpy(np.concatenate([b["cams"][b["cam_idx"]], b["X"][b["pt_idx"]],
                                          b["w"][:, None]], axis=1))  # fmt: skip
    feats = torch.from_numpy(b["feats"])

    def residuals(Z):
        r, X, w = Z[:, :3], Z[:, 11:14], Z[:, 14]
        y = X - Z[:, 3:6]
        sq = (r * r).sum(1, keepdim=True)
        nz = sq != 0
        theta = torch.sqrt(torch.where(nz, sq, torch.ones_like(sq)))
        a = r / theta
        c, s = torch.cos(theta), torch.sin(theta)
        rot = y * c + torch.linalg.cross(a, y) * s + a * ((a * y).sum(1, keepdim=True) * (1 - c))
        rot = torch.where(nz, rot, y + torch.linalg.cross(r, y))
        q = rot[:, :2] / rot[:, 2:3]
        s2 = (q * q).sum(1, keepdim=True)
        proj = Z[:, 6:7] * (1 + Z[:, 9:10] * s2 + Z[:, 10:11] * s2 * s2) * q + Z[:, 7:9]
        return w[:, None] * (proj - feats), 1 - w * w

    def primal():
        with torch.no_grad():
            return residuals(Z0)

    def jacobian():
        Z = Z0.detach().requires_grad_()
        res, werr = residuals(Z)
        rows = [torch.autograd.grad(res[:, k].sum(), Z, retain_graph=True)[0] for k in range(2)]
        dw = torch.autograd.grad(werr.sum(), Z)[0][:, 14]
        return torch.cat([torch.stack(rows, 1).reshape(-1), dw]).numpy()

    return primal, jacobian


if __name__ == "__main__":
    sys.exit(run("ba", "torch", setup, __doc__.splitlines()[0]))
