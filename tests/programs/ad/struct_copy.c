/* Whole-struct assignments (clang emits llvm.memcpy, which LLVM may turn into integer or
 * vector loads and stores of the bytes), a struct swap, and a struct returned by value. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 6 };

typedef struct { double v; } Box;
typedef struct { double a, b; } Pair;
typedef struct { double x, y, z; int tag; } Rec;

static Pair make(double a, double b) {
  Pair p = {a * b, a - b};
  return p;
}

static double f(const Box *in, Pair *pairs, Rec *recs, const int *perm, int n) {
  Box tmp[N];
  for (int i = 0; i < n; i++) tmp[i] = in[perm[i]];
  for (int i = 0; i + 1 < n; i += 2) {
    Pair t = pairs[i];
    pairs[i] = pairs[i + 1];
    pairs[i + 1] = t;
  }
  Rec r0 = recs[0];
  recs[0] = recs[n - 1];
  recs[n - 1] = r0;
  double s = 0;
  for (int i = 0; i < n; i++) {
    Pair q = make(tmp[i].v, pairs[i].a);
    s += (i + 1) * (q.a + q.b * pairs[i].b) + recs[i].x * recs[i].y * recs[i].tag + recs[i].z;
  }
  return s;
}

static Box IN[N];
static Pair PAIRS[N];
static Rec RECS[N];
static const int PERM[N] = {3, 0, 5, 1, 4, 2};
static double fd(const double *unused) {
  (void)unused;
  Pair p[N];
  Rec r[N];
  for (int i = 0; i < N; i++) { p[i] = PAIRS[i]; r[i] = RECS[i]; }
  return f(IN, p, r, PERM, N);
}

int main(void) {
  Box din[N];
  Pair pairs[N], dpairs[N];
  Rec recs[N], drecs[N];
  for (int i = 0; i < N; i++) {
    IN[i].v = 0.3 * i - 0.7;
    PAIRS[i].a = sin(i); PAIRS[i].b = cos(2.0 * i);
    RECS[i].x = 0.5 + 0.1 * i; RECS[i].y = 1.0 - 0.2 * i; RECS[i].z = 0.25 * i; RECS[i].tag = i % 3 + 1;
    pairs[i] = PAIRS[i];
    recs[i] = RECS[i];
    din[i].v = 0;
    dpairs[i].a = dpairs[i].b = 0;
    drecs[i].x = drecs[i].y = drecs[i].z = 0;
    drecs[i].tag = 0;
  }
  __enzyme_autodiff((void *)f, IN, din, pairs, dpairs, recs, drecs, enzyme_const, PERM, N);
  for (int i = 0; i < N; i++) {
    check_close("df/din", din[i].v, fd_array(fd, &IN[i].v, 0), 1e-6);
    check_close("df/dpair.a", dpairs[i].a, fd_array(fd, &PAIRS[i].a, 0), 1e-6);
    check_close("df/dpair.b", dpairs[i].b, fd_array(fd, &PAIRS[i].b, 0), 1e-6);
    check_close("df/drec.x", drecs[i].x, fd_array(fd, &RECS[i].x, 0), 1e-6);
    check_close("df/drec.y", drecs[i].y, fd_array(fd, &RECS[i].y, 0), 1e-6);
    check_close("df/drec.z", drecs[i].z, fd_array(fd, &RECS[i].z, 0), 1e-6);
  }
  return check_finish();
}
