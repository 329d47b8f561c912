/* Recursion over a tree stored in an array of structs {int left, right; double w; float bias;
 * long depth}: a recursive evaluation whose children come from int fields, a recursive pass
 * that writes an accumulated value into every node's double field on the way down, and a
 * recursive float reduction over the bias fields.  The int and long fields' shadows stay put. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 9 };

struct node {
  int left, right;
  double w;
  float bias;
  long depth;
  double acc;
};

__attribute__((noinline)) double eval(const struct node *t, int i, double x) {
  if (i < 0) return x;
  double l = eval(t, t[i].left, x * t[i].w), r = eval(t, t[i].right, x + t[i].w);
  return tanh(l) * r + t[i].bias;
}

__attribute__((noinline)) void push_down(struct node *t, int i, double from_parent) {
  if (i < 0) return;
  t[i].acc = from_parent * t[i].w + t[i].bias;
  push_down(t, t[i].left, t[i].acc);
  push_down(t, t[i].right, 0.5 * t[i].acc);
}

static double f(struct node *t, double x) {
  push_down(t, 0, x);
  double s = eval(t, 0, x);
  for (int i = 0; i < N; i++) s += t[i].acc * t[i].acc;
  return s;
}

__attribute__((noinline)) float bias_sum(const struct node *t, int i) {
  if (i < 0) return 0.0f;
  return t[i].bias * t[i].bias + bias_sum(t, t[i].left) * 0.5f + bias_sum(t, t[i].right);
}

static struct node T0[N];
static double X = 0.4;
static double f_of(const struct node *t0, double x) {
  struct node t[N];
  for (int i = 0; i < N; i++) t[i] = t0[i];
  return f(t, x);
}
static double f_x(double x) { return f_of(T0, x); }
static double f_w(const double *unused) { (void)unused; return f_of(T0, X); }

/* Finite differences in the float bias through a double twin of the tree. */
struct node_d { int left, right; double w, bias; };
static struct node_d TD[N];
static double eval_d(int i, double x) {
  if (i < 0) return x;
  double l = eval_d(TD[i].left, x * TD[i].w), r = eval_d(TD[i].right, x + TD[i].w);
  return tanh(l) * r + TD[i].bias;
}
static double push_d(int i, double from) {
  if (i < 0) return 0;
  double a = from * TD[i].w + TD[i].bias;
  return a * a + push_d(TD[i].left, a) + push_d(TD[i].right, 0.5 * a);
}
static double f_bias(const double *b) {
  for (int i = 0; i < N; i++) TD[i].bias = b[i];
  return push_d(0, X) + eval_d(0, X);
}
static double bias_sum_d(int i, const double *b) {
  return i < 0 ? 0.0 : b[i] * b[i] + 0.5 * bias_sum_d(TD[i].left, b) + bias_sum_d(TD[i].right, b);
}

int main(void) {
  /* A binary tree: node i has children 2i+1 and 2i+2 when they exist. */
  double b[N];
  for (int i = 0; i < N; i++) {
    T0[i].left = 2 * i + 1 < N ? 2 * i + 1 : -1;
    T0[i].right = 2 * i + 2 < N ? 2 * i + 2 : -1;
    T0[i].w = 0.9 - 0.15 * i;
    T0[i].bias = 0.1f * (i % 4) - 0.15f;
    T0[i].depth = i == 0 ? 0 : T0[(i - 1) / 2].depth + 1;
    T0[i].acc = 0;
    TD[i].left = T0[i].left;
    TD[i].right = T0[i].right;
    TD[i].w = T0[i].w;
    b[i] = TD[i].bias = T0[i].bias;
  }
  struct node t[N], dt[N];
  for (int i = 0; i < N; i++) {
    t[i] = T0[i];
    dt[i].left = dt[i].right = 100 + i;
    dt[i].depth = -1;
    dt[i].w = dt[i].acc = 0;
    dt[i].bias = 0;
  }
  double dx = __enzyme_autodiff((void *)f, enzyme_dup, t, dt, X);
  check_close("df/dx", dx, fd1(f_x, X), 1e-6);
  for (int i = 0; i < N; i++) {
    check_close("df/dw", dt[i].w, fd_array(f_w, &T0[i].w, 0), 1e-6);
    check_close("df/dbias", dt[i].bias, fd_array(f_bias, b, i), 1e-6);
    if (dt[i].left != 100 + i || dt[i].right != 100 + i || dt[i].depth != -1) {
      printf("FAIL shadow int fields of node %d changed\n", i);
      check_failures++;
    }
  }

  for (int i = 0; i < N; i++) dt[i].bias = 0, dt[i].w = 0;
  __enzyme_autodiff_v((void *)bias_sum, enzyme_dup, T0, dt, enzyme_const, 0);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, save = b[i];
    b[i] = save + h;
    double up = bias_sum_d(0, b);
    b[i] = save - h;
    double down = bias_sum_d(0, b);
    b[i] = save;
    check_close("bias_sum d/dbias", dt[i].bias, (up - down) / (2 * h), 1e-6);
    check_close("bias_sum d/dw", dt[i].w, 0.0, 0.0);
  }
  return check_finish();
}
