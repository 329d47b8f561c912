/* IR: numerically stable log-sum-exp (max pass + exp/log1p pass), streaming single-pass variant, log-softmax, log-domain HMM forward algorithm (FASTMATH-safe, finite inputs only). */
#include <stdio.h>
#include <math.h>

static double logsumexp(const double *x, int n)
{
    double m = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > m)
            m = x[i];
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += exp(x[i] - m);
    return m + log(s);
}

/* One pass: keep a running max and rescale the running sum when it changes. */
static double logsumexp_streaming(const double *x, int n)
{
    double m = x[0], s = 1.0;
    for (int i = 1; i < n; i++) {
        if (x[i] <= m) {
            s += exp(x[i] - m);
        } else {
            s = s * exp(m - x[i]) + 1.0;
            m = x[i];
        }
    }
    return m + log(s);
}

static double lse2(double a, double b) { return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b)); }

/* Forward algorithm for a 2-state HMM in log space. */
static double hmm_log_likelihood(const int *obs, int T)
{
    const double log_init[2] = {log(0.6), log(0.4)};
    const double log_trans[2][2] = {{log(0.7), log(0.3)}, {log(0.4), log(0.6)}};
    const double log_emit[2][3] = {{log(0.5), log(0.4), log(0.1)}, {log(0.1), log(0.3), log(0.6)}};
    double alpha[2];
    for (int s = 0; s < 2; s++)
        alpha[s] = log_init[s] + log_emit[s][obs[0]];
    for (int t = 1; t < T; t++) {
        double next[2];
        for (int s = 0; s < 2; s++)
            next[s] = lse2(alpha[0] + log_trans[0][s], alpha[1] + log_trans[1][s]) + log_emit[s][obs[t]];
        alpha[0] = next[0];
        alpha[1] = next[1];
    }
    return lse2(alpha[0], alpha[1]);
}

int main(void)
{
    const double small[5] = {0.5, -1.0, 2.0, 0.0, 1.5};
    double naive = 0.0;
    for (int i = 0; i < 5; i++)
        naive += exp(small[i]);
    printf("small: naive=%.10g stable=%.10g streaming=%.10g\n", log(naive), logsumexp(small, 5),
           logsumexp_streaming(small, 5));

    const double large[4] = {1000.0, 1001.0, 999.5, 1000.25};
    printf("large: stable=%.10g streaming=%.10g\n", logsumexp(large, 4), logsumexp_streaming(large, 4));
    const double negative[4] = {-800.0, -799.0, -801.5, -798.75};
    printf("negative: stable=%.10g streaming=%.10g\n", logsumexp(negative, 4), logsumexp_streaming(negative, 4));

    double logits[6], lsm[6], total = 0.0;
    for (int i = 0; i < 6; i++)
        logits[i] = 3.0 * sin(1.7 * i) + 0.5 * i;
    double z = logsumexp(logits, 6);
    for (int i = 0; i < 6; i++) {
        lsm[i] = logits[i] - z;
        total += exp(lsm[i]);
        printf("log_softmax[%d] = %.10g\n", i, lsm[i]);
    }
    printf("sum of softmax = %.10g\n", total);

    int obs[60];
    for (int t = 0; t < 60; t++)
        obs[t] = (t * t + 3 * t) % 3;
    printf("HMM log-likelihood T=10: %.10g T=60: %.10g\n", hmm_log_likelihood(obs, 10), hmm_log_likelihood(obs, 60));
    return 0;
}
