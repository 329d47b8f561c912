/* IR: malloc/calloc/realloc/free, growth of a dynamic array, pointer arithmetic, null checks, a 2-D matrix in one allocation. */
#include <stdio.h>
#include <stdlib.h>

struct dvec {
    double *data;
    size_t len, cap;
};

static int dvec_push(struct dvec *v, double x)
{
    if (v->len == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 4;
        double *p = realloc(v->data, ncap * sizeof *p);
        if (!p)
            return -1;
        v->data = p;
        v->cap = ncap;
    }
    v->data[v->len++] = x;
    return 0;
}

static void dvec_free(struct dvec *v)
{
    free(v->data);
    v->data = NULL;
    v->len = v->cap = 0;
}

/* Row-pointer matrix on top of a single contiguous block. */
static double **matrix_new(size_t rows, size_t cols)
{
    double **m = malloc(rows * sizeof *m);
    double *block = calloc(rows * cols, sizeof *block);
    if (!m || !block) {
        free(m);
        free(block);
        return NULL;
    }
    for (size_t r = 0; r < rows; r++)
        m[r] = block + r * cols;
    return m;
}

static void matrix_free(double **m)
{
    if (m) {
        free(m[0]);
        free(m);
    }
}

int main(void)
{
    struct dvec v = {NULL, 0, 0};
    int reallocs = 0;
    size_t last_cap = 0;
    for (int i = 0; i < 1000; i++) {
        if (dvec_push(&v, 1.0 / (i + 1)) != 0)
            return 1;
        if (v.cap != last_cap) {
            reallocs++;
            last_cap = v.cap;
        }
    }
    double h = 0.0;
    for (const double *p = v.data, *end = v.data + v.len; p != end; p++)
        h += *p;
    printf("len=%zu cap=%zu growths=%d harmonic=%.17g\n", v.len, v.cap, reallocs, h);

    /* Shrink to fit, then check content survived. */
    double *shrunk = realloc(v.data, v.len * sizeof *shrunk);
    if (shrunk) {
        v.data = shrunk;
        v.cap = v.len;
    }
    printf("after shrink: cap=%zu data[999]=%.17g\n", v.cap, v.data[999]);
    dvec_free(&v);

    int *zeros = calloc(256, sizeof *zeros);
    if (!zeros)
        return 1;
    int nonzero = 0;
    for (int i = 0; i < 256; i++)
        nonzero += zeros[i] != 0;
    printf("calloc nonzero count=%d\n", nonzero);
    free(zeros);

    size_t rows = 5, cols = 7;
    double **m = matrix_new(rows, cols);
    if (!m)
        return 1;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            m[r][c] = (double)(r * cols + c) / 4.0;
    double colsum[7] = {0};
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            colsum[c] += m[r][c];
    for (size_t c = 0; c < cols; c++)
        printf("colsum[%zu] = %.17g\n", c, colsum[c]);
    matrix_free(m);

    /* Array of separately allocated strings of varying length. */
    char *lines[6];
    for (int i = 0; i < 6; i++) {
        size_t n = (size_t)(i * 3 + 2);
        lines[i] = malloc(n + 1);
        if (!lines[i])
            return 1;
        for (size_t k = 0; k < n; k++)
            lines[i][k] = (char)('a' + (i + (int)k) % 26);
        lines[i][n] = '\0';
    }
    for (int i = 0; i < 6; i++) {
        printf("line %d: %s\n", i, lines[i]);
        free(lines[i]);
    }
    return 0;
}
