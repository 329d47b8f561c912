// IR: C++ templates (class and function templates, non-type parameters, instantiation for float/double/int), operator overloading, inline member functions, constexpr.
#include <cstdio>
#include <cmath>

template <typename T, int N>
struct Vec {
    T v[N];
    T &operator[](int i) { return v[i]; }
    const T &operator[](int i) const { return v[i]; }
    Vec operator+(const Vec &o) const
    {
        Vec r;
        for (int i = 0; i < N; i++)
            r.v[i] = v[i] + o.v[i];
        return r;
    }
    Vec operator-(const Vec &o) const
    {
        Vec r;
        for (int i = 0; i < N; i++)
            r.v[i] = v[i] - o.v[i];
        return r;
    }
    Vec operator*(T s) const
    {
        Vec r;
        for (int i = 0; i < N; i++)
            r.v[i] = v[i] * s;
        return r;
    }
    Vec &operator+=(const Vec &o)
    {
        for (int i = 0; i < N; i++)
            v[i] += o.v[i];
        return *this;
    }
    bool operator==(const Vec &o) const
    {
        for (int i = 0; i < N; i++)
            if (v[i] != o.v[i])
                return false;
        return true;
    }
};

template <typename T, int N>
T dot(const Vec<T, N> &a, const Vec<T, N> &b)
{
    T s = T(0);
    for (int i = 0; i < N; i++)
        s += a[i] * b[i];
    return s;
}

// Rational numbers with normalisation, as a value type with operators.
class Rational {
public:
    constexpr Rational(long n = 0, long d = 1) : n_(n), d_(d) { normalise(); }
    Rational operator+(const Rational &o) const { return Rational(n_ * o.d_ + o.n_ * d_, d_ * o.d_); }
    Rational operator*(const Rational &o) const { return Rational(n_ * o.n_, d_ * o.d_); }
    Rational operator/(const Rational &o) const { return Rational(n_ * o.d_, d_ * o.n_); }
    Rational operator-() const { return Rational(-n_, d_); }
    bool operator<(const Rational &o) const { return n_ * o.d_ < o.n_ * d_; }
    explicit operator double() const { return double(n_) / double(d_); }
    long num() const { return n_; }
    long den() const { return d_; }

private:
    static constexpr long gcd(long a, long b) { return b == 0 ? (a < 0 ? -a : a) : gcd(b, a % b); }
    constexpr void normalise()
    {
        if (d_ < 0) {
            n_ = -n_;
            d_ = -d_;
        }
        long g = gcd(n_, d_);
        if (g > 1) {
            n_ /= g;
            d_ /= g;
        }
    }
    long n_, d_;
};

template <typename T>
T power(T base, unsigned e)
{
    T result(1);
    while (e) {
        if (e & 1u)
            result = result * base;
        base = base * base;
        e >>= 1;
    }
    return result;
}

template <typename T>
const T &max_of(const T &a, const T &b) { return a < b ? b : a; }

template <int N>
constexpr long factorial() { return N * factorial<N - 1>(); }
template <>
constexpr long factorial<0>() { return 1; }

int main()
{
    Vec<double, 3> a{{1.0, 2.0, 3.0}}, b{{-0.5, 0.25, 4.0}};
    Vec<double, 3> c = (a + b) * 2.0 - a;
    c += b;
    std::printf("c = %.17g %.17g %.17g dot(a,b)=%.17g\n", c[0], c[1], c[2], dot(a, b));
    Vec<int, 4> p{{1, 2, 3, 4}}, q{{4, 3, 2, 1}};
    std::printf("int dot=%d equal=%d sum==5s: %d\n", dot(p, q), p == q, (p + q) == Vec<int, 4>{{5, 5, 5, 5}});
    Vec<float, 2> f{{1.5f, -0.3125f}};
    std::printf("float dot=%.9g\n", static_cast<double>(dot(f, f)));

    Rational h(0);
    for (int k = 1; k <= 10; k++)
        h = h + Rational(1, k);
    std::printf("H10 = %ld/%ld = %.17g\n", h.num(), h.den(), static_cast<double>(h));
    Rational r = power(Rational(-2, 3), 5) / Rational(4, 9);
    std::printf("(-2/3)^5 / (4/9) = %ld/%ld, max(1/3, 2/7) = %ld/%ld\n", r.num(), r.den(),
                max_of(Rational(1, 3), Rational(2, 7)).num(), max_of(Rational(1, 3), Rational(2, 7)).den());
    std::printf("power(1.1, 10)=%.17g power(3L, 20)=%ld\n", power(1.1, 10), power(3L, 20));
    static_assert(factorial<10>() == 3628800L, "compile-time factorial");
    std::printf("factorial<15>() = %ld, max_of(2.5, -1.0) = %.17g\n", factorial<15>(), max_of(2.5, -1.0));
    return 0;
}
