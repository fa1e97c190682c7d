#include "sim/validate/text_fields.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace collsim {

namespace {
bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

std::string_view trim(std::string_view s) {
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

std::string lower_case(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<Word> split_words(std::string_view line) {
    std::vector<Word> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && space(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !space(line[i])) ++i;
        if (i > start) out.push_back(Word{line.substr(start, i - start), static_cast<int>(start) + 1});
    }
    return out;
}

std::vector<Word> split_fields(std::string_view line, char sep) {
    std::vector<Word> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = line.find(sep, start);
        const std::string_view raw = line.substr(start, end == std::string_view::npos ? line.npos : end - start);
        std::size_t lead = 0;
        while (lead < raw.size() && space(raw[lead])) ++lead;
        out.push_back(Word{trim(raw), static_cast<int>(start + lead) + 1});
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        out.push_back(line);
        start = end + 1;
    }
    return out;
}

std::optional<double> parse_number(std::string_view s) {
    if (s.empty() || s.size() > 64) return std::nullopt;
    const std::string copy(s);
    char* end = nullptr;
    const double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return std::nullopt;
    // strtod also takes "inf", "nan" and hex floats; nccl-tests prints none.
    if (!digit(copy.front()) && copy.front() != '-' && copy.front() != '+' && copy.front() != '.') return std::nullopt;
    if (copy.find_first_of("xX") != std::string::npos) return std::nullopt;
    return v;
}

std::optional<int64_t> parse_integer(std::string_view s) {
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::string find_version(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!digit(s[i]) || (i > 0 && (digit(s[i - 1]) || s[i - 1] == '.'))) continue;
        std::size_t j = i;
        int parts = 0;
        while (true) {
            const std::size_t k = j;
            while (j < s.size() && digit(s[j])) ++j;
            if (j == k) break;
            ++parts;
            if (parts == 3 || j >= s.size() || s[j] != '.') break;
            ++j;
        }
        if (parts == 3) return std::string(s.substr(i, j - i));
    }
    return {};
}

std::vector<std::pair<int64_t, std::size_t>> gpus_per_thread_mentions(std::string_view s) {
    std::vector<std::pair<int64_t, std::size_t>> out;
    // nccl-tests' -g N, its long form --ngpus N (src/common.cu's getopt
    // table: {"ngpus", required_argument, 0, 'g'}), and 'nGpus N' as its header prints it.
    for (const std::string_view flag : {std::string_view("-g"), std::string_view("--ngpus"), std::string_view("nGpus")}) {
        for (std::size_t at = s.find(flag); at != std::string_view::npos; at = s.find(flag, at + 1)) {
            // A flag of its own ("-g 8", "-g8", "--ngpus=8"), not part of a word ("-gpu", "bf-g 8").
            if (at > 0 && !std::isspace(static_cast<unsigned char>(s[at - 1])) && s[at - 1] != '(') continue;
            std::size_t i = at + flag.size();
            while (i < s.size() && s[i] == ' ') ++i;
            if (flag == "--ngpus" && i < s.size() && s[i] == '=') ++i;
            std::size_t j = i;
            while (j < s.size() && digit(s[j])) ++j;
            if (j == i || (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j])))) continue;
            out.emplace_back(*parse_integer(s.substr(i, j - i)), i);
        }
    }
    return out;
}

std::string nccl_version_from_code(int64_t code) {
    if (code >= 10000) return fmt::format("{}.{}.{}", code / 10000, code % 10000 / 100, code % 100);
    return fmt::format("{}.{}.{}", code / 1000, code % 1000 / 100, code % 100);
}

}  // namespace collsim
