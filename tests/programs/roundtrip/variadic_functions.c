/* IR: variadic functions (va_start/va_arg/va_end/va_copy intrinsics), va_list forwarding to vprintf/vsnprintf, promoted argument types. */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

/* Sum of n doubles. */
static double sum_doubles(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s;
}

/* Sum of longs terminated by a zero sentinel. */
static long sum_until_zero(long first, ...)
{
    va_list ap;
    long total = first;
    va_start(ap, first);
    for (long v = va_arg(ap, long); v != 0; v = va_arg(ap, long))
        total += v;
    va_end(ap);
    return total;
}

/* Mini format: 'i' int, 'd' double, 'c' char (promoted to int), 's' string. */
static int describe(char *out, size_t cap, const char *types, ...)
{
    va_list ap, again;
    va_start(ap, types);
    va_copy(again, ap);
    size_t used = 0;
    for (const char *t = types; *t && used < cap; t++) {
        int w = 0;
        switch (*t) {
        case 'i': w = snprintf(out + used, cap - used, "[int %d]", va_arg(ap, int)); break;
        case 'd': w = snprintf(out + used, cap - used, "[dbl %.17g]", va_arg(ap, double)); break;
        case 'c': w = snprintf(out + used, cap - used, "[chr %c]", va_arg(ap, int)); break;
        case 's': w = snprintf(out + used, cap - used, "[str %s]", va_arg(ap, const char *)); break;
        default: break;
        }
        if (w > 0)
            used += (size_t)w;
    }
    va_end(ap);
    /* second pass over the copy: count integers */
    int ints = 0;
    for (const char *t = types; *t; t++) {
        if (*t == 'i' || *t == 'c') {
            (void)va_arg(again, int);
            ints++;
        } else if (*t == 'd') {
            (void)va_arg(again, double);
        } else if (*t == 's') {
            (void)va_arg(again, const char *);
        }
    }
    va_end(again);
    return ints;
}

/* vprintf-style forwarding with a prefix. */
static int log_count;
static void log_msg(const char *level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("[%s #%d] ", level, ++log_count);
    vprintf(fmt, ap);
    va_end(ap);
}

/* Forwarding through two layers of va_list. */
static int vformat_into(char *buf, size_t cap, const char *fmt, va_list ap) { return vsnprintf(buf, cap, fmt, ap); }
static int format_into(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vformat_into(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

int main(void)
{
    printf("sum_doubles = %.17g\n", sum_doubles(5, 1.5, 2.25, -0.125, 1e10, 3.0));
    printf("sum_doubles(0) = %.17g\n", sum_doubles(0));
    printf("sum_until_zero = %ld\n", sum_until_zero(10L, 20L, -5L, 1000000000000L, 7L, 0L));

    char buf[256];
    short sh = -12;
    float fl = 0.1f; /* promoted to double */
    int ints = describe(buf, sizeof buf, "icdsi", 42, 'Z', (double)fl, "hello", (int)sh);
    printf("%s (ints=%d)\n", buf, ints);

    log_msg("info", "starting %s with %d workers\n", "solver", 4);
    log_msg("warn", "residual %.17g above %g\n", 1.0 / 3.0, 1e-6);
    log_msg("error", "%s%c%05d|%-6s|%x\n", "code", '#', 42, "ab", 255u);

    int n = format_into(buf, 16, "%s-%d-%s", "truncated", 12345, "output");
    printf("format_into wrote %d wanted, buffer '%s' len %zu\n", n, buf, strlen(buf));
    return 0;
}
