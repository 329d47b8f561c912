"""numpy peer for ADBench LSTM: the loss and its gradient by hand-written backpropagation
through time.

    python numpy_lstm.py [--input FILE] [--n N] [--samples S] [--compare GRAD.bin]

The loss is benchmarks/c/lstm.c's.  The forward pass keeps every gate of every layer and step;
the backward pass runs the steps in reverse, carrying the adjoints of each layer's hidden vector
and cell to the step before.  Every operation is elementwise (b = 14 units), so the work is a
Python loop over steps and layers on short vectors.  The gradient is laid out as the C program
dumps it: main params (2l x 4b), then extra params (3 x b).
"""

from __future__ import annotations

import sys

from adbench_io import run
import numpy as np


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def setup(m: dict):
    l, c, b = m["l"], m["c"], m["b"]
    main, extra, state0, seq = m["main"], m["extra"], m["state"], m["seq"]
    W = [main[2 * k].reshape(4, b) for k in range(l)]  # forget, input, output, change
    B = [main[2 * k + 1].reshape(4, b) for k in range(l)]
    in_w, out_w, out_b = extra
    scale = -1.0 / (b * (c - 1))

    def forward(keep: bool):
        h = [state0[2 * k].copy() for k in range(l)]
        cell = [state0[2 * k + 1].copy() for k in range(l)]
        tape, total = [], 0.0
        for t in range(c - 1):
            x = seq[t] * in_w
            steps = []
            for k in range(l):
                f = sigmoid(x * W[k][0] + B[k][0])
                i = sigmoid(h[k] * W[k][1] + B[k][1])
                o = sigmoid(x * W[k][2] + B[k][2])
                g = np.tanh(h[k] * W[k][3] + B[k][3])
                c_new = cell[k] * f + i * g
                tc = np.tanh(c_new)
                if keep:
                    steps.append((x, h[k], cell[k], f, i, o, g, tc))
                cell[k] = c_new
                h[k] = o * tc
                x = h[k]
            y = x * out_w + out_b
            e = np.exp(y)
            se = e.sum()
            total += seq[t + 1] @ (y - np.log(2 + se))
            if keep:
                tape.append((steps, x, e, se))
        return scale * total, tape

    def primal():
        return forward(False)[0]

    def gradient():
        _, tape = forward(True)
        dW = [np.zeros((4, b)) for _ in range(l)]
        dB = [np.zeros((4, b)) for _ in range(l)]
        d_in_w, d_out_w, d_out_b = np.zeros(b), np.zeros(b), np.zeros(b)
        dh_next = [np.zeros(b) for _ in range(l)]
        dc_next = [np.zeros(b) for _ in range(l)]
        for t in range(c - 2, -1, -1):
            steps, h_top, e, se = tape[t]
            nxt = seq[t + 1]
            dy = scale * (nxt - nxt.sum() * e / (2 + se))
            d_out_w += dy * h_top
            d_out_b += dy
            dh = dy * out_w
            for k in range(l - 1, -1, -1):
                x, h_prev, c_prev, f, i, o, g, tc = steps[k]
                dh = dh + dh_next[k]
                do = dh * tc
                dc = dc_next[k] + dh * o * (1 - tc * tc)
                dzf = dc * c_prev * f * (1 - f)
                dzi = dc * g * i * (1 - i)
                dzo = do * o * (1 - o)
                dzg = dc * i * (1 - g * g)
                dW[k][0] += dzf * x
                dW[k][1] += dzi * h_prev
                dW[k][2] += dzo * x
                dW[k][3] += dzg * h_prev
                dB[k][0] += dzf
                dB[k][1] += dzi
                dB[k][2] += dzo
                dB[k][3] += dzg
                dc_next[k] = dc * f
                dh_next[k] = dzi * W[k][1] + dzg * W[k][3]
                dh = dzf * W[k][0] + dzo * W[k][2]  # the adjoint of this layer's input
            d_in_w += dh * seq[t]
        rows = []
        for k in range(l):
            rows += [dW[k].ravel(), dB[k].ravel()]
        return np.concatenate(rows + [d_in_w, d_out_w, d_out_b])

    return primal, gradient


if __name__ == "__main__":
    sys.exit(run("lstm", "numpy", setup, __doc__.splitlines()[0]))
