/* IR: memcpy/memmove/memset (llvm.memcpy/memmove/memset intrinsics), strlen strcmp strncmp strcpy strncpy strcat strchr strstr, byte loops. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

/* Reverse a string in place. */
static void reverse(char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) {
        char t = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = t;
    }
}

/* Remove every occurrence of ch, compacting with memmove. */
static size_t remove_char(char *s, char ch)
{
    size_t removed = 0;
    char *p;
    while ((p = strchr(s, ch)) != NULL) {
        memmove(p, p + 1, strlen(p + 1) + 1);
        removed++;
    }
    return removed;
}

/* Case-insensitive comparison written by hand. */
static int strcasecmp_ascii(const char *a, const char *b)
{
    while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b)) {
        a++;
        b++;
    }
    return tolower((unsigned char)*a) - tolower((unsigned char)*b);
}

int main(void)
{
    char buf[128];
    strcpy(buf, "numerical");
    strcat(buf, " ");
    strcat(buf, "recipes");
    printf("'%s' len=%zu\n", buf, strlen(buf));
    reverse(buf);
    printf("reversed: '%s'\n", buf);
    reverse(buf);

    const char *found = strstr(buf, "rec");
    printf("strstr offset=%td, strchr('i') offset=%td\n", found ? found - buf : -1, strchr(buf, 'i') - buf);
    printf("removed %zu 'e': '%s'\n", remove_char(buf, 'e'), buf);

    const char *names[] = {"alpha", "Alpha", "alphabet", "beta", "ALPHA"};
    for (int i = 1; i < 5; i++)
        printf("strcmp(%s,%s)=%d strncmp5=%d casecmp=%d\n", names[0], names[i],
               (strcmp(names[0], names[i]) > 0) - (strcmp(names[0], names[i]) < 0),
               strncmp(names[0], names[i], 5) == 0, strcasecmp_ascii(names[0], names[i]) == 0);

    /* memset + memcpy on numeric buffers. */
    double a[16], b[16];
    memset(a, 0, sizeof a);
    for (int i = 0; i < 16; i++)
        b[i] = i * 1.5;
    memcpy(a + 4, b, 8 * sizeof(double));
    double s = 0.0;
    for (int i = 0; i < 16; i++)
        s += a[i] * (i + 1);
    printf("weighted sum after memcpy = %.17g\n", s);

    /* Overlapping move to shift an int array right by 3. */
    int ring[16];
    for (int i = 0; i < 16; i++)
        ring[i] = i * i;
    memmove(ring + 3, ring, 13 * sizeof(int));
    memset(ring, 0xff, 3 * sizeof(int));
    printf("shifted:");
    for (int i = 0; i < 16; i++)
        printf(" %d", ring[i]);
    printf("\n");

    char fixed[8];
    strncpy(fixed, "overflowing", sizeof fixed - 1);
    fixed[sizeof fixed - 1] = '\0';
    printf("strncpy truncated: '%s'\n", fixed);

    unsigned char bytes[32];
    memset(bytes, 0xA5, sizeof bytes);
    unsigned sum = 0;
    for (size_t i = 0; i < sizeof bytes; i++)
        sum += bytes[i];
    printf("memcmp equal=%d sum=%u\n", memcmp(bytes, bytes + 16, 16) == 0, sum);
    return 0;
}
