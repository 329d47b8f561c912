/* IR: indirect calls, global arrays of function pointers, callbacks taking a context pointer, functions returning function pointers. */
#include <stdio.h>
#include <math.h>

typedef double (*unary_fn)(double);
typedef void (*visit_fn)(int index, double value, void *ctx);

static double square(double x) { return x * x; }
static double cube(double x) { return x * x * x; }
static double reciprocal(double x) { return 1.0 / x; }
static double half(double x) { return 0.5 * x; }

static const unary_fn transforms[] = {square, cube, reciprocal, half, fabs};
static const char *const transform_names[] = {"square", "cube", "reciprocal", "half", "fabs"};

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int maxi(int a, int b) { return a > b ? a : b; }
static int (*const binops[4])(int, int) = {add, sub, mul, maxi};

/* Returns a function pointer chosen at run time. */
static unary_fn pick(const char *name)
{
    for (int i = 0; i < 5; i++) {
        const char *a = name, *b = transform_names[i];
        while (*a && *a == *b) {
            a++;
            b++;
        }
        if (*a == *b)
            return transforms[i];
    }
    return NULL;
}

static double fold(int (*op)(int, int), const int *xs, int n, int init)
{
    int acc = init;
    for (int i = 0; i < n; i++)
        acc = op(acc, xs[i]);
    return acc;
}

static void for_each(const double *xs, int n, visit_fn visit, void *ctx)
{
    for (int i = 0; i < n; i++)
        visit(i, xs[i], ctx);
}

struct stats { double sum, sumsq; int n; };
static void accumulate(int index, double value, void *ctx)
{
    struct stats *s = ctx;
    (void)index;
    s->sum += value;
    s->sumsq += value * value;
    s->n++;
}
static void print_large(int index, double value, void *ctx)
{
    double threshold = *(const double *)ctx;
    if (value > threshold)
        printf("  x[%d] = %.17g exceeds %.17g\n", index, value, threshold);
}

/* Compose two functions by applying them through pointers. */
static double compose(unary_fn f, unary_fn g, double x) { return f(g(x)); }

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
double xs[] = {-1.5, 0.25, 2.0, 3.75, -0.5};
int ys[] = {3, -7, 12, 5, 9, -2};

int main(void)
{
    for (int t = 0; t < 5; t++) {
        double s = 0.0;
        for (int i = 0; i < 5; i++)
            s += transforms[t](xs[i]);
        printf("sum of %s = %.17g\n", transform_names[t], s);
    }
    const char *opnames[] = {"add", "sub", "mul", "max"};
    for (int k = 0; k < 4; k++)
        printf("fold %s = %.17g\n", opnames[k], fold(binops[k], ys, 6, k == 2 ? 1 : 0));

    struct stats st = {0.0, 0.0, 0};
    for_each(xs, 5, accumulate, &st);
    double mean = st.sum / st.n;
    printf("mean = %.17g, variance = %.17g\n", mean, st.sumsq / st.n - mean * mean);
    double threshold = 1.0;
    for_each(xs, 5, print_large, &threshold);

    unary_fn f = pick("cube"), g = pick("half");
    printf("cube(half(3)) = %.17g, missing = %s\n", compose(f, g, 3.0), pick("sqrt") ? "found" : "null");
    return 0;
}
