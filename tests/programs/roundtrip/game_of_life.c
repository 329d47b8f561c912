/* IR: cellular automata on char grids (toroidal wraparound with modulo, neighbour-count loops, double buffering via memcpy), 1-D rule 110 with bit indexing. */
#include <stdio.h>
#include <string.h>

#define W 24
#define H 16

static unsigned char grid[H][W], next[H][W];

static int neighbours(int y, int x)
{
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (dy == 0 && dx == 0)
                continue;
            n += grid[(y + dy + H) % H][(x + dx + W) % W];
        }
    return n;
}

static int population(void)
{
    int p = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            p += grid[y][x];
    return p;
}

static void life_step(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int n = neighbours(y, x);
            next[y][x] = (unsigned char)(n == 3 || (n == 2 && grid[y][x]));
        }
    memcpy(grid, next, sizeof grid);
}

int main(void)
{
    /* A glider, a blinker and an R-pentomino. */
    const int cells[][2] = {{1, 2}, {2, 3}, {3, 1}, {3, 2}, {3, 3}, {10, 15}, {10, 16}, {10, 17},
                            {5, 12}, {5, 13}, {6, 11}, {6, 12}, {7, 12}};
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
        grid[cells[i][0]][cells[i][1]] = 1;
    for (int gen = 0; gen <= 40; gen++) {
        if (gen % 8 == 0)
            printf("gen %2d population %d\n", gen, population());
        if (gen < 40)
            life_step();
    }
    for (int y = 0; y < H; y++) {
        char row[W + 1];
        for (int x = 0; x < W; x++)
            row[x] = grid[y][x] ? '#' : '.';
        row[W] = '\0';
        printf("%s\n", row);
    }

    /* Elementary automaton rule 110 on a 64-cell ring. */
    unsigned long long cells1d = 1ull << 63;
    const unsigned rule = 110;
    for (int step = 0; step < 12; step++) {
        char line[65];
        for (int i = 0; i < 64; i++)
            line[i] = (cells1d >> (63 - i)) & 1 ? '*' : ' ';
        line[64] = '\0';
        printf("|%s|\n", line);
        unsigned long long nxt = 0;
        for (int i = 0; i < 64; i++) {
            unsigned l = (cells1d >> ((i + 1) & 63)) & 1, c = (cells1d >> i) & 1, r = (cells1d >> ((i + 63) & 63)) & 1;
            nxt |= (unsigned long long)((rule >> (l << 2 | c << 1 | r)) & 1) << i;
        }
        cells1d = nxt;
    }
    return 0;
}
