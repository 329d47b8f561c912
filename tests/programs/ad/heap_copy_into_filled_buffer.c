/* Copies into memory that already holds active values beyond the copied bytes: a buffer filled
 * by memcpy/memmove after a later element was stored (the way a growing array moves its old
 * elements into a new block around the element being added), copies whose length is not a
 * multiple of the pattern the buffer's stores show, and an insertion step that shifts elements
 * while the loop's test reads the moved data.  The copies' adjoints must reach the sources. */
#include <string.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
#define N 7

int n_runtime = N; /* (not static: its value is known only at run time) */

/* c = malloc(32); c[2] stored; memcpy(c, b, 16) fills c[0..1]. */
static double filled_after(const double *x) {
  double *b = malloc(2 * sizeof(double));
  b[0] = x[0] * x[0];
  b[1] = sin(x[1]);
  double *c = malloc(4 * sizeof(double));
  c[2] = x[2] * x[3];
  c[3] = 0.5;
  memcpy(c, b, 2 * sizeof(double));
  double s = c[0] * c[3] + c[1] * c[2] + c[2];
  free(b);
  free(c);
  return s;
}

/* The same with memmove and three of five elements. */
static double moved_after(const double *x) {
  double *b = malloc(3 * sizeof(double));
  for (int i = 0; i < 3; i++) b[i] = exp(0.3 * x[i]);
  double *c = malloc(5 * sizeof(double));
  c[3] = x[3];
  c[4] = x[4] * x[4];
  memmove(c, b, 3 * sizeof(double));
  double s = 0;
  for (int i = 0; i < 5; i++) s += (i + 1) * c[i] * c[(i + 1) % 5];
  free(b);
  free(c);
  return s;
}

/* A growing array: each new block gets the new element first, then the old ones. */
static double grown(const double *x) {
  int cap = 1, len = 0;
  double *v = malloc(sizeof(double));
  for (int i = 0; i < n_runtime; i++) {
    double e = x[i] * x[i] + x[(i + 1) % n_runtime];
    if (len == cap) {
      double *w = malloc(2 * cap * sizeof(double));
      w[len] = e;
      memcpy(w, v, len * sizeof(double));
      free(v);
      v = w;
      cap *= 2;
    } else {
      v[len] = e;
    }
    len++;
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += v[i] * v[i] * (i % 3 + 1);
  free(v);
  return s;
}

/* Insertion of the last element into a sorted prefix: the test reads the data it moves. */
static double inserted(const double *x) {
  double v[5];
  for (int i = 0; i < 4; i++) v[i] = x[i];
  v[4] = x[4];
  double val = v[4];
  int j = 4;
  while (j > 0 && val < v[j - 1]) {
    v[j] = v[j - 1];
    j--;
  }
  v[j] = val;
  double s = 0;
  for (int i = 0; i < 5; i++) s += (i + 1) * v[i] * v[i];
  return s;
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5, -0.25, 0.9, 1.4};
  CHECK_GRADIENT_FD(filled_after, x, N);
  CHECK_GRADIENT_FD(moved_after, x, N);
  CHECK_GRADIENT_FD(grown, x, N);
  CHECK_GRADIENT_FD(inserted, x, N);
  double sorted_prefix[N] = {-0.5, 0.2, 0.9, 1.3, 0.4, 0.0, 0.0}; /* x[4] lands in the middle */
  CHECK_GRADIENT_FD(inserted, sorted_prefix, N);
  return check_finish();
}
