/* IR: binary search tree with malloc'd nodes, recursive insert/traverse/height/free, iterative lookup, callbacks for in-order visits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tree {
    char word[16];
    int count;
    struct tree *left, *right;
};

static struct tree *insert(struct tree *t, const char *word)
{
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            exit(1);
        strncpy(t->word, word, sizeof t->word - 1);
        t->count = 1;
        return t;
    }
    int c = strcmp(word, t->word);
    if (c < 0)
        t->left = insert(t->left, word);
    else if (c > 0)
        t->right = insert(t->right, word);
    else
        t->count++;
    return t;
}

static const struct tree *find(const struct tree *t, const char *word)
{
    while (t) {
        int c = strcmp(word, t->word);
        if (c == 0)
            return t;
        t = c < 0 ? t->left : t->right;
    }
    return NULL;
}

static int height(const struct tree *t)
{
    if (!t)
        return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}

static void in_order(const struct tree *t, void (*visit)(const struct tree *, void *), void *ctx)
{
    if (!t)
        return;
    in_order(t->left, visit, ctx);
    visit(t, ctx);
    in_order(t->right, visit, ctx);
}

static void print_node(const struct tree *t, void *ctx)
{
    int *col = ctx;
    printf("%s:%d%s", t->word, t->count, (++*col % 6 == 0) ? "\n" : " ");
}

static void count_total(const struct tree *t, void *ctx) { *(int *)ctx += t->count; }

static void free_tree(struct tree *t)
{
    if (!t)
        return;
    free_tree(t->left);
    free_tree(t->right);
    free(t);
}

int main(void)
{
    const char *text = "the quick brown fox jumps over the lazy dog while the cat naps and the dog barks at "
                       "the fox who jumps again over a brown log near the quick river";
    struct tree *root = NULL;
    char word[16];
    const char *p = text;
    while (*p) {
        int n = 0;
        while (*p && *p != ' ') {
            if (n < 15)
                word[n++] = *p;
            p++;
        }
        word[n] = '\0';
        if (n)
            root = insert(root, word);
        while (*p == ' ')
            p++;
    }
    int col = 0, total = 0;
    in_order(root, print_node, &col);
    printf("\n");
    in_order(root, count_total, &total);
    printf("total words=%d height=%d\n", total, height(root));
    const char *queries[] = {"the", "fox", "zebra", "a", "river"};
    for (int i = 0; i < 5; i++) {
        const struct tree *t = find(root, queries[i]);
        printf("find %s -> %d\n", queries[i], t ? t->count : 0);
    }
    free_tree(root);
    return 0;
}
