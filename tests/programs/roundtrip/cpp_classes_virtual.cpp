// IR: C++ classes with constructors/destructors, single and multi-level inheritance, virtual dispatch through vtables, pure virtuals, virtual destructors, dynamic_cast/RTTI.
#include <cstdio>
#include <cmath>

static int live_objects = 0;

class Shape {
public:
    explicit Shape(const char *name) : name_(name) { ++live_objects; }
    virtual ~Shape() { --live_objects; }
    virtual double area() const = 0;
    virtual double perimeter() const = 0;
    virtual void scale(double s) = 0;
    const char *name() const { return name_; }
    void describe() const { std::printf("%-9s area=%.17g perimeter=%.17g\n", name_, area(), perimeter()); }

private:
    const char *name_;
};

class Circle : public Shape {
public:
    explicit Circle(double r) : Shape("circle"), r_(r) {}
    double area() const override { return kPi * r_ * r_; }
    double perimeter() const override { return 2.0 * kPi * r_; }
    void scale(double s) override { r_ *= s; }

private:
    static constexpr double kPi = 3.14159265358979323846;
    double r_;
};

class Rect : public Shape {
public:
    Rect(double w, double h) : Rect("rect", w, h) {}
    double area() const override { return w_ * h_; }
    double perimeter() const override { return 2.0 * (w_ + h_); }
    void scale(double s) override { w_ *= s; h_ *= s; }

protected:
    Rect(const char *name, double w, double h) : Shape(name), w_(w), h_(h) {}
    double w_, h_;
};

class Square final : public Rect {
public:
    explicit Square(double side) : Rect("square", side, side) {}
    double diagonal() const { return std::sqrt(2.0) * w_; }
};

class Triangle : public Shape {
public:
    Triangle(double a, double b, double c) : Shape("triangle"), a_(a), b_(b), c_(c) {}
    double area() const override
    {
        double s = 0.5 * perimeter();
        return std::sqrt(s * (s - a_) * (s - b_) * (s - c_));
    }
    double perimeter() const override { return a_ + b_ + c_; }
    void scale(double s) override { a_ *= s; b_ *= s; c_ *= s; }

private:
    double a_, b_, c_;
};

// A class hierarchy with state in the base and a non-virtual interface.
class Account {
public:
    explicit Account(long cents) : balance_(cents) {}
    virtual ~Account() = default;
    void month_end() { balance_ += interest() - fee(); }
    long balance() const { return balance_; }

protected:
    virtual long interest() const { return 0; }
    virtual long fee() const { return 500; }
    long balance_;
};
class Savings : public Account {
public:
    using Account::Account;

protected:
    long interest() const override { return balance_ / 400; }
    long fee() const override { return balance_ > 100000 ? 0 : 200; }
};

int main()
{
    Shape *shapes[] = {new Circle(1.5), new Rect(2.0, 3.5), new Square(4.0), new Triangle(3.0, 4.0, 5.0)};
    std::printf("live objects: %d\n", live_objects);
    double total = 0.0;
    for (Shape *s : shapes) {
        s->describe();
        s->scale(0.5);
        total += s->area();
        if (auto *sq = dynamic_cast<Square *>(s))
            std::printf("  square diagonal after scaling = %.17g\n", sq->diagonal());
        if (dynamic_cast<Rect *>(s) != nullptr)
            std::printf("  %s is a Rect\n", s->name());
    }
    std::printf("total area after scaling = %.17g\n", total);
    for (Shape *s : shapes)
        delete s;
    std::printf("live objects after delete: %d\n", live_objects);

    Account plain(50000);
    Savings saver(50000), rich(200000);
    Account *accounts[] = {&plain, &saver, &rich};
    for (int month = 0; month < 12; month++)
        for (Account *a : accounts)
            a->month_end();
    std::printf("balances after a year: %ld %ld %ld\n", plain.balance(), saver.balance(), rich.balance());
    return 0;
}
