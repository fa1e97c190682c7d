#include "sim/core/units.hpp"

#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/decimal.hpp"

namespace collsim {

Time transfer_time(Bytes b, Bandwidth bw) {
    if (bw.bps() <= 0) throw std::invalid_argument("transfer over a link with no bandwidth");
    __int128 num = static_cast<__int128>(b.count()) * 1'000'000'000'000;
    __int128 ps = (num + bw.bps() - 1) / bw.bps();
    if (ps > INT64_MAX) return Time::max();
    return Time::from_ps(static_cast<int64_t>(ps));
}

namespace {
struct Scale {
    std::string_view unit;
    int64_t mul;
    int64_t div;
};

constexpr int64_t kKi = 1024, kMi = kKi * 1024, kGi = kMi * 1024, kTi = kGi * 1024;

constexpr std::array<Scale, 17> kSizeUnits{{
    {"", 1, 1}, {"B", 1, 1},
    {"K", kKi, 1}, {"KiB", kKi, 1}, {"KB", 1000, 1},
    {"M", kMi, 1}, {"MiB", kMi, 1}, {"MB", 1'000'000, 1},
    {"G", kGi, 1}, {"GiB", kGi, 1}, {"GB", 1'000'000'000, 1},
    {"T", kTi, 1}, {"TiB", kTi, 1}, {"TB", 1'000'000'000'000, 1},
    {"k", kKi, 1}, {"m", kMi, 1}, {"g", kGi, 1},
}};

constexpr std::array<Scale, 12> kBandwidthUnits{{
    {"B/s", 1, 1}, {"KB/s", 1000, 1}, {"MB/s", 1'000'000, 1}, {"GB/s", 1'000'000'000, 1},
    {"TB/s", 1'000'000'000'000, 1},
    {"b/s", 1, 8}, {"Kb/s", 1000, 8}, {"Mb/s", 1'000'000, 8}, {"Gb/s", 1'000'000'000, 8},
    {"Tb/s", 1'000'000'000'000, 8},
    {"GiB/s", kGi, 1}, {"MiB/s", kMi, 1},
}};
}  // namespace

Bytes parse_size(std::string_view text) {
    auto q = split_quantity(text);
    if (!q || q->number.negative)
        throw std::invalid_argument("a size like '8', '64K', '1MiB' or '1G'");
    for (const auto& s : kSizeUnits) {
        if (q->unit == s.unit) {
            auto v = scale_decimal(q->number, s.mul, s.div);
            if (!v) throw std::invalid_argument("a size below 8 EiB");
            return Bytes(*v);
        }
    }
    throw std::invalid_argument("a size unit: none, K, M, G, T (powers of two), KiB..TiB or KB..TB");
}

Bandwidth parse_bandwidth(std::string_view text) {
    auto q = split_quantity(text);
    if (!q) throw std::invalid_argument("a bandwidth with a unit, like '400Gb/s' or '50GB/s'");
    if (q->unit.empty())
        throw std::invalid_argument("a unit after the number (GB/s for bytes, Gb/s for bits)");
    for (const auto& s : kBandwidthUnits) {
        if (q->unit == s.unit) {
            auto v = scale_decimal(q->number, s.mul, s.div);
            if (!v) throw std::invalid_argument("a bandwidth below 9 EB/s");
            if (*v <= 0) throw std::invalid_argument("a positive bandwidth");
            return Bandwidth::bytes_per_s(*v);
        }
    }
    throw std::invalid_argument("a bandwidth unit: B/s, KB/s, MB/s, GB/s, TB/s, GiB/s or bits: Gb/s, Mb/s");
}

std::string format_bandwidth(Bandwidth bw) {
    return fmt::format("{:.6g}GB/s", bw.gbps());
}

}  // namespace collsim
