/* IR: goto-driven number scanner (many basic blocks, gotos jumping into and between loops), cleanup-by-goto error handling with malloc/free. */
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>

/* Parses numbers like -12.5e3 with a hand-written goto automaton; returns 1 if valid. */
static int scan_number(const char *s, double *out)
{
    double mant = 0.0, scale = 1.0;
    int sign = 1, exp_sign = 1, exponent = 0;
    const char *p = s;

    if (*p == '+' || *p == '-') {
        sign = *p == '-' ? -1 : 1;
        p++;
    }
    if (isdigit((unsigned char)*p))
        goto int_part;
    if (*p == '.')
        goto dot_first;
    return 0;
int_part:
    while (isdigit((unsigned char)*p))
        mant = mant * 10.0 + (*p++ - '0');
    if (*p == '.') {
        p++;
        goto frac_part;
    }
    goto maybe_exp;
dot_first:
    p++;
    if (!isdigit((unsigned char)*p))
        return 0;
frac_part:
    while (isdigit((unsigned char)*p)) {
        scale /= 10.0;
        mant += (*p++ - '0') * scale;
    }
maybe_exp:
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            exp_sign = *p++ == '-' ? -1 : 1;
        if (!isdigit((unsigned char)*p))
            return 0;
        while (isdigit((unsigned char)*p))
            exponent = exponent * 10 + (*p++ - '0');
    }
    if (*p != '\0')
        return 0;
    *out = sign * mant;
    for (int i = 0; i < exponent; i++)
        *out = exp_sign > 0 ? *out * 10.0 : *out / 10.0;
    return 1;
}

/* Allocates three buffers; a failure at any stage jumps to the matching cleanup. */
static int pipeline(int fail_stage, int *result)
{
    int rc = -1;
    int *a = NULL, *b = NULL, *c = NULL;
    a = malloc(16 * sizeof *a);
    if (!a)
        goto out;
    if (fail_stage == 1)
        goto free_a;
    b = malloc(16 * sizeof *b);
    if (!b || fail_stage == 2)
        goto free_b;
    c = malloc(16 * sizeof *c);
    if (!c || fail_stage == 3)
        goto free_c;
    for (int i = 0; i < 16; i++) {
        a[i] = i;
        b[i] = i * i;
        c[i] = a[i] + b[i];
    }
    *result = c[15];
    rc = 0;
free_c:
    free(c);
free_b:
    free(b);
free_a:
    free(a);
out:
    return rc;
}

int main(void)
{
    const char *inputs[] = {"42", "-12.5e3", "+.75", "3.", "1e-2", "abc", "1.2.3", "-", "6.02e23", "7e", ".5E+2"};
    for (int i = 0; i < 11; i++) {
        double v = 0.0;
        if (scan_number(inputs[i], &v))
            printf("%-8s -> %.17g\n", inputs[i], v);
        else
            printf("%-8s -> invalid\n", inputs[i]);
    }
    for (int stage = 0; stage <= 3; stage++) {
        int result = -1;
        int rc = pipeline(stage, &result);
        printf("pipeline(fail at %d): rc=%d result=%d\n", stage, rc, result);
    }
    return 0;
}
