#pragma once
// Byte counts and bandwidths as distinct integer types. GB is 10^9 bytes, GiB is
// 2^30, Gb is 10^9 bits; a bare number is never accepted from a file.
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/time.hpp"

namespace collsim {

class Bytes {
public:
    constexpr Bytes() = default;
    constexpr explicit Bytes(int64_t n) : n_(n) {}
    constexpr int64_t count() const { return n_; }
    constexpr auto operator<=>(const Bytes&) const = default;
    constexpr Bytes operator+(Bytes o) const { return Bytes(n_ + o.n_); }
    constexpr Bytes operator-(Bytes o) const { return Bytes(n_ - o.n_); }
    constexpr Bytes operator*(int64_t k) const { return Bytes(n_ * k); }
    constexpr Bytes operator/(int64_t k) const { return Bytes(n_ / k); }

private:
    int64_t n_ = 0;
};

// Bytes per second, per direction. Integer: 1 B/s resolution is 10^-12 of an
// NVLink port, far below any modelling error, and keeps arithmetic exact.
class Bandwidth {
public:
    constexpr Bandwidth() = default;
    static constexpr Bandwidth bytes_per_s(int64_t v) { return Bandwidth(v); }
    constexpr int64_t bps() const { return v_; }  // bytes per second
    constexpr double gbps() const { return static_cast<double>(v_) / 1e9; }  // GB/s
    constexpr auto operator<=>(const Bandwidth&) const = default;

private:
    constexpr explicit Bandwidth(int64_t v) : v_(v) {}
    int64_t v_ = 0;
};

// Time to push `b` bytes at `bw`, rounded up to the next picosecond.
Time transfer_time(Bytes b, Bandwidth bw);

// "8", "64K", "1MiB", "1G", "512KB": sizes as nccl-tests takes them, where K, M
// and G (with or without "iB") are powers of two; "KB"/"MB"/"GB" are powers of ten.
Bytes parse_size(std::string_view text);

// "400Gb/s", "50GB/s", "3.35TB/s", "900GiB/s". Throws std::invalid_argument.
Bandwidth parse_bandwidth(std::string_view text);

std::string format_bandwidth(Bandwidth bw);

}  // namespace collsim
