// IR: C++ dynamic initialisation of globals (@llvm.global_ctors, __cxx_global_var_init), global objects with destructors (__cxa_atexit), function-local statics with guards, constexpr globals.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

static std::vector<std::string> init_log;

struct Registry {
    explicit Registry(const char *name) : name_(name) { init_log.push_back(std::string("ctor ") + name); }
    ~Registry() { std::printf("destroying %s\n", name_); }
    void add(const std::string &key, double v) { entries_[key] = v; }
    double get(const std::string &key) const
    {
        auto it = entries_.find(key);
        return it == entries_.end() ? -1.0 : it->second;
    }
    std::size_t size() const { return entries_.size(); }

private:
    const char *name_;
    std::map<std::string, double> entries_;
};

// Dynamically initialised numeric globals (computed at startup, in order of definition).
static const double kPi = std::acos(-1.0);
static const double kTwoPi = 2.0 * kPi;
static double sine_table[64] = {};
static const int table_ready = [] {
    for (int i = 0; i < 64; i++)
        sine_table[i] = std::sin(kTwoPi * i / 64.0);
    init_log.push_back("sine table");
    return 1;
}();

static Registry units("units");
static const bool units_filled = [] {
    units.add("inch", 0.0254);
    units.add("foot", 0.3048);
    units.add("mile", 1609.344);
    units.add("nautical_mile", 1852.0);
    return true;
}();

constexpr int kSquares[] = {0, 1, 4, 9, 16, 25};
std::string banner = std::string("startup ") + std::to_string(sizeof(kSquares) / sizeof(kSquares[0])) + " squares";

// Function-local static: constructed on first call only (guarded).
static Registry &constants()
{
    static Registry reg("constants");
    if (reg.size() == 0) {
        reg.add("c", 299792458.0);
        reg.add("g", 9.80665);
        reg.add("pi", kPi);
    }
    return reg;
}

struct Counter {
    Counter() { ++instances; }
    static int instances;
};
int Counter::instances = 0;
static Counter global_counters[3];

int main()
{
    std::printf("%s\n", banner.c_str());
    for (const auto &line : init_log)
        std::printf("init: %s\n", line.c_str());
    std::printf("table_ready=%d units_filled=%d counters=%d\n", table_ready, units_filled, Counter::instances);
    std::printf("sine_table[8]=%.17g [16]=%.17g [40]=%.17g\n", sine_table[8], sine_table[16], sine_table[40]);
    double sum = 0.0;
    for (double s : sine_table)
        sum += s * s;
    std::printf("sum of sin^2 over table = %.17g\n", sum);
    std::printf("10 miles = %.17g m, 3 feet = %.17g m, parsec = %.17g\n", 10 * units.get("mile"),
                3 * units.get("foot"), units.get("parsec"));
    std::printf("constants: c=%.17g g=%.17g pi=%.17g\n", constants().get("c"), constants().get("g"),
                constants().get("pi"));
    std::printf("constants registry size after repeated calls: %zu\n", constants().size());
    std::printf("kSquares sum: %d\n", kSquares[1] + kSquares[2] + kSquares[3] + kSquares[4] + kSquares[5]);
    return 0;
}
