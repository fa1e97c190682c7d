#pragma once
// Enumerators by the names files and command lines spell them: one table per
// enum, read both ways. A value may have aliases; its first name is the one
// printed.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace collsim {

template <typename T, std::size_t N>
using NameTable = std::array<std::pair<std::string_view, T>, N>;

template <typename T, std::size_t N>
constexpr std::string_view name_in(const NameTable<T, N>& table, T value, std::string_view missing = "?") {
    for (const auto& [name, v] : table)
        if (v == value) return name;
    return missing;
}

template <typename T, std::size_t N>
constexpr std::optional<T> value_in(const NameTable<T, N>& table, std::string_view name) {
    for (const auto& [n, v] : table)
        if (n == name) return v;
    return std::nullopt;
}

}  // namespace collsim
