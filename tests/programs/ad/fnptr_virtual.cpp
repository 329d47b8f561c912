// CFLAGS: -fno-exceptions
// C++ virtual calls: an array of base-class pointers to objects of three derived classes
// (vtables), a virtual method with an active argument and active member data, a virtual
// method writing its result through a reference, and an object built inside the
// differentiated function whose dynamic type depends on an int.
#include "check.h"

extern "C" double __enzyme_autodiff(void *, ...);
extern "C" void __enzyme_autodiff_v(void *, ...);

struct Term {
  virtual double eval(double x) const = 0;
  virtual void accumulate(double x, double &sum) const { sum += eval(x); }
  virtual ~Term() {}
};

struct Power : Term {
  double coef;
  int n;
  Power(double c, int k) : coef(c), n(k) {}
  __attribute__((noinline)) double eval(double x) const override {
    double r = coef;
    for (int i = 0; i < n; i++) r *= x;
    return r;
  }
};

struct Wave : Term {
  double amp, freq;
  Wave(double a, double f) : amp(a), freq(f) {}
  __attribute__((noinline)) double eval(double x) const override { return amp * sin(freq * x); }
  __attribute__((noinline)) void accumulate(double x, double &sum) const override { sum = sum * 0.5 + eval(x) * x; }
};

struct Decay : Term {
  double rate;
  explicit Decay(double r) : rate(r) {}
  __attribute__((noinline)) double eval(double x) const override { return exp(-rate * x * x); }
};

__attribute__((noinline)) double series(Term *const *terms, int n, double x) {
  double s = 0;
  for (int i = 0; i < n; i++) terms[i]->accumulate(x, s);
  for (int i = 0; i < n; i++) s += 0.25 * terms[i]->eval(x + 0.1 * i);
  return s;
}

static double at(double x, Term *const *terms, int n) { return series(terms, n, x); }

// The object lives inside the differentiated function: its coefficient is active.
static double local(double c, double x, int kind) {
  Power p(c, 3);
  Wave w(c, 2.0);
  Term *t = kind ? static_cast<Term *>(&w) : static_cast<Term *>(&p);
  return t->eval(x) * c;
}

static Term *TERMS[3];
static double at_x(double x) { return at(x, TERMS, 3); }
static int KIND;
static double X = 0.7;
static double local_c(double c) { return local(c, X, KIND); }
static double local_x(double x) { return local(1.3, x, KIND); }

int main() {
  Power p(1.5, 3);
  Wave w(0.8, 2.5);
  Decay d(0.6);
  Term *orders[2][3] = {{&p, &w, &d}, {&d, &d, &w}};
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 3; i++) TERMS[i] = orders[k][i];
    double x = 0.9;
    check_close("series d/dx", __enzyme_autodiff((void *)at, x, enzyme_const, TERMS, enzyme_const, 3), fd1(at_x, x), 1e-6);
  }
  for (KIND = 0; KIND < 2; KIND++) {
    double c = 1.3;
    check_close("local d/dc", __enzyme_autodiff((void *)local, c, enzyme_const, X, enzyme_const, KIND), fd1(local_c, c), 1e-6);
    check_close("local d/dx", __enzyme_autodiff((void *)local, enzyme_const, c, X, enzyme_const, KIND), fd1(local_x, X), 1e-6);
  }
  return check_finish();
}
