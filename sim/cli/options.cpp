#include "sim/cli/options.hpp"

#include <charconv>

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/core/error.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/validate/nccl_env.hpp"
#include "sim/validate/text_fields.hpp"

namespace collsim {

void bad_option(const std::string& option, std::string expected, const std::string& found) {
    throw InputError(SourceLocation{}, option, std::move(expected), fmt::format("'{}'", found));
}

std::optional<Time> parse_positive_time(const std::string& option, const std::string& text) {
    if (text.empty()) return std::nullopt;
    Time t{};
    try {
        t = parse_time(text);
    } catch (const std::invalid_argument& e) {
        bad_option(option, e.what(), text);
    }
    if (t <= Time{}) bad_option(option, "a positive time", text);
    return t;
}

std::optional<Time> parse_timeout(const std::string& text) { return parse_positive_time("--timeout", text); }

bool parse_on_off(const std::string& option, const std::string& text) {
    if (text == "on") return true;
    if (text == "off") return false;
    bad_option(option, "on or off", text);
}

std::optional<int32_t> parse_int32(std::string_view text) {
    int32_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return v;
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t pos = text.find(',', start);
        out.push_back(text.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
        if (pos == std::string::npos) return out;
        start = pos + 1;
    }
}

void add_algorithm_switches(CLI::App* c, std::vector<std::string>& disable, std::vector<std::string>& enable) {
    accept_nccl_algorithm_names(
        c->add_option("--disable", disable,
                      "algorithms NCCL was told not to use, e.g. nvls,collnet (NCCL_NVLS_ENABLE=0, "
                      "NCCL_COLLNET_ENABLE=0): " + algorithm_choices())
            ->delimiter(','));
    accept_nccl_algorithm_names(
        c->add_option("--enable", enable, "algorithms NCCL leaves off unless told: collnet (NCCL_COLLNET_ENABLE=1)")
            ->delimiter(','));
}

void check_algorithm_switches(const std::vector<std::string>& disabled, const std::vector<std::string>& enabled) {
    for (const std::string& name : disabled)
        if (!find_algorithm(name)) bad_option("--disable", algorithm_choices(), name);
    for (const std::string& name : enabled) {
        const AlgorithmInfo* a = find_algorithm(name);
        if (!a || a->enabled_by.empty())
            bad_option("--enable", off_by_default_choices(), name);
        if (std::find(disabled.begin(), disabled.end(), name) != disabled.end())
            bad_option("--enable", "an algorithm that --disable does not also name", name);
    }
}

namespace {
// A transform that rewrites the value and never refuses it.
CLI::Validator spelling(std::string (*canonical)(const std::string&)) {
    return CLI::Validator([canonical](std::string& value) {
        value = canonical(value);
        return std::string();
    }, "");
}

std::string canonical_algorithm(const std::string& name) {
    const std::string lower = lower_case(name);
    if (lower == "auto" || find_algorithm(lower)) return lower;
    return algorithm_for_nccl_name(lower).value_or(name);
}

std::string canonical_protocol(const std::string& name) {
    const std::string lower = lower_case(name);
    return lower == "auto" || proto_kind_from(lower) ? lower : name;
}

std::string canonical_collective(const std::string& name) {
    std::string joined;
    for (char c : lower_case(name))
        if (c != '_') joined += c;
    return coll_op_from(joined) ? joined : name;
}
}  // namespace

void accept_nccl_algorithm_names(CLI::Option* o) { o->transform(spelling(canonical_algorithm)); }
void accept_nccl_protocol_names(CLI::Option* o) { o->transform(spelling(canonical_protocol)); }
void accept_nccl_collective_names(CLI::Option* o) { o->transform(spelling(canonical_collective)); }

void add_gpus_per_thread_option(CLI::App* c, int& gpus_per_thread, const std::string& names) {
    c->add_option(names, gpus_per_thread,
                  "GPUs each nccl-tests thread drives (its -g): times are no shorter than that many launches; "
                  "validate and calibrate: where the log does not say it");
}

std::optional<int> gpus_per_thread(int option) {
    if (option == -1) return std::nullopt;
    if (option < 1) bad_option("--gpus-per-thread", "1 or more GPUs per thread", std::to_string(option));
    return option;
}

}  // namespace collsim
