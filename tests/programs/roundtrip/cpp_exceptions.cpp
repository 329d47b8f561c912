// IR: C++ exceptions (invoke/landingpad/resume, __cxa_throw/__cxa_begin_catch), custom exception hierarchy, rethrow, RAII destructors run during unwinding, noexcept functions.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

static int guards_alive = 0;

struct Guard {
    explicit Guard(const char *what) : what_(what) { ++guards_alive; }
    ~Guard()
    {
        --guards_alive;
        std::printf("    ~Guard(%s)\n", what_);
    }
    Guard(const Guard &) = delete;
    Guard &operator=(const Guard &) = delete;
    const char *what_;
};

class SolverError : public std::runtime_error {
public:
    SolverError(const std::string &msg, int iteration) : std::runtime_error(msg), iteration_(iteration) {}
    int iteration() const { return iteration_; }

private:
    int iteration_;
};
class DivergenceError : public SolverError {
public:
    DivergenceError(int iteration, double residual)
        : SolverError("diverged", iteration), residual_(residual) {}
    double residual() const { return residual_; }

private:
    double residual_;
};

// Fixed-point iteration x = g(x) that throws on divergence or stagnation.
static double fixed_point(double (*g)(double), double x, int max_iter)
{
    Guard guard("fixed_point");
    for (int i = 1; i <= max_iter; i++) {
        double next = g(x);
        double res = next > x ? next - x : x - next;
        if (res > 1e6)
            throw DivergenceError(i, res);
        if (res < 1e-12)
            return next;
        x = next;
    }
    throw SolverError("no convergence", max_iter);
}

static double g_contract(double x) { return 0.5 * (x + 2.0 / x); }
static double g_expand(double x) { return 3.0 * x * x + 1.0; }
static double g_slow(double x) { return 1.0 - 0.999 * x; }

static int parse_positive(const std::string &s)
{
    std::size_t used = 0;
    int v = std::stoi(s, &used); // throws std::invalid_argument / std::out_of_range
    if (used != s.size())
        throw std::invalid_argument("trailing characters in '" + s + "'");
    if (v <= 0)
        throw std::domain_error("not positive: " + s);
    return v;
}

static int sum_all(const std::vector<std::string> &items)
{
    Guard guard("sum_all");
    int total = 0;
    for (const auto &it : items) {
        try {
            total += parse_positive(it);
        } catch (const std::domain_error &e) {
            std::printf("    skipping (%s)\n", e.what());
        }
    }
    return total;
}

static int safe_div(int a, int b) noexcept { return b == 0 ? 0 : a / b; }

int main()
{
    double (*fns[])(double) = {g_contract, g_expand, g_slow};
    const char *names[] = {"contract", "expand", "slow"};
    for (int k = 0; k < 3; k++) {
        try {
            double r = fixed_point(fns[k], 1.0, 50);
            std::printf("%s converged to %.17g\n", names[k], r);
        } catch (const DivergenceError &e) {
            std::printf("%s: %s at iteration %d (residual %.17g)\n", names[k], e.what(), e.iteration(), e.residual());
        } catch (const SolverError &e) {
            std::printf("%s: %s after %d iterations\n", names[k], e.what(), e.iteration());
        }
    }
    std::vector<std::vector<std::string>> batches = {{"10", "20", "-5", "7"}, {"3", "x9", "4"}, {"1", "99999999999"}};
    for (const auto &b : batches) {
        try {
            std::printf("sum = %d\n", sum_all(b));
        } catch (const std::invalid_argument &e) {
            std::printf("invalid argument caught in main\n");
        } catch (const std::exception &e) {
            std::printf("other std::exception caught: out_of_range=%d\n", dynamic_cast<const std::out_of_range *>(&e) != nullptr);
        }
    }
    int rethrown = 0;
    try {
        try {
            throw 42;
        } catch (int v) {
            rethrown = v;
            throw;
        }
    } catch (...) {
        std::printf("rethrown int %d caught by catch(...)\n", rethrown);
    }
    std::printf("guards alive at end: %d, safe_div=%d\n", guards_alive, safe_div(7, 0) + safe_div(9, 2));
    return 0;
}
