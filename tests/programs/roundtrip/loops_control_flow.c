/* IR: for/while/do-while loops, nested loops, break/continue, goto out of nested loops, loop-carried phis. */
#include <stdio.h>

/* Number of Collatz steps needed to reach 1 (while loop with a select). */
static int collatz_steps(unsigned long long n)
{
    int steps = 0;
    while (n != 1) {
        n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
        steps++;
    }
    return steps;
}

/* Smallest i <= j with i*i + j*j == target; goto leaves both loops. */
static int sum_of_two_squares(int target, int *pi, int *pj)
{
    for (int i = 0; 2 * i * i <= target; i++) {
        for (int j = i; j * j <= target; j++) {
            int s = i * i + j * j;
            if (s == target) {
                *pi = i;
                *pj = j;
                goto found;
            }
            if (s > target)
                break;
        }
    }
    return 0;
found:
    return 1;
}

/* Number of decimal digits, do-while so that 0 has one digit. */
static int digit_count(long long v)
{
    int d = 0;
    do {
        d++;
        v /= 10;
    } while (v != 0);
    return d;
}

int main(void)
{
    int longest = 0, argmax = 0;
    for (unsigned long long n = 1; n < 3000; n++) {
        int s = collatz_steps(n);
        if (s > longest) {
            longest = s;
            argmax = (int)n;
        }
    }
    printf("collatz: n=%d steps=%d\n", argmax, longest);

    long sum = 0;
    for (int i = 1; i < 1000; i++) {
        if (i % 3 == 0 || i % 5 == 0)
            continue;
        sum += i;
    }
    printf("sum of i<1000 not divisible by 3 or 5: %ld\n", sum);

    const int targets[] = {25, 50, 65, 3, 325, 1000, 1105, 999};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        int i = -1, j = -1;
        if (sum_of_two_squares(targets[t], &i, &j))
            printf("%d = %d^2 + %d^2\n", targets[t], i, j);
        else
            printf("%d is not a sum of two squares\n", targets[t]);
    }

    const long long values[] = {0, 7, -42, 1000, 123456789LL, -9876543210LL};
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
        printf("digits(%lld) = %d\n", values[k], digit_count(values[k]));

    /* Triangular nested loop with a data-dependent inner exit. */
    int lattice = 0, rows_cut = 0;
    for (int x = 0; x < 60; x++) {
        for (int y = 0; y <= x; y++) {
            if (x * y > 900) {
                rows_cut++;
                break;
            }
            if ((x + y) % 7 == 3)
                lattice++;
        }
    }
    printf("lattice=%d rows_cut=%d\n", lattice, rows_cut);

    /* Countdown with two exits from a while(1). */
    int a = 1071, b = 462, iters = 0;
    while (1) {
        if (b == 0)
            break;
        int r = a % b;
        a = b;
        b = r;
        iters++;
    }
    printf("gcd(1071, 462) = %d after %d iterations\n", a, iters);
    return 0;
}
