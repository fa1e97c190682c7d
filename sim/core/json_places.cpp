#include "sim/core/json_places.hpp"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/core/text_file.hpp"

namespace collsim {

namespace {
struct PathStep {
    std::string key;                   // an object's member, or
    std::optional<std::size_t> index;  // an array's element
};

// "a.b[2].c" as steps; a malformed index ends the path there.
std::vector<PathStep> steps_of(const std::string& path) {
    std::vector<PathStep> steps;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '.') {
            ++i;
            continue;
        }
        if (path[i] == '[') {
            const std::size_t close = path.find(']', i);
            if (close == std::string::npos || close == i + 1) break;
            std::size_t k = 0;
            for (std::size_t j = i + 1; j < close; ++j) {
                if (path[j] < '0' || path[j] > '9' || k > SIZE_MAX / 16) return steps;
                k = k * 10 + static_cast<std::size_t>(path[j] - '0');
            }
            steps.push_back(PathStep{{}, k});
            i = close + 1;
            continue;
        }
        const std::size_t end = path.find_first_of(".[", i);
        steps.push_back(PathStep{path.substr(i, end == std::string::npos ? std::string::npos : end - i), {}});
        i = end == std::string::npos ? path.size() : end;
    }
    return steps;
}

// A walk over text that nlohmann has already parsed, so it is well formed.
class Walker {
public:
    explicit Walker(const std::string& text) : t_(text) {}

    std::size_t skip_space(std::size_t i) const {
        while (i < t_.size() && (t_[i] == ' ' || t_[i] == '\t' || t_[i] == '\n' || t_[i] == '\r')) ++i;
        return i;
    }
    // Past the string that opens at i (a quote).
    std::size_t skip_string(std::size_t i) const {
        for (++i; i < t_.size() && t_[i] != '"'; ++i)
            if (t_[i] == '\\') ++i;
        return i + 1;
    }
    // Past the value that begins at i; nesting is counted, not recursed into.
    std::size_t skip_value(std::size_t i) const {
        int depth = 0;
        do {
            i = skip_space(i);
            if (i >= t_.size()) return i;
            const char c = t_[i];
            if (c == '"') i = skip_string(i);
            else if (c == '{' || c == '[') ++depth, ++i;
            else if (c == '}' || c == ']') --depth, ++i;
            else if (c == ',' || c == ':') ++i;
            else
                while (i < t_.size() && std::string_view(",]} \t\r\n").find(t_[i]) == std::string_view::npos) ++i;
        } while (depth > 0);
        return i;
    }
    // The start of the member or element `step` names in the value at i.
    std::optional<std::size_t> child(std::size_t i, const PathStep& step) const {
        i = skip_space(i);
        if (i >= t_.size()) return std::nullopt;
        const char open = step.index ? '[' : '{';
        if (t_[i] != open) return std::nullopt;
        i = skip_space(i + 1);
        std::optional<std::size_t> found;
        for (std::size_t k = 0; i < t_.size() && t_[i] != (step.index ? ']' : '}'); ++k) {
            if (!step.index) {
                const std::size_t end = skip_string(i);
                const bool match = t_.compare(i + 1, end - i - 2, step.key) == 0 && end - i - 2 == step.key.size();
                i = skip_space(skip_space(end) + 1);  // past the ':'
                if (match) found = i;                 // the last of duplicate keys, as the parser keeps
            } else if (k == *step.index) {
                return skip_space(i);
            }
            i = skip_space(skip_value(i));
            if (i < t_.size() && t_[i] == ',') i = skip_space(i + 1);
        }
        return found;
    }

    // Where each element of the array that opens at i begins.
    std::vector<std::size_t> elements(std::size_t i) const {
        std::vector<std::size_t> out;
        i = skip_space(i);
        if (i >= t_.size() || t_[i] != '[') return out;
        for (i = skip_space(i + 1); i < t_.size() && t_[i] != ']';) {
            out.push_back(i);
            i = skip_space(skip_value(i));
            if (i < t_.size() && t_[i] == ',') i = skip_space(i + 1);
        }
        return out;
    }

private:
    const std::string& t_;
};
}  // namespace

std::vector<std::size_t> json_element_offsets(const std::string& text, const std::string& path) {
    const Walker w(text);
    std::size_t at = w.skip_space(0);
    for (const PathStep& step : steps_of(path)) {
        const auto next = w.child(at, step);
        if (!next) return {};
        at = *next;
    }
    return w.elements(at);
}

std::string_view json_member_text(const std::string& text, std::size_t object, const std::string& key) {
    const Walker w(text);
    const auto at = w.child(object, PathStep{key, {}});
    if (!at) return {};
    return std::string_view(text).substr(*at, w.skip_value(*at) - *at);
}

SourceLocation json_place(const std::string& text, const std::string& path, const std::string& name) {
    const Walker w(text);
    std::size_t at = w.skip_space(0);
    for (const PathStep& step : steps_of(path)) {
        const auto next = w.child(at, step);
        if (!next) break;
        at = *next;
    }
    return text_position(text, at, name);
}

std::vector<SourceLocation> json_element_places(const std::string& text, const std::string& path,
                                                const std::string& name, std::size_t count) {
    const std::vector<std::size_t> offsets = json_element_offsets(text, path);
    if (offsets.size() != count) return std::vector<SourceLocation>(count, json_place(text, path, name));
    return text_positions(text, offsets, name);
}

}  // namespace collsim
