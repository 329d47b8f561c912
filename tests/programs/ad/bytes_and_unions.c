/* Float data moved and cleared as raw bytes: single elements zeroed with memset (LLVM stores an
 * i64 0), elements copied through char pointers with computed byte offsets, a union of a double
 * and an integer, and one-double structs copied through a pointer loaded from memory. */
#include <string.h>
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 10 };

typedef struct { double v; } Box;
typedef struct { Box *items; int n; } Bag;
typedef union { double d; long long bits; } Word;

static double f(double *x, Bag *bag, int k) {
  memset(&x[k], 0, sizeof(double));                  /* x[k] loses its derivative */
  char *bytes = (char *)x;
  for (int i = 0; i + 2 < N; i += 3)                  /* copy x[i] to x[i+2] byte-wise */
    memcpy(bytes + 8 * (i + 2), bytes + 8 * i, 8);
  Word w;
  w.d = x[1] * 3.0;
  Word w2 = w;                                        /* union copy */
  Box first = bag->items[0];
  for (int i = 1; i < bag->n; i++) bag->items[i - 1] = bag->items[i];
  bag->items[bag->n - 1] = first;                     /* rotate the boxes */
  double s = w2.d * x[2];
  for (int i = 0; i < N; i++) s += x[i] * x[i] * (i + 1);
  for (int i = 0; i < bag->n; i++) s += bag->items[i].v * (i + 1) * x[i];
  return s;
}

static double X0[N];
static Box B0[4];
static double fd(const double *unused) {
  (void)unused;
  double x[N];
  Box items[4];
  for (int i = 0; i < N; i++) x[i] = X0[i];
  for (int i = 0; i < 4; i++) items[i] = B0[i];
  Bag bag = {items, 4};
  return f(x, &bag, 5);
}

int main(void) {
  double x[N], dx[N] = {0};
  Box items[4], ditems[4];
  for (int i = 0; i < N; i++) x[i] = X0[i] = 0.3 * i - 1.1;
  for (int i = 0; i < 4; i++) { items[i].v = B0[i].v = sin(i + 0.5); ditems[i].v = 0; }
  Bag bag = {items, 4}, dbag = {ditems, 0};
  __enzyme_autodiff((void *)f, x, dx, &bag, &dbag, 5);
  for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(fd, &X0[i], 0), 1e-6);
  for (int i = 0; i < 4; i++) check_close("df/dbox", ditems[i].v, fd_array(fd, &B0[i].v, 0), 1e-6);
  return check_finish();
}
