// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-enzyme-calls,reverse-diff | filecheck %s

// Memory allocated by one function and freed by another (a list pushed node by node, released
// by a walk): the allocation's address escapes, so its shadow cannot be freed where the reverse
// sweep reaches the allocation on the compiler's word alone.  The forward sweep notes the shadow
// of what it frees, the reverse sweep gives a noted shadow back at its allocation, and the set
// of noted shadows is emptied after the gradient call; its runtime is copied into the module.

extern double __enzyme_autodiff(void *, ...);
#include <stdlib.h>
struct node { double w; struct node *next; };
__attribute__((noinline)) static struct node *push(struct node *head, double w) {
  struct node *k = malloc(sizeof *k);
  k->w = w;
  k->next = head;
  return k;
}
__attribute__((noinline)) static void destroy(struct node *k) {
  while (k) { struct node *next = k->next; free(k); k = next; }
}
double value(const double *x, int n) {
  struct node *head = 0;
  for (int i = 0; i < n; i++) head = push(head, x[i]);
  double s = 0;
  for (struct node *k = head; k; k = k->next) s += k->w * k->w;
  destroy(head);
  return s;
}
void grad(const double *x, double *dx, int n) { __enzyme_autodiff((void *)value, x, dx, n); }

// CHECK-LABEL: llvm.func internal @diffevalue(
// CHECK-LABEL: llvm.func internal @reverse_push(
// CHECK:         %[[FREE:.*]] = llvm.mlir.addressof @free : !llvm.ptr
// CHECK-NEXT:    llvm.call @__xenzyme_shadow_release(%{{.*}}, %[[FREE]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-LABEL: llvm.func internal @augmented_destroy(
// CHECK:         llvm.call tail @free(%[[P:.*]]) {
// CHECK-NEXT:    llvm.call @__xenzyme_shadow_freed(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK-LABEL: llvm.func local_unnamed_addr @grad(
// CHECK:         llvm.call @diffevalue(
// CHECK-NEXT:    llvm.call @__xenzyme_shadow_reset() : () -> ()
// CHECK:       llvm.func internal local_unnamed_addr @__xenzyme_shadow_freed(
// CHECK:       llvm.func internal local_unnamed_addr @__xenzyme_shadow_release(
