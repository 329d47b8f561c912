/* A binary search tree built by recursive insertion (heap nodes), evaluated and freed by
 * recursive calls: the shadow tree has the primal's shape. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);

typedef struct tree {
  double key; /* inactive ordering key */
  double w;   /* active weight */
  struct tree *left, *right;
} tree;

__attribute__((noinline)) static tree *insert(tree *t, double key, double w) {
  if (!t) {
    t = malloc(sizeof(tree));
    t->key = key;
    t->w = w;
    t->left = t->right = NULL;
    return t;
  }
  if (key < t->key)
    t->left = insert(t->left, key, w);
  else
    t->right = insert(t->right, key, w);
  return t;
}

__attribute__((noinline)) static double evaluate(const tree *t, int depth) {
  if (!t) return 0.0;
  return (depth + 1) * t->w * t->w + exp(-t->w) + evaluate(t->left, depth + 1) + evaluate(t->right, depth + 1);
}

__attribute__((noinline)) static void release(tree *t) {
  if (!t) return;
  release(t->left);
  release(t->right);
  free(t);
}

static const double keys[7] = {4, 2, 6, 1, 3, 5, 7};

static double tree_value(const double *w, int n) {
  tree *t = NULL;
  for (int i = 0; i < n; i++) t = insert(t, keys[i], w[i]);
  double v = evaluate(t, 0);
  release(t);
  return v;
}

int main(void) {
  double w[7] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9, 0.7};
  double dw[7] = {0};
  __enzyme_autodiff((void *)tree_value, enzyme_dup, w, dw, enzyme_const, 7);
  for (int i = 0; i < 7; i++) {
    int depth = i == 0 ? 0 : i < 3 ? 1 : 2;
    double exact = 2 * (depth + 1) * w[i] - exp(-w[i]);
    check_close("tree_value", dw[i], exact, 1e-9);
  }
  return check_finish();
}
