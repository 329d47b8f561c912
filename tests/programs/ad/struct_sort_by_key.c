/* Whole structs {int key; double val; float w; short flag} moved by assignment: an insertion
 * sort by the int key swaps structs in place (the shadows must travel with them), a struct
 * array copied into a local array and rotated, and a weighted sum over the sorted order that
 * depends on positions. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 7 };

struct item {
  int key;
  double val;
  float w;
  short flag;
};

__attribute__((noinline)) void sort_items(struct item *a, int n) {
  for (int i = 1; i < n; i++) {
    struct item t = a[i];
    int j = i - 1;
    while (j >= 0 && a[j].key > t.key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = t;
  }
}

static double f(struct item *a, int n) {
  sort_items(a, n);
  struct item local[N];
  for (int i = 0; i < n; i++) local[i] = a[(i + 2) % n];
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = local[i].flag ? local[i].val * local[i].val : local[i].val;
    s += (i + 1) * v * local[i].w + a[i].val * local[(i + 1) % n].val;
  }
  return s;
}

static struct item A0[N];
static double f_at(const double *unused) {
  (void)unused;
  struct item a[N];
  for (int i = 0; i < N; i++) a[i] = A0[i];
  return f(a, N);
}
static double f_w(const double *w) {
  /* The float weights in double precision: the same sort, then the same sum. */
  struct { int key; double val, w; short flag; } a[N], t, local[N];
  for (int i = 0; i < N; i++) {
    a[i].key = A0[i].key;
    a[i].val = A0[i].val;
    a[i].w = w[i];
    a[i].flag = A0[i].flag;
  }
  for (int i = 1; i < N; i++) {
    t = a[i];
    int j = i - 1;
    while (j >= 0 && a[j].key > t.key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = t;
  }
  for (int i = 0; i < N; i++) local[i] = a[(i + 2) % N];
  double s = 0;
  for (int i = 0; i < N; i++) {
    double v = local[i].flag ? local[i].val * local[i].val : local[i].val;
    s += (i + 1) * v * local[i].w + a[i].val * local[(i + 1) % N].val;
  }
  return s;
}

int main(void) {
  static const int keys[N] = {40, 10, 30, 70, 20, 60, 50};
  double w[N];
  for (int i = 0; i < N; i++) {
    A0[i].key = keys[i];
    A0[i].val = 0.3 * i - 0.8;
    A0[i].w = 0.5f + 0.25f * i;
    A0[i].flag = (short)(i % 3 == 0);
    w[i] = A0[i].w;
  }
  struct item a[N], da[N];
  for (int i = 0; i < N; i++) {
    a[i] = A0[i];
    da[i].key = keys[i]; /* the shadow's keys are never read: the sort compares primal keys */
    da[i].val = 0;
    da[i].w = 0;
    da[i].flag = 5;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, N);
  /* The reverse sweep undoes the moves: da[i] holds the derivative for the item that was at
   * position i on entry, while a itself comes back sorted. */
  for (int i = 0; i < N; i++) {
    check_close("df/dval", da[i].val, fd_array(f_at, &A0[i].val, 0), 1e-6);
    check_close("df/dw", da[i].w, fd_array(f_w, w, i), 1e-6);
    check_close("sorted", a[i].key, 10 * (i + 1), 0);
  }
  return check_finish();
}
