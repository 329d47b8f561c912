// IR: std::vector growth and iteration, std::sort with comparators, std::string building/find/substr, std::map ordered insertion/lookup, std::accumulate; heavy inlined template code.
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <string>
#include <vector>

struct Measurement {
    std::string station;
    int day;
    double temperature;
};

int main()
{
    const char *stations[] = {"oslo", "bergen", "tromso", "stavanger"};
    std::vector<Measurement> data;
    for (int day = 0; day < 30; day++)
        for (int s = 0; s < 4; s++) {
            double t = 10.0 - 4.0 * s + 0.25 * ((day * 7 + s * 3) % 13) - 0.5 * (day % 5);
            data.push_back({stations[s], day, t});
        }
    std::printf("measurements: %zu, capacity >= size: %d\n", data.size(), data.capacity() >= data.size());

    std::map<std::string, std::vector<double>> by_station;
    for (const auto &m : data)
        by_station[m.station].push_back(m.temperature);
    for (auto &entry : by_station) {
        std::vector<double> &ts = entry.second;
        std::sort(ts.begin(), ts.end());
        double mean = std::accumulate(ts.begin(), ts.end(), 0.0) / ts.size();
        double median = 0.5 * (ts[ts.size() / 2 - 1] + ts[ts.size() / 2]);
        std::printf("%-10s n=%zu min=%.17g median=%.17g max=%.17g mean=%.17g\n", entry.first.c_str(), ts.size(),
                    ts.front(), median, ts.back(), mean);
    }

    std::sort(data.begin(), data.end(), [](const Measurement &a, const Measurement &b) {
        if (a.temperature != b.temperature)
            return a.temperature > b.temperature;
        return a.station < b.station || (a.station == b.station && a.day < b.day);
    });
    std::printf("warmest three:");
    for (int i = 0; i < 3; i++)
        std::printf(" %s/day%d/%.17g", data[i].station.c_str(), data[i].day, data[i].temperature);
    std::printf("\n");

    auto cold = std::count_if(data.begin(), data.end(), [](const Measurement &m) { return m.temperature < 0.0; });
    std::printf("readings below zero: %ld\n", static_cast<long>(cold));

    std::string report = "stations:";
    for (const auto &entry : by_station)
        report += " " + entry.first;
    report += ";";
    std::size_t pos = report.find("tromso");
    std::printf("%s (len %zu, tromso at %zu, substr='%s')\n", report.c_str(), report.size(), pos,
                report.substr(pos, 3).c_str());

    std::map<int, int> day_count;
    for (const auto &m : data)
        if (m.temperature > 5.0)
            ++day_count[m.day % 7];
    std::printf("warm days by weekday:");
    for (const auto &kv : day_count)
        std::printf(" %d:%d", kv.first, kv.second);
    std::printf("\n");

    std::vector<int> v(20);
    std::iota(v.begin(), v.end(), -7);
    v.erase(std::remove_if(v.begin(), v.end(), [](int x) { return x % 3 == 0; }), v.end());
    std::reverse(v.begin(), v.end());
    std::printf("filtered reversed (%zu):", v.size());
    for (int x : v)
        std::printf(" %d", x);
    std::printf("\nlower_bound(5) in sorted: %ld\n",
                static_cast<long>(std::lower_bound(v.rbegin(), v.rend(), 5) - v.rbegin()));
    return 0;
}
