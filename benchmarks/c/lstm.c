/* ADBench LSTM: the loss of an l-layer LSTM predicting a sequence of c 14-bit characters, and
 * its full gradient by one reverse pass (__enzyme_autodiff).
 *
 * Parameters (BENCHMARKS.md), b = 14: main params 2l x 4b -- per layer a row of weights and a
 * row of biases, each split into the forget, input, output and change gates (b each); extra
 * params 3 x b -- input weights, output weights, output biases; state 2l x b -- per layer the
 * hidden vector and the cell (copied, not differentiated).  Per step t, with x = seq_t o in_w:
 *
 *   per layer:  f = sigma(x o W_f + b_f)   i = sigma(h o W_i + b_i)
 *               o = sigma(x o W_o + b_o)   g = tanh(h o W_g + b_g)
 *               cell = cell o f + i o g;   h = o o tanh(cell);   x = h
 *   output:     y = h o out_w + out_b
 *
 *   loss = -1 / (b (c - 1)) sum_{t < c-1} sum_i seq_{t+1,i} (y_i - log(2 + sum_j exp y_j))
 *
 * The gradient is taken with respect to the main and the extra params: 8lb + 3b values (the DUMP
 * file's layout: main, then extra).  N is the sequence length c: the instance's first N
 * characters, cycled when N is larger.  Before timing, the program checks the gradient against
 * central differences along three random directions (1e-5 relative, 2-norm);
 * XENZYME_BENCH_MODE=fd makes it the finite-difference peer (adbench.h).
 */
#include "adbench.h"

extern double __enzyme_autodiff(void *, ...);

#define LSTM_DEFAULT_INPUT "lstm/lstm_l2_c1024.txt"

/* ---- the objective ------------------------------------------------------------------------ */

static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* log(2 + sum exp v): ADBench's normaliser, not max-stabilised. */
static double lse2(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(v[i]);
  return log(s + 2);
}

/* One LSTM cell, updating hidden and cell in place. */
static void lstm_cell(int b, const double *weight, const double *bias, double *hidden,
                      double *cell, const double *input) {
  for (int i = 0; i < b; i++) {
    double forget = sigmoid(input[i] * weight[i] + bias[i]);
    double ingate = sigmoid(hidden[i] * weight[b + i] + bias[b + i]);
    double outgate = sigmoid(input[i] * weight[2 * b + i] + bias[2 * b + i]);
    double change = tanh(hidden[i] * weight[3 * b + i] + bias[3 * b + i]);
    cell[i] = cell[i] * forget + ingate * change;
    hidden[i] = outgate * tanh(cell[i]);
  }
}

/* One step through every layer: y = prediction for the character after x. */
static void lstm_predict(int l, int b, const double *main_params, const double *extra_params,
                         double *state, const double *x, double *y) {
  for (int i = 0; i < b; i++) y[i] = x[i] * extra_params[i];
  const double *input = y;
  for (int layer = 0; layer < l; layer++) {
    double *hidden = state + 2 * layer * b, *cell = hidden + b;
    lstm_cell(b, main_params + 8 * layer * b, main_params + (8 * layer + 4) * b, hidden, cell,
              input);
    input = hidden;
  }
  for (int i = 0; i < b; i++) y[i] = input[i] * extra_params[b + i] + extra_params[2 * b + i];
}

double lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                      const double *state, const double *sequence) {
  double *s = malloc(sizeof(double) * 2 * l * b);
  double *y = malloc(sizeof(double) * b);
  memcpy(s, state, sizeof(double) * 2 * l * b);
  double total = 0;
  for (int t = 0; t < c - 1; t++) {
    lstm_predict(l, b, main_params, extra_params, s, sequence + t * b, y);
    double norm = lse2(y, b);
    const double *next = sequence + (t + 1) * b;
    for (int i = 0; i < b; i++) total += next[i] * (y[i] - norm);
  }
  free(s);
  free(y);
  return -total / (b * (c - 1));
}

/* ---- the instance ------------------------------------------------------------------------- */

typedef struct {
  int l, c, b;
  long n_params;
  double *params; /* main | extra, contiguous */
  double *main_params, *extra_params, *state, *sequence;
  double *grad;
} lstm_t;

