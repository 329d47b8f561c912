/* IR: setjmp/longjmp (returns_twice calls), volatile locals across longjmp, non-local exit from nested calls, error-recovery loop. */
#include <stdio.h>
#include <setjmp.h>
#include <string.h>

static jmp_buf parse_error;
static const char *error_message;

static void fail(const char *msg)
{
    error_message = msg;
    longjmp(parse_error, 1);
}

/* Parses a comma-separated list of non-negative integers; errors jump out. */
static int parse_number(const char **p)
{
    int v = 0, digits = 0;
    while (**p >= '0' && **p <= '9') {
        v = v * 10 + (**p - '0');
        (*p)++;
        if (++digits > 6)
            fail("number too long");
    }
    if (digits == 0)
        fail("expected digit");
    return v;
}

static int parse_list(const char *text, int *out, int cap)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        if (n == cap)
            fail("too many values");
        out[n++] = parse_number(&p);
        if (*p == '\0')
            return n;
        if (*p != ',')
            fail("expected comma");
        p++;
    }
}

/* Each call returns the sum, or -1 after recovering from an error. */
static long try_sum(const char *text)
{
    int values[8];
    volatile int attempts = 0; /* must survive the longjmp */
    if (setjmp(parse_error) != 0) {
        printf("  error in \"%s\": %s (attempts=%d)\n", text, error_message, attempts);
        return -1;
    }
    attempts++;
    int n = parse_list(text, values, 8);
    long s = 0;
    for (int i = 0; i < n; i++)
        s += values[i];
    return s;
}

static jmp_buf retry_point;
static int flaky_calls;
static double flaky_sqrt(double x)
{
    if (++flaky_calls < 3)
        longjmp(retry_point, flaky_calls);
    double r = x;
    for (int i = 0; i < 30; i++)
        r = 0.5 * (r + x / r);
    return r;
}

int main(void)
{
    const char *inputs[] = {"1,2,3", "10,20,x", "1234567,1", "5,,6", "1,2,3,4,5,6,7,8,9", "42", "100,200,300,400"};
    for (int i = 0; i < 7; i++)
        printf("sum(\"%s\") = %ld\n", inputs[i], try_sum(inputs[i]));

    volatile int retries = 0;
    int code = setjmp(retry_point);
    if (code != 0) {
        retries++;
        printf("retry after code %d\n", code);
    }
    double r = flaky_sqrt(2.0);
    printf("sqrt(2) = %.17g after %d retries\n", r, retries);
    char msg[32];
    strcpy(msg, error_message ? error_message : "none");
    printf("last error: %s\n", msg);
    return 0;
}
