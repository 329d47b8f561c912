/* IR: sparse switch lowered to compare trees / bit tests, switch on 64-bit and char values, default-only paths. */
#include <stdio.h>
#include <stdint.h>

/* HTTP-like status codes: widely spaced case values. */
static const char *status_text(int code)
{
    switch (code) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 404: return "Not Found";
    case 418: return "I'm a teapot";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
    }
}

/* Character classes: a bit-test friendly switch. */
static int char_class(char c)
{
    switch (c) {
    case ' ': case '\t': case '\n': case '\r':
        return 0; /* whitespace */
    case '+': case '-': case '*': case '/': case '%': case '^':
        return 1; /* operator */
    case '(': case ')': case '[': case ']':
        return 2; /* bracket */
    default:
        return (c >= '0' && c <= '9') ? 3 : 4;
    }
}

/* Switch over 64-bit magic numbers. */
static int decode_tag(uint64_t tag)
{
    switch (tag) {
    case 0x7f454c46ULL: return 1;              /* ELF */
    case 0xcafebabeULL: return 2;              /* class file */
    case 0x89504e470d0a1a0aULL: return 3;      /* PNG */
    case 0xfeedfacfULL: return 4;              /* Mach-O */
    case 0xffffffffffffffffULL: return -1;
    default: return 0;
    }
}

/* Negative and large cases mixed. */
static long scale_for(int exponent)
{
    switch (exponent) {
    case -9: return -1000000000L;
    case -6: return -1000000L;
    case -3: return -1000L;
    case 0: return 1L;
    case 3: return 1000L;
    case 6: return 1000000L;
    case 9: return 1000000000L;
    case 1000: return 42L;
    default: return 0L;
    }
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
int codes[] = {200, 404, 418, 302, 503, 100, 204, 999, 201, 500, 301};
uint64_t tags[] = {0x7f454c46ULL, 0x89504e470d0a1a0aULL, 0x1234ULL, 0xcafebabeULL,
    0xffffffffffffffffULL, 0xfeedfacfULL};

int main(void)
{
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        printf("%d %s\n", codes[i], status_text(codes[i]));

    const char *expr = "(3 + 41) * [x - 7] / 2^5 % y\n";
    int counts[5] = {0};
    for (const char *p = expr; *p; p++)
        counts[char_class(*p)]++;
    printf("ws=%d op=%d br=%d digit=%d other=%d\n", counts[0], counts[1], counts[2], counts[3], counts[4]);

    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        printf("tag %#llx -> %d\n", (unsigned long long)tags[i], decode_tag(tags[i]));

    long acc = 0;
    for (int e = -10; e <= 10; e++)
        acc += scale_for(e) * (e + 11);
    printf("weighted scale sum = %ld, scale(1000) = %ld\n", acc, scale_for(1000));
    return 0;
}
