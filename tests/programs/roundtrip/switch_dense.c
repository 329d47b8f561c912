/* IR: dense switch lowered to a jump table / lookup table, fallthrough between cases, default, switch in a loop. */
#include <stdio.h>

enum opcode { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_DUP, OP_SWAP, OP_NEG, OP_PRINT, OP_HALT };

struct insn {
    enum opcode op;
    long arg;
};

/* A tiny stack machine: the interpreter loop is a dense switch. */
static long run(const struct insn *prog, int trace)
{
    long stack[32];
    int sp = 0;
    for (int pc = 0;; pc++) {
        const struct insn *in = &prog[pc];
        switch (in->op) {
        case OP_PUSH: stack[sp++] = in->arg; break;
        case OP_ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case OP_SUB: sp--; stack[sp - 1] -= stack[sp]; break;
        case OP_MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case OP_DIV: sp--; stack[sp - 1] /= stack[sp]; break;
        case OP_DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case OP_SWAP: {
            long t = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = t;
            break;
        }
        case OP_NEG: stack[sp - 1] = -stack[sp - 1]; break;
        case OP_PRINT:
            if (trace)
                printf("  top = %ld (depth %d)\n", stack[sp - 1], sp);
            break;
        case OP_HALT:
        default:
            return sp > 0 ? stack[sp - 1] : 0;
        }
    }
}

/* Days in a month: cases fall through to share bodies. */
static int days_in_month(int month, int leap)
{
    switch (month) {
    case 2:
        return leap ? 29 : 28;
    case 4:
    case 6:
    case 9:
    case 11:
        return 30;
    default:
        return 31;
    }
}

/* Duff-style fallthrough: number of bonus points accumulates downward. */
static int bonus(int level)
{
    int pts = 0;
    switch (level) {
    case 5: pts += 50; /* fall through */
    case 4: pts += 40; /* fall through */
    case 3: pts += 30; /* fall through */
    case 2: pts += 20; /* fall through */
    case 1: pts += 10; break;
    default: pts = -1; break;
    }
    return pts;
}

/* Switch that becomes a lookup table of constants. */
static double weight_of(char grade)
{
    switch (grade) {
    case 'A': return 4.0;
    case 'B': return 3.0;
    case 'C': return 2.0;
    case 'D': return 1.0;
    case 'E': return 0.5;
    case 'F': return 0.0;
    default: return -1.0;
    }
}

int main(void)
{
    /* (7 + 5) * 3 - 10 / 2, then negate, then 100 / (that) */
    const struct insn prog[] = {
        {OP_PUSH, 7}, {OP_PUSH, 5}, {OP_ADD, 0}, {OP_PUSH, 3}, {OP_MUL, 0}, {OP_PRINT, 0},
        {OP_PUSH, 10}, {OP_PUSH, 2}, {OP_DIV, 0}, {OP_SUB, 0}, {OP_PRINT, 0}, {OP_NEG, 0},
        {OP_DUP, 0}, {OP_MUL, 0}, {OP_PUSH, 1000}, {OP_SWAP, 0}, {OP_DIV, 0}, {OP_PRINT, 0},
        {OP_HALT, 0},
    };
    printf("program result: %ld\n", run(prog, 1));

    int total = 0;
    for (int m = 1; m <= 12; m++)
        total += days_in_month(m, 0);
    printf("days in 2023: %d, in Feb 2024: %d\n", total, days_in_month(2, 1));

    for (int lvl = 0; lvl <= 6; lvl++)
        printf("bonus(%d) = %d\n", lvl, bonus(lvl));

    const char *grades = "ABACFEDBZA";
    double gpa = 0.0;
    int counted = 0;
    for (const char *g = grades; *g; g++) {
        double w = weight_of(*g);
        if (w < 0)
            continue;
        gpa += w;
        counted++;
    }
    printf("gpa = %.17g over %d grades\n", gpa / counted, counted);
    return 0;
}
