/* IR: small MLP forward pass (dense layers as matrix-vector loops, bias add, tanh/relu/sigmoid via libm, softmax with max shift), batch loop (FASTMATH-safe). */
#include <stdio.h>
#include <math.h>

#define IN 8
#define H1 16
#define H2 12
#define OUT 4
#define BATCH 6

static double W1[H1][IN], b1[H1], W2[H2][H1], b2[H2], W3[OUT][H2], b3[OUT];

/* Deterministic weight init: scaled sines, like a fixed-seed initialiser. */
static void init_weights(void)
{
    for (int i = 0; i < H1; i++) {
        b1[i] = 0.01 * (i - H1 / 2);
        for (int j = 0; j < IN; j++)
            W1[i][j] = 0.5 * sin(1.3 * i + 0.7 * j + 0.1);
    }
    for (int i = 0; i < H2; i++) {
        b2[i] = -0.02 * i;
        for (int j = 0; j < H1; j++)
            W2[i][j] = 0.3 * cos(0.9 * i - 0.4 * j);
    }
    for (int i = 0; i < OUT; i++) {
        b3[i] = 0.1 * i;
        for (int j = 0; j < H2; j++)
            W3[i][j] = 0.4 * sin(2.1 * i + 0.3 * j + 1.0);
    }
}

static void dense(int nout, int nin, const double *w, const double *b, const double *x, double *y)
{
    for (int i = 0; i < nout; i++) {
        double acc = b[i];
        for (int j = 0; j < nin; j++)
            acc += w[i * nin + j] * x[j];
        y[i] = acc;
    }
}

static void softmax(double *z, int n)
{
    double m = z[0];
    for (int i = 1; i < n; i++)
        m = z[i] > m ? z[i] : m;
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        z[i] = exp(z[i] - m);
        s += z[i];
    }
    for (int i = 0; i < n; i++)
        z[i] /= s;
}

static int forward(const double *x, double *probs)
{
    double h1[H1], h2[H2];
    dense(H1, IN, &W1[0][0], b1, x, h1);
    for (int i = 0; i < H1; i++)
        h1[i] = tanh(h1[i]);
    dense(H2, H1, &W2[0][0], b2, h1, h2);
    for (int i = 0; i < H2; i++)
        h2[i] = h2[i] > 0.0 ? h2[i] : 0.01 * h2[i]; /* leaky ReLU */
    dense(OUT, H2, &W3[0][0], b3, h2, probs);
    softmax(probs, OUT);
    int best = 0;
    for (int i = 1; i < OUT; i++)
        if (probs[i] > probs[best])
            best = i;
    return best;
}

int main(void)
{
    init_weights();
    double loss = 0.0;
    for (int n = 0; n < BATCH; n++) {
        double x[IN], p[OUT];
        for (int j = 0; j < IN; j++)
            x[j] = 1.0 / (1.0 + exp(-(double)((n * 3 + j * 5) % 11 - 5))); /* sigmoid features */
        int cls = forward(x, p);
        int label = n % OUT;
        loss -= log(p[label]);
        printf("sample %d: class %d probs %.10g %.10g %.10g %.10g\n", n, cls, p[0], p[1], p[2], p[3]);
    }
    printf("mean cross-entropy = %.10g\n", loss / BATCH);
    double wsum = 0.0;
    for (int i = 0; i < H1; i++)
        for (int j = 0; j < IN; j++)
            wsum += W1[i][j] * W1[i][j];
    printf("||W1||^2 = %.10g\n", wsum);
    return 0;
}
