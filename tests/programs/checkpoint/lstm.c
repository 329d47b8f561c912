/* An LSTM cell run over a long input sequence (tests/test_checkpointing.py): the hidden and
 * cell states h, c are carried from step to step (stack arrays that the optimiser keeps in
 * registers), the gates are a sigmoid or tanh of an affine map of the input and h, the weights
 * and inputs are only read, and the loss is taken after the last step.  REAL is double, or float
 * with -DSINGLE (expf and tanhf then).
 *
 * w holds, per gate g in (input, forget, output, candidate) and unit j, the weights of the D
 * inputs, then of the H hidden units, then a bias: (D + H + 1) numbers at w[(g H + j)(D + H + 1)];
 * then H output weights and H initial states h0 (the cell starts at 0). */
#include <math.h>

#ifdef SINGLE
#define REAL float
#define EXP expf
#define TANH tanhf
#else
#define REAL double
#define EXP exp
#define TANH tanh
#endif
#define D 2
#define H 2
#define ROW (D + H + 1)
#define NW (4 * H * ROW + 2 * H)

static REAL sigmoid(REAL z) { return 1 / (1 + EXP(-z)); }

REAL lstm(const REAL *w, const REAL *x, int nsteps) {
  REAL h[H], c[H], z[4 * H];
  for (int j = 0; j < H; j++) {
    h[j] = w[4 * H * ROW + H + j];
    c[j] = 0;
  }
  for (int t = 0; t < nsteps; t++) {
    const REAL *xt = x + D * t;
    for (int r = 0; r < 4 * H; r++) {
      const REAL *wr = w + r * ROW;
      REAL s = wr[D + H];
      for (int i = 0; i < D; i++) s += wr[i] * xt[i];
      for (int i = 0; i < H; i++) s += wr[D + i] * h[i];
      z[r] = s;
    }
    for (int j = 0; j < H; j++) {
      REAL in = sigmoid(z[j]), forget = sigmoid(z[H + j]), out = sigmoid(z[2 * H + j]);
      c[j] = forget * c[j] + in * TANH(z[3 * H + j]);
      h[j] = out * TANH(c[j]);
    }
  }
  REAL y = 0, l = 0;
  for (int j = 0; j < H; j++) y += w[4 * H * ROW + j] * h[j];
  for (int j = 0; j < H; j++) l += c[j] * c[j];
  return (y - 0.5) * (y - 0.5) + 0.1 * l;
}
