"""PyTorch peer for ADBench GMM: the objective written with torch, its gradient by autograd.

    python torch_gmm.py [--input FILE] [--n N] [--samples S] [--compare GRAD.bin]

The objective is benchmarks/c/gmm.c's, vectorised over points and components, in float64 on
one thread (`torch.set_num_threads(1)`); the gradient is one `backward()` of the objective.
"""

from __future__ import annotations

import sys

from adbench_io import gmm_constant, gmm_unpack_icf, run, torch_f64
import numpy as np


def setup(g: dict):
    torch = torch_f64()
    d, k, n = g["d"], g["k"], g["n"]
    gamma, m = g["gamma"], g["m"]
    _, _, (rows, cols) = gmm_unpack_icf(d, g["icf"])
    rows, cols = torch.from_numpy(rows), torch.from_numpy(cols)
    diag = torch.arange(d)
    const = gmm_constant(d, k, n, gamma, m)
    x = torch.from_numpy(g["x"])

    def lse(v, dim):
        mx = v.max(dim=dim, keepdim=True).values
        return torch.log(torch.exp(v - mx).sum(dim=dim, keepdim=True)) + mx

    def f(alphas, means, icf):
        q, l = icf[:, :d], icf[:, d:]
        Q = torch.zeros(k, d, d)
        Q[:, diag, diag] = torch.exp(q)
        Q[:, rows, cols] = l
        xc = x[:, None, :] - means[None, :, :]
        y = torch.einsum("kij,nkj->nki", Q, xc)
        beta = alphas + q.sum(1) - 0.5 * (y * y).sum(2)
        prior = 0.5 * gamma**2 * (torch.exp(2 * q).sum() + (l * l).sum()) - m * q.sum()
        return const + lse(beta, 1).sum() - n * lse(alphas, 0)[0] + prior

    params = [torch.from_numpy(np.array(g[name])).requires_grad_() for name in ("alphas", "means", "icf")]

    def primal():
        with torch.no_grad():
            return f(*params).item()

    def gradient():
        for p in params:
            p.grad = None
        f(*params).backward()
        return torch.cat([p.grad.reshape(-1) for p in params]).numpy()

    return primal, gradient


if __name__ == "__main__":
    sys.exit(run("gmm", "torch", setup, __doc__.splitlines()[0]))
