/* Heap memory allocated in one function (not inlined) and freed in another: nodes pushed onto a
 * list by a helper returning the new head and released by a walk; nodes made by a helper that
 * returns fresh memory and freed by a third function; nodes kept in a heap array of pointers
 * and freed by a loop elsewhere.  Each node's shadow is needed until the reverse sweep reaches
 * its allocation, and must be freed there (the sanitizer run checks that none leaks and none is
 * freed twice).  Checked against central differences of the primal. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

struct node {
  double w;
  struct node *next;
};

/* A list pushed at its head: the helper returns the node it allocates. */
__attribute__((noinline)) static struct node *push(struct node *head, double w) {
  struct node *k = malloc(sizeof *k);
  k->w = w;
  k->next = head;
  return k;
}

__attribute__((noinline)) static void destroy(struct node *k) {
  while (k) {
    struct node *next = k->next;
    free(k);
    k = next;
  }
}

static double list_value(const double *x, int n) {
  struct node *head = NULL;
  for (int i = 0; i < n; i++) head = push(head, x[i] * (i + 1));
  double s = 0, prev = 0.5;
  for (struct node *k = head; k; k = k->next) {
    s += sin(k->w) * prev;
    prev = k->w;
  }
  destroy(head);
  return s;
}

/* Fresh memory from a helper, given to another function that frees it. */
__attribute__((noinline)) static struct node *make(double w) {
  struct node *k = malloc(sizeof *k);
  k->w = w * w;
  k->next = NULL;
  return k;
}

__attribute__((noinline)) static double consume(struct node *k) {
  double v = exp(k->w * 0.25);
  free(k);
  return v;
}

static double made_and_consumed(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    struct node *k = make(x[i]);
    s += consume(k) * x[(i + 1) % n];
  }
  return s;
}

/* Nodes kept in a heap array of pointers, released by a loop in another function. */
__attribute__((noinline)) static void release_all(struct node **slots, int n) {
  for (int i = 0; i < n; i++) free(slots[i]);
  free(slots);
}

static double table_value(const double *x, int n) {
  struct node **slots = malloc(n * sizeof *slots);
  for (int i = 0; i < n; i++) slots[i] = make(x[i] + 0.1 * i);
  double s = 0;
  for (int i = 0; i < n; i++) s += slots[i]->w * slots[n - 1 - i]->w;
  release_all(slots, n);
  return s;
}

/* dx += the gradient of f at x0[0..n), checked against central differences. */
#define CHECK_GRADIENT(f, x0, n)                                                              \
  do {                                                                                       \
    double x[6], dx[6] = {0};                                                                \
    for (int i = 0; i < (n); i++) x[i] = (x0)[i];                                            \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, (n));                      \
    for (int i = 0; i < (n); i++) check_close(#f, dx[i], fd_array_n(f, x, (n), i), 1e-6);    \
  } while (0)

int main(void) {
  static const double x0[6] = {0.4, -0.9, 1.3, 0.25, -0.35, 0.8};
  for (int n = 1; n <= 6; n += 5) {
    CHECK_GRADIENT(list_value, x0, n);
    CHECK_GRADIENT(made_and_consumed, x0, n);
    CHECK_GRADIENT(table_value, x0, n);
  }
  return check_finish();
}
