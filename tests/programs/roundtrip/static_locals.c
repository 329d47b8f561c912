/* IR: function-local static variables (internal globals), lazy one-time initialisation flags, static arrays used as memo tables. */
#include <stdio.h>
#include <stdint.h>

/* Sequence number generator: state survives between calls. */
static int next_id(void)
{
    static int counter = 1000;
    return counter++;
}

/* Fibonacci with a static memo table. */
static uint64_t fib(int n)
{
    static uint64_t memo[94];
    static int filled = 0;
    if (!filled) {
        memo[0] = 0;
        memo[1] = 1;
        filled = 2;
    }
    while (filled <= n) {
        memo[filled] = memo[filled - 1] + memo[filled - 2];
        filled++;
    }
    return memo[n];
}

/* Exponential moving average with static state and a first-call flag. */
static double ema(double x)
{
    static double avg;
    static int primed;
    const double alpha = 0.25;
    if (!primed) {
        avg = x;
        primed = 1;
    } else {
        avg = alpha * x + (1.0 - alpha) * avg;
    }
    return avg;
}

/* Static const name table plus a static call counter. */
static const char *weekday(int d)
{
    static const char *const names[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    static int calls;
    calls++;
    if (d < 0)
        return calls > 5 ? "many" : "few";
    return names[d % 7];
}

/* Linear congruential generator with static seed (deterministic). */
static uint32_t lcg(void)
{
    static uint32_t state = 12345u;
    state = state * 1664525u + 1013904223u;
    return state;
}

int main(void)
{
    for (int i = 0; i < 3; i++)
        printf("id %d\n", next_id());
    printf("fib(10)=%llu fib(50)=%llu fib(93)=%llu fib(20)=%llu\n", (unsigned long long)fib(10),
           (unsigned long long)fib(50), (unsigned long long)fib(93), (unsigned long long)fib(20));

    const double readings[] = {10.0, 12.0, 11.0, 15.0, 14.0, 13.0, 20.0, 18.0};
    for (int i = 0; i < 8; i++)
        printf("reading %.17g ema %.17g\n", readings[i], ema(readings[i]));

    for (int d = 0; d < 9; d += 2)
        printf("day %d = %s\n", d, weekday(d));
    printf("weekday calls: %s\n", weekday(-1));

    uint32_t x = 0;
    for (int i = 0; i < 1000; i++)
        x ^= lcg();
    printf("lcg xor = %u, next = %u, id = %d\n", x, lcg(), next_id());
    return 0;
}
