// IR: C++ lambdas (closure structs, captures by value and by reference, mutable, generic lambdas), std::function type erasure (indirect calls), higher-order functions, recursion through std::function.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

template <typename F>
static double integrate(F f, double a, double b, int n)
{
    double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
    for (int i = 1; i < n; i++)
        s += f(a + i * h);
    return s * h;
}

static std::function<double(double)> compose(std::function<double(double)> f, std::function<double(double)> g)
{
    return [f, g](double x) { return f(g(x)); };
}

static std::function<double(double)> derivative(std::function<double(double)> f, double h)
{
    return [f, h](double x) { return (f(x + h) - f(x - h)) / (2.0 * h); };
}

int main()
{
    double k = 3.0;
    auto scaled_sq = [k](double x) { return k * x * x; };
    std::printf("integral of 3x^2 on [0,2] ~ %.17g\n", integrate(scaled_sq, 0.0, 2.0, 1000));

    int calls = 0;
    auto counted = [&calls](double x) {
        ++calls;
        return std::exp(-x);
    };
    double e = integrate(counted, 0.0, 1.0, 200);
    std::printf("integral of exp(-x) on [0,1] ~ %.17g with %d calls\n", e, calls);

    auto next_id = [id = 100]() mutable { return id++; };
    int a = next_id(), b = next_id(), c = next_id();
    std::printf("ids: %d %d %d\n", a, b, c);

    auto add = [](auto x, auto y) { return x + y; };
    std::printf("generic: %d %.17g %ld\n", add(2, 3), add(0.5, 0.25), add(10L, 20L));

    std::vector<std::function<double(double)>> pipeline = {
        [](double x) { return x + 1.0; },
        [](double x) { return x * x; },
        [k](double x) { return x / k; },
    };
    double v = 2.0;
    for (const auto &stage : pipeline)
        v = stage(v);
    std::printf("pipeline(2) = %.17g\n", v);

    auto sin_of_sq = compose([](double x) { return std::sin(x); }, [](double x) { return x * x; });
    auto d_sin_of_sq = derivative(sin_of_sq, 1e-5);
    std::printf("sin(x^2) at 1.2 = %.17g, derivative ~ %.17g (exact %.17g)\n", sin_of_sq(1.2), d_sin_of_sq(1.2),
                2.4 * std::cos(1.44));

    std::function<long(int)> fib = [&fib](int n) -> long { return n < 2 ? n : fib(n - 1) + fib(n - 2); };
    std::printf("fib(25) via recursive std::function = %ld\n", fib(25));

    std::vector<int> xs(15);
    std::iota(xs.begin(), xs.end(), 1);
    int threshold = 7;
    long evens_above = std::count_if(xs.begin(), xs.end(), [threshold](int x) { return x > threshold && x % 2 == 0; });
    std::transform(xs.begin(), xs.end(), xs.begin(), [](int x) { return (x * 37) % 11; });
    std::sort(xs.begin(), xs.end(), [](int p, int q) { return p % 4 != q % 4 ? p % 4 < q % 4 : p < q; });
    std::printf("evens above %d: %ld; sorted by mod 4:", threshold, evens_above);
    std::for_each(xs.begin(), xs.end(), [](int x) { std::printf(" %d", x); });
    std::printf("\nsum of squares = %d\n",
                std::accumulate(xs.begin(), xs.end(), 0, [](int acc, int x) { return acc + x * x; }));
    return 0;
}