static void lstm_read(const char *path, long c, lstm_t *m) {
  adb_reader r = adb_open(path);
  m->l = (int)adb_long(&r);
  long c_file = adb_long(&r);
  m->b = (int)adb_long(&r);
  m->c = (int)c;
  int l = m->l, b = m->b;
  m->n_params = 8L * l * b + 3L * b;
  m->params = adb_alloc((size_t)m->n_params, sizeof(double));
  m->grad = adb_alloc((size_t)m->n_params, sizeof(double));
  m->main_params = m->params;
  m->extra_params = m->params + 8L * l * b;
  for (long i = 0; i < m->n_params; i++) m->params[i] = adb_double(&r);
  m->state = adb_alloc((size_t)(2 * l * b), sizeof(double));
  for (long i = 0; i < 2L * l * b; i++) m->state[i] = adb_double(&r);
  m->sequence = adb_alloc((size_t)(c * b), sizeof(double));
  long rows = c < c_file ? c : c_file;
  for (long i = 0; i < rows * b; i++) m->sequence[i] = adb_double(&r);
  for (long t = rows; t < c; t++)
    memcpy(m->sequence + t * b, m->sequence + (t % rows) * b, sizeof(double) * b);
  fclose(r.f);
}

static double lstm_f(const lstm_t *m) {
  return lstm_objective(m->l, m->c, m->b, m->main_params, m->extra_params, m->state, m->sequence);
}

static void lstm_gradient(lstm_t *m) {
  memset(m->grad, 0, sizeof(double) * (size_t)m->n_params);
  double *dmain = m->grad, *dextra = m->grad + 8L * m->l * m->b;
  __enzyme_autodiff((void *)lstm_objective, enzyme_const, m->l, enzyme_const, m->c, enzyme_const,
                    m->b, enzyme_dup, m->main_params, dmain, enzyme_dup, m->extra_params, dextra,
                    enzyme_const, m->state, enzyme_const, m->sequence);
}

static void lstm_fd_gradient(lstm_t *m, double *out) {
  for (long j = 0; j < m->n_params; j++) {
    double p = m->params[j], h = adb_step(p);
    m->params[j] = p + h;
    double fp = lstm_f(m);
    m->params[j] = p - h;
    double fm = lstm_f(m);
    m->params[j] = p;
    out[j] = (fp - fm) / (2 * h);
  }
}

typedef struct {
  lstm_t *m;
  double *fd;
} ctx_t;

static void run_primal(void *p) { bench_sink = lstm_f(((ctx_t *)p)->m); }

static void run_gradient(void *p) {
  ctx_t *c = p;
  lstm_gradient(c->m);
  bench_sink = c->m->grad[0];
}

static void run_fd(void *p) {
  ctx_t *c = p;
  lstm_fd_gradient(c->m, c->fd);
  bench_sink = c->fd[0];
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1024);
  if (a.n < 2) {
    fprintf(stderr, "lstm: the sequence needs N >= 2 characters\n");
    return 2;
  }
  lstm_t m;
  lstm_read(adb_input(LSTM_DEFAULT_INPUT), a.n, &m);
  long np = m.n_params;
  ctx_t c = {&m, adb_alloc((size_t)np, sizeof(double))};
  lstm_gradient(&m);
  double value = lstm_f(&m);
  int fd = adb_fd_mode();

  if (fd) {
    lstm_fd_gradient(&m, c.fd);
    if (bench_report_check("lstm", a.n, value, adb_rel_err(m.grad, c.fd, np), 1e-5,
                           "central differences in every coordinate"))
      return 1;
  } else {
    double *v = adb_alloc((size_t)np, sizeof(double)), *p0 = adb_alloc((size_t)np, sizeof(double));
    memcpy(p0, m.params, sizeof(double) * (size_t)np);
    double num = 0, den = 0, h = 1e-6;
    uint64_t state = 13;
    for (int r = 0; r < 3; r++) {
      adb_direction(&state, v, np);
      double gv = 0;
      for (long j = 0; j < np; j++) gv += m.grad[j] * v[j];
      for (long j = 0; j < np; j++) m.params[j] = p0[j] + h * v[j];
      double fp = lstm_f(&m);
      for (long j = 0; j < np; j++) m.params[j] = p0[j] - h * v[j];
      double fm = lstm_f(&m);
      memcpy(m.params, p0, sizeof(double) * (size_t)np);
      double fdv = (fp - fm) / (2 * h);
      num += (gv - fdv) * (gv - fdv);
      den += fdv * fdv;
    }
    if (bench_report_check("lstm", a.n, value, sqrt(num / den), 1e-5,
                           "central differences along 3 random directions"))
      return 1;
    if (a.dump && bench_dump(a.dump, m.grad, np)) return 1;
  }

  if (a.samples > 0) {
    bench_fn fns[] = {{"primal", run_primal, &c}, {"gradient", fd ? run_fd : run_gradient, &c}};
    bench_time("lstm", a.n, a.samples, fns, 2);
  }
  return 0;
}
