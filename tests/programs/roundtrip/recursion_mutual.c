/* IR: direct recursion, mutual recursion between functions, tail recursion, recursion with arrays (permutations, flood fill). */
#include <stdio.h>

static unsigned long ackermann(unsigned long m, unsigned long n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

/* Mutual recursion: Hofstadter female and male sequences. */
static int hof_male(int n);
static int hof_female(int n) { return n == 0 ? 1 : n - hof_male(hof_female(n - 1)); }
static int hof_male(int n) { return n == 0 ? 0 : n - hof_female(hof_male(n - 1)); }

/* Mutual recursion: recursive-descent expression parser. */
static const char *cursor;
static long parse_expr(void);
static long parse_atom(void)
{
    if (*cursor == '(') {
        cursor++;
        long v = parse_expr();
        cursor++; /* skip ')' */
        return v;
    }
    if (*cursor == '-') {
        cursor++;
        return -parse_atom();
    }
    long v = 0;
    while (*cursor >= '0' && *cursor <= '9')
        v = v * 10 + (*cursor++ - '0');
    return v;
}
static long parse_term(void)
{
    long v = parse_atom();
    while (*cursor == '*' || *cursor == '/') {
        char op = *cursor++;
        long r = parse_atom();
        v = op == '*' ? v * r : v / r;
    }
    return v;
}
static long parse_expr(void)
{
    long v = parse_term();
    while (*cursor == '+' || *cursor == '-') {
        char op = *cursor++;
        long r = parse_term();
        v = op == '+' ? v + r : v - r;
    }
    return v;
}

/* Tail-recursive gcd. */
static long gcd(long a, long b) { return b == 0 ? a : gcd(b, a % b); }

/* Recursive flood fill on a small grid. */
static char grid[6][10] = {
    "#########", "#..#....#", "#..#.##.#", "#....#..#", "####.#..#", "#########",
};
static int flood(int r, int c)
{
    if (r < 0 || r >= 6 || c < 0 || c >= 9 || grid[r][c] != '.')
        return 0;
    grid[r][c] = 'o';
    return 1 + flood(r + 1, c) + flood(r - 1, c) + flood(r, c + 1) + flood(r, c - 1);
}

/* Count permutations of n items where no item stays in place (derangements). */
static int derange(int *perm, int used, int pos, int n)
{
    if (pos == n)
        return 1;
    int count = 0;
    for (int v = 0; v < n; v++) {
        if ((used >> v) & 1 || v == pos)
            continue;
        perm[pos] = v;
        count += derange(perm, used | (1 << v), pos + 1, n);
    }
    return count;
}

int main(void)
{
    printf("ackermann(2,3)=%lu ackermann(3,3)=%lu\n", ackermann(2, 3), ackermann(3, 3));
    printf("female:");
    for (int i = 0; i < 15; i++)
        printf(" %d", hof_female(i));
    printf("\nmale:  ");
    for (int i = 0; i < 15; i++)
        printf(" %d", hof_male(i));
    printf("\n");
    const char *exprs[] = {"1+2*3", "(1+2)*3", "100/(4-(-3*2))", "2*(3+4)*(5-1)-7", "-(8/3)"};
    for (int i = 0; i < 5; i++) {
        cursor = exprs[i];
        printf("%s = %ld\n", exprs[i], parse_expr());
    }
    printf("gcd(1234567890, 987654321) = %ld\n", gcd(1234567890L, 987654321L));
    int filled = flood(1, 1);
    printf("flood filled %d cells\n", filled);
    for (int r = 0; r < 6; r++)
        printf("%s\n", grid[r]);
    int perm[8];
    for (int n = 1; n <= 7; n++)
        printf("derangements(%d) = %d\n", n, derange(perm, 0, 0, n));
    return 0;
}
