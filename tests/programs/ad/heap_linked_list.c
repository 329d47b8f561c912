/* A singly linked list built at run time from the input, walked twice, reversed in place and
 * freed node by node: its shadow is a list of the same shape. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

struct node {
  double value;
  int index;
  struct node *next;
};

static double list_energy(const double *x, int n) {
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *k = malloc(sizeof *k);
    k->value = x[i] * (i + 1);
    k->index = i;
    k->next = head;
    head = k;
  }
  double s = 0, prev = 1.0;
  for (struct node *k = head; k; k = k->next) {
    s += sin(k->value) * prev;
    prev = k->value;
  }
  /* reverse the list, then weight by position */
  struct node *rev = NULL;
  while (head) {
    struct node *next = head->next;
    head->next = rev;
    rev = head;
    head = next;
  }
  for (struct node *k = rev; k; k = k->next) s += k->index * k->value * k->value;
  while (rev) {
    struct node *next = rev->next;
    free(rev);
    rev = next;
  }
  return s;
}

int main(void) {
  double x[6] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9};
  double dx[6] = {0};
  __enzyme_autodiff((void *)list_energy, enzyme_dup, x, dx, enzyme_const, 6);
  for (int i = 0; i < 6; i++) check_close("list_energy", dx[i], fd_array_n(list_energy, x, 6, i), 1e-6);
  return check_finish();
}
