"""PyTorch peer for ADBench LSTM: the loss written with torch, its gradient by autograd.

    python torch_lstm.py [--input FILE] [--n N] [--samples S] [--compare GRAD.bin]

The loss is benchmarks/c/lstm.c's: a Python loop over steps and layers on tensors of b = 14
units (eager mode, as a user writes it), float64 on one thread; the gradient is one
`backward()` of the loss.
"""

from __future__ import annotations

import sys

from adbench_io import run, torch_f64
import numpy as np


def setup(m: dict):
    torch = torch_f64()
    l, c, b = m["l"], m["c"], m["b"]
    state0 = torch.from_numpy(m["state"])
    seq = torch.from_numpy(m["seq"])
    main = torch.from_numpy(np.array(m["main"])).requires_grad_()
    extra = torch.from_numpy(np.array(m["extra"])).requires_grad_()

    def loss():
        W = main.reshape(2 * l, 4, b)
        in_w, out_w, out_b = extra[0], extra[1], extra[2]
        h = [state0[2 * k] for k in range(l)]
        cell = [state0[2 * k + 1] for k in range(l)]
        total = 0
        for t in range(c - 1):
            x = seq[t] * in_w
            for k in range(l):
                Wk, Bk = W[2 * k], W[2 * k + 1]
                f = torch.sigmoid(x * Wk[0] + Bk[0])
                i = torch.sigmoid(h[k] * Wk[1] + Bk[1])
                o = torch.sigmoid(x * Wk[2] + Bk[2])
                g = torch.tanh(h[k] * Wk[3] + Bk[3])
                cell[k] = cell[k] * f + i * g
                h[k] = o * torch.tanh(cell[k])
                x = h[k]
            y = x * out_w + out_b
            total = total + torch.dot(seq[t + 1], y - torch.log(2 + torch.exp(y).sum()))
        return -total / (b * (c - 1))

    def primal():
        with torch.no_grad():
            return loss().item()

    def gradient():
        main.grad = extra.grad = None
        loss().backward()
        return torch.cat([main.grad.reshape(-1), extra.grad.reshape(-1)]).numpy()

    return primal, gradient


if __name__ == "__main__":
    sys.exit(run("lstm", "torch", setup, __doc__.splitlines()[0]))
