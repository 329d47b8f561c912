"""numpy peer for ADBench GMM: the objective and its gradient written by hand.

    python numpy_gmm.py [--input FILE] [--n N] [--samples S] [--compare GRAD.bin]

The objective is benchmarks/c/gmm.c's, vectorised over points and components.  With
responsibilities r_ik = softmax_k(beta_ik), beta_ik = alpha_k + sum_j q_kj - |y_ik|^2 / 2 and
y_ik = Q_k (x_i - mu_k):

    d/d alpha_k = sum_i r_ik - n softmax(alpha)_k
    d/d mu_k    = sum_i r_ik Q_k^T y_ik
    d/d q_kj    = sum_i r_ik (1 - y_ikj exp(q_kj) (x_i - mu_k)_j) + gamma^2 exp(2 q_kj) - m
    d/d L_k[a,b] = -sum_i r_ik y_ika (x_i - mu_k)_b + gamma^2 L_k[a,b]      (a > b)

The gradient is laid out as the C program dumps it: alpha, mu, then icf row by row.
"""

from __future__ import annotations

import sys

from adbench_io import gmm_constant, gmm_unpack_icf, run
import numpy as np


def setup(g: dict):
    d, k, n = g["d"], g["k"], g["n"]
    alphas, means, icf, x = g["alphas"], g["means"], g["icf"], g["x"]
    gamma, m = g["gamma"], g["m"]
    q, l, (rows, cols) = gmm_unpack_icf(d, icf)
    const = gmm_constant(d, k, n, gamma, m)
    diag = np.arange(d)

    def forward():
        qdiag = np.exp(q)
        Q = np.zeros((k, d, d))
        Q[:, diag, diag] = qdiag
        Q[:, rows, cols] = l
        xc = x[:, None, :] - means[None, :, :]  # n x K x d
        y = np.einsum("kij,nkj->nki", Q, xc)
        beta = alphas + q.sum(1) - 0.5 * np.einsum("nki,nki->nk", y, y)
        return qdiag, Q, xc, y, beta

    def lse(v, axis=None):
        mx = v.max(axis=axis, keepdims=True)
        return np.log(np.exp(v - mx).sum(axis=axis, keepdims=True)) + mx

    def primal():
        qdiag, _, _, _, beta = forward()
        prior = 0.5 * gamma**2 * ((qdiag**2).sum() + (l**2).sum()) - m * q.sum()
        return const + lse(beta, 1).sum() - n * lse(alphas)[0] + prior

    def gradient():
        qdiag, Q, xc, y, beta = forward()
        r = np.exp(beta - lse(beta, 1))  # n x K responsibilities
        sa = np.exp(alphas - lse(alphas))
        d_alpha = r.sum(0) - n * sa
        d_mu = np.einsum("kji,nkj->ki", Q, y * r[:, :, None])
        G = np.einsum("nka,nkb->kab", y * r[:, :, None], xc)  # sum_i r y_a xc_b
        d_q = r.sum(0)[:, None] - qdiag * G[:, diag, diag] + gamma**2 * qdiag**2 - m
        d_l = -G[:, rows, cols] + gamma**2 * l
        return np.concatenate([d_alpha, d_mu.ravel(), np.concatenate([d_q, d_l], 1).ravel()])

    return primal, gradient


if __name__ == "__main__":
    sys.exit(run("gmm", "numpy", setup, __doc__.splitlines()[0]))
