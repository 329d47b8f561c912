/* IR: character-level scanning loops, ctype classification, token structs with enum kinds, strtod/strtol parsing, pointer ranges into a buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

enum kind { TOK_NUMBER, TOK_IDENT, TOK_STRING, TOK_OP, TOK_END, TOK_ERROR };
static const char *const kind_names[] = {"number", "ident", "string", "op", "end", "error"};

struct token {
    enum kind kind;
    const char *start;
    int len;
    double number;
};

struct lexer {
    const char *p;
    int line;
};

static struct token next_token(struct lexer *lx)
{
    while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n') {
        if (*lx->p == '\n')
            lx->line++;
        lx->p++;
    }
    struct token t = {TOK_END, lx->p, 0, 0.0};
    const char *s = lx->p;
    if (*s == '\0')
        return t;
    if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
        char *end;
        t.kind = TOK_NUMBER;
        t.number = strtod(s, &end);
        lx->p = end;
    } else if (isalpha((unsigned char)*s) || *s == '_') {
        t.kind = TOK_IDENT;
        while (isalnum((unsigned char)*lx->p) || *lx->p == '_')
            lx->p++;
    } else if (*s == '"') {
        const char *q = strchr(s + 1, '"');
        if (!q) {
            t.kind = TOK_ERROR;
            lx->p = s + strlen(s);
        } else {
            t.kind = TOK_STRING;
            lx->p = q + 1;
        }
    } else if (strchr("+-*/=<>!(),;", *s)) {
        t.kind = TOK_OP;
        lx->p++;
        if ((*s == '=' || *s == '<' || *s == '>' || *s == '!') && *lx->p == '=')
            lx->p++;
    } else {
        t.kind = TOK_ERROR;
        lx->p++;
    }
    t.len = (int)(lx->p - s);
    return t;
}

/* Split a CSV-like line on a delimiter, honouring empty fields. */
static int split_fields(const char *line, char delim, char fields[][16], int max)
{
    int n = 0;
    const char *start = line;
    for (const char *c = line;; c++) {
        if (*c == delim || *c == '\0') {
            if (n < max) {
                size_t len = (size_t)(c - start);
                if (len > 15)
                    len = 15;
                memcpy(fields[n], start, len);
                fields[n][len] = '\0';
                n++;
            }
            if (*c == '\0')
                break;
            start = c + 1;
        }
    }
    return n;
}

int main(void)
{
    const char *src = "let rate = 0.075;\nif (years >= 10) total = principal * 1.5e3\n  print(\"done\", x_1 != 42) $ \"open";
    struct lexer lx = {src, 1};
    int counts[6] = {0};
    double numsum = 0.0;
    for (;;) {
        struct token t = next_token(&lx);
        counts[t.kind]++;
        if (t.kind == TOK_END)
            break;
        if (t.kind == TOK_NUMBER)
            numsum += t.number;
        printf("line %d %-6s '%.*s'\n", lx.line, kind_names[t.kind], t.len, t.start);
    }
    printf("numbers=%d idents=%d strings=%d ops=%d errors=%d numsum=%.17g\n", counts[TOK_NUMBER], counts[TOK_IDENT],
           counts[TOK_STRING], counts[TOK_OP], counts[TOK_ERROR], numsum);

    char fields[8][16];
    int n = split_fields("2024,,oslo,-12,3.25,averyveryverylongfield", ',', fields, 8);
    long isum = 0;
    for (int i = 0; i < n; i++) {
        char *end;
        long v = strtol(fields[i], &end, 10);
        if (end != fields[i] && *end == '\0')
            isum += v;
        printf("field %d: '%s'\n", i, fields[i]);
    }
    printf("%d fields, integer sum %ld\n", n, isum);
    return 0;
}
