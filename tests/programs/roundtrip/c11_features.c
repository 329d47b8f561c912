/* IR: C11 _Generic dispatch, _Static_assert, compound literals (stack and file scope), designated initialisers for arrays/structs/nested members, _Alignas/_Alignof. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <math.h>

struct config {
    const char *name;
    int iterations;
    double tolerance;
    struct { int x, y; } origin;
    unsigned flags[4];
};

_Static_assert(sizeof(int32_t) == 4, "int32_t must be 4 bytes");
_Static_assert(offsetof(struct config, name) == 0, "name first");

#define abs_value(x) _Generic((x), int: abs_int, long: abs_long, float: fabsf, double: fabs, default: abs_long)(x)
#define type_name(x) _Generic((x), char: "char", int: "int", long: "long", unsigned: "unsigned", float: "float", \
                              double: "double", const char *: "const char *", char *: "char *", default: "other")

static int abs_int(int v) { return v < 0 ? -v : v; }
static long abs_long(long v) { return v < 0 ? -v : v; }

/* File-scope compound literal: static storage. */
static int *const default_weights = (int[]){5, 4, 3, 2, 1};

struct config presets[] = {
    [2] = {.name = "fine", .iterations = 500, .tolerance = 1e-10, .origin = {.y = -1}, .flags = {[3] = 8}},
    [0] = {.name = "coarse", .tolerance = 1e-3, .iterations = 20},
    [1] = {"medium", 100, 1e-6, {3, 4}, {1, 2}},
};

static double weighted(const double *xs, const int *w, int n)
{
    double s = 0.0;
    int wt = 0;
    for (int i = 0; i < n; i++) {
        s += xs[i] * w[i];
        wt += w[i];
    }
    return s / wt;
}

struct aligned_buf {
    char tag;
    _Alignas(32) double lanes[4];
};

int main(void)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        const struct config *c = &presets[i];
        printf("%-7s it=%3d tol=%.17g origin=(%d,%d) flags=%u,%u,%u,%u\n", c->name, c->iterations, c->tolerance,
               c->origin.x, c->origin.y, c->flags[0], c->flags[1], c->flags[2], c->flags[3]);
    }
    printf("abs: %d %ld %.9g %.17g\n", abs_value(-42), abs_value(-9000000000L), (double)abs_value(-2.5f),
           abs_value(-0.125));
    char ch = 'x';
    const char *cs = "s";
    printf("types: %s %s %s %s %s %s %s\n", type_name(ch), type_name(1), type_name(1L), type_name(1u),
           type_name(1.0f), type_name(2.0), type_name(cs));

    /* Block-scope compound literals passed directly to functions. */
    double m1 = weighted((double[]){1.0, 2.0, 3.0, 4.0, 5.0}, default_weights, 5);
    double m2 = weighted((double[]){10.0, 20.0, 30.0}, (int[]){1, 1, 2}, 3);
    printf("weighted means: %.17g %.17g\n", m1, m2);

    struct config *tmp = &(struct config){.name = "adhoc", .iterations = 7};
    tmp->iterations *= 6;
    printf("%s iterations=%d tolerance=%.17g\n", tmp->name, tmp->iterations, tmp->tolerance);

    int lut[16] = {[0] = 1, [1] = 1, [5] = 120, [10] = 3628800, [15] = -1};
    int nonzero = 0;
    for (int i = 0; i < 16; i++)
        nonzero += lut[i] != 0;
    printf("designated lut nonzero=%d lut[10]=%d\n", nonzero, lut[10]);

    struct aligned_buf ab = {.tag = 'q', .lanes = {1.5, 2.5, 3.5, 4.5}};
    printf("alignof=%zu offset=%zu sizeof=%zu misaligned=%d sum=%.17g\n", _Alignof(struct aligned_buf),
           offsetof(struct aligned_buf, lanes), sizeof ab, (int)((uintptr_t)ab.lanes % 32 != 0),
           ab.lanes[0] + ab.lanes[1] + ab.lanes[2] + ab.lanes[3]);
    return 0;
}
