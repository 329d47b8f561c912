/* IR: arbitrary-precision arithmetic on uint32 limbs with uint64 carries (mul/add/divmod by small ints), base-10^9 printing, i64<->i32 truncation in loops. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define MAXLIMBS 160

struct bignum {
    int n;                  /* number of used limbs, little-endian */
    uint32_t limb[MAXLIMBS];
};

static void big_set(struct bignum *a, uint32_t v)
{
    memset(a, 0, sizeof *a);
    a->limb[0] = v;
    a->n = 1;
}

static void big_mul_small(struct bignum *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->limb[i] * m + carry;
        a->limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < MAXLIMBS)
        a->limb[a->n++] = (uint32_t)carry;
}

static void big_add(struct bignum *a, const struct bignum *b)
{
    uint64_t carry = 0;
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        uint64_t t = (uint64_t)a->limb[i] + b->limb[i] + carry;
        a->limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
    a->n = n;
    if (carry && a->n < MAXLIMBS)
        a->limb[a->n++] = (uint32_t)carry;
}

/* Divides in place, returns the remainder. */
static uint32_t big_divmod_small(struct bignum *a, uint32_t d)
{
    uint64_t rem = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | a->limb[i];
        a->limb[i] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    while (a->n > 1 && a->limb[a->n - 1] == 0)
        a->n--;
    return (uint32_t)rem;
}

static void big_print(const char *label, const struct bignum *a)
{
    static struct bignum tmp;
    uint32_t chunks[MAXLIMBS * 2];
    int nc = 0;
    tmp = *a;
    do {
        chunks[nc++] = big_divmod_small(&tmp, 1000000000u);
    } while (tmp.n > 1 || tmp.limb[0] != 0);
    int digits = 0;
    printf("%s = %u", label, chunks[nc - 1]);
    for (uint32_t c = chunks[nc - 1]; c; c /= 10)
        digits++;
    for (int i = nc - 2; i >= 0; i--) {
        printf("%09u", chunks[i]);
        digits += 9;
    }
    printf(" (%d digits)\n", digits);
}

int main(void)
{
    static struct bignum f, a, b;
    big_set(&f, 1);
    for (uint32_t k = 2; k <= 100; k++) {
        big_mul_small(&f, k);
        if (k == 25 || k == 50)
            big_print(k == 25 ? "25!" : "50!", &f);
    }
    big_print("100!", &f);
    int digit_sum = 0;
    struct bignum t = f;
    while (t.n > 1 || t.limb[0] != 0)
        digit_sum += (int)big_divmod_small(&t, 10);
    printf("digit sum of 100! = %d, limbs = %d\n", digit_sum, f.n);

    big_set(&a, 0);
    big_set(&b, 1);
    for (int i = 0; i < 300; i++) {
        struct bignum next = a;
        big_add(&next, &b);
        a = b;
        b = next;
    }
    big_print("fib(300)", &a);
    struct bignum p;
    big_set(&p, 1);
    for (int i = 0; i < 200; i++)
        big_mul_small(&p, 2);
    big_print("2^200", &p);
    printf("2^200 mod 997 = %u\n", big_divmod_small(&p, 997));
    return 0;
}
