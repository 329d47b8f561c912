/* IR: singly linked list built with malloc (struct self-pointers, null checks), insertion sorted, reversal, removal, pointer-to-pointer updates, free. */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int key;
    double value;
    struct node *next;
};

static struct node *node_new(int key, double value)
{
    struct node *n = malloc(sizeof *n);
    if (!n) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    n->key = key;
    n->value = value;
    n->next = NULL;
    return n;
}

/* Insert keeping keys ascending, using a pointer to the link to update. */
static void insert_sorted(struct node **head, struct node *n)
{
    struct node **link = head;
    while (*link && (*link)->key < n->key)
        link = &(*link)->next;
    n->next = *link;
    *link = n;
}

static int remove_key(struct node **head, int key)
{
    for (struct node **link = head; *link; link = &(*link)->next) {
        if ((*link)->key == key) {
            struct node *dead = *link;
            *link = dead->next;
            free(dead);
            return 1;
        }
    }
    return 0;
}

static struct node *reverse(struct node *head)
{
    struct node *prev = NULL;
    while (head) {
        struct node *next = head->next;
        head->next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

static void print_list(const char *label, const struct node *n)
{
    printf("%s:", label);
    for (; n; n = n->next)
        printf(" %d", n->key);
    printf("\n");
}

static void free_list(struct node *n)
{
    while (n) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
}

int main(void)
{
    struct node *head = NULL;
    for (int i = 0; i < 15; i++) {
        int key = (i * 37 + 11) % 50;
        insert_sorted(&head, node_new(key, key * 0.5 + i));
    }
    print_list("sorted", head);
    int removed = remove_key(&head, 11) + remove_key(&head, 49) + remove_key(&head, 1000);
    printf("removed %d keys\n", removed);
    print_list("after remove", head);
    head = reverse(head);
    print_list("reversed", head);

    double total = 0.0;
    int count = 0;
    const struct node *best = head;
    for (const struct node *n = head; n; n = n->next) {
        total += n->value;
        count++;
        if (n->value > best->value)
            best = n;
    }
    printf("count=%d mean value=%.17g max value %.17g at key %d\n", count, total / count, best->value, best->key);

    /* Middle element by slow/fast pointers. */
    const struct node *slow = head, *fast = head;
    while (fast && fast->next) {
        slow = slow->next;
        fast = fast->next->next;
    }
    printf("middle key=%d\n", slow->key);
    free_list(head);
    return 0;
}
