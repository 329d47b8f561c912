// IR: operator new/delete and new[]/delete[] (_Znwm/_ZdlPv calls), class-specific operator new with a free-list pool, placement new, copy/move constructors, unique_ptr ownership.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

// A particle allocated from a small free-list pool via class-specific operator new.
struct Particle {
    double x, y, vx, vy;
    Particle(double x0, double y0, double vx0, double vy0) : x(x0), y(y0), vx(vx0), vy(vy0) {}
    static void *operator new(std::size_t size);
    static void operator delete(void *p) noexcept;
    static int pool_hits, pool_misses;
};
int Particle::pool_hits = 0, Particle::pool_misses = 0;
static void *free_list = nullptr;

void *Particle::operator new(std::size_t size)
{
    if (free_list) {
        void *p = free_list;
        free_list = *static_cast<void **>(p);
        ++pool_hits;
        return p;
    }
    ++pool_misses;
    return ::operator new(size);
}
void Particle::operator delete(void *p) noexcept
{
    *static_cast<void **>(p) = free_list;
    free_list = p;
}
static void drain_pool()
{
    while (free_list) {
        void *next = *static_cast<void **>(free_list);
        ::operator delete(free_list);
        free_list = next;
    }
}

// Owning buffer with deep copy and move semantics.
class Buffer {
public:
    explicit Buffer(std::size_t n) : n_(n), data_(new double[n]()) { ++constructed; }
    Buffer(const Buffer &o) : n_(o.n_), data_(new double[o.n_])
    {
        std::memcpy(data_, o.data_, n_ * sizeof(double));
        ++copies;
    }
    Buffer(Buffer &&o) noexcept : n_(o.n_), data_(o.data_)
    {
        o.data_ = nullptr;
        o.n_ = 0;
        ++moves;
    }
    Buffer &operator=(Buffer o) noexcept
    {
        std::swap(n_, o.n_);
        std::swap(data_, o.data_);
        return *this;
    }
    ~Buffer() { delete[] data_; }
    double &operator[](std::size_t i) { return data_[i]; }
    double sum() const
    {
        double s = 0.0;
        for (std::size_t i = 0; i < n_; i++)
            s += data_[i];
        return s;
    }
    std::size_t size() const { return n_; }
    static int constructed, copies, moves;

private:
    std::size_t n_;
    double *data_;
};
int Buffer::constructed = 0, Buffer::copies = 0, Buffer::moves = 0;

static Buffer make_ramp(std::size_t n)
{
    Buffer b(n);
    for (std::size_t i = 0; i < n; i++)
        b[i] = 0.5 * static_cast<double>(i);
    return b;
}

int main()
{
    Particle *ps[8];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 8; i++)
            ps[i] = new Particle(i, -i, 0.5 * i, 1.0);
        double cx = 0.0;
        for (int i = 0; i < 8; i++) {
            ps[i]->x += ps[i]->vx * 2.0;
            cx += ps[i]->x;
        }
        std::printf("round %d: mean x = %.17g\n", round, cx / 8.0);
        for (int i = 7; i >= 0; i--)
            delete ps[i];
    }
    std::printf("pool hits=%d misses=%d\n", Particle::pool_hits, Particle::pool_misses);
    drain_pool();

    Buffer a = make_ramp(100);
    Buffer b = a;            // copy
    Buffer c = std::move(a); // move
    b[0] = 1000.0;
    a = Buffer(3);           // move-assign through by-value parameter
    std::printf("sums: a=%.17g b=%.17g c=%.17g sizes %zu %zu %zu\n", a.sum(), b.sum(), c.sum(), a.size(), b.size(),
                c.size());
    std::printf("constructed=%d copies=%d moves=%d\n", Buffer::constructed, Buffer::copies, Buffer::moves);

    int *counts = new int[16]();
    for (int i = 0; i < 100; i++)
        counts[(i * i) % 16]++;
    std::printf("squares mod 16:");
    for (int i = 0; i < 16; i++)
        if (counts[i])
            std::printf(" %d:%d", i, counts[i]);
    std::printf("\n");
    delete[] counts;

    alignas(Particle) unsigned char storage[sizeof(Particle)];
    Particle *placed = ::new (storage) Particle(1.0, 2.0, 3.0, 4.0);
    std::printf("placement new: %.17g %.17g, in storage: %d\n", placed->x + placed->vx, placed->y * placed->vy,
                static_cast<void *>(placed) == static_cast<void *>(storage));
    placed->~Particle();

    auto owned = std::make_unique<Buffer>(10);
    for (std::size_t i = 0; i < owned->size(); i++)
        (*owned)[i] = 1.0 / (1.0 + i);
    std::unique_ptr<Buffer> taken = std::move(owned);
    std::printf("unique_ptr moved: owned=%d taken sum=%.17g\n", owned != nullptr, taken->sum());
    return 0;
}
