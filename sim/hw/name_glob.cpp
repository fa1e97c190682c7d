#include "sim/hw/name_glob.hpp"

namespace collsim {

namespace {
// Matches one bracket set at p[i] == '[' against c; returns the index after
// the closing ']', or npos for an unterminated set (then '[' is literal).
std::size_t match_set(std::string_view p, std::size_t i, char c, bool& hit) {
    std::size_t j = i + 1;
    const bool negate = j < p.size() && p[j] == '!';
    if (negate) ++j;
    bool found = false;
    bool first = true;
    for (; j < p.size() && (first || p[j] != ']'); ++j, first = false) {
        if (j + 2 < p.size() && p[j + 1] == '-' && p[j + 2] != ']') {
            found = found || (p[j] <= c && c <= p[j + 2]);
            j += 2;
        } else {
            found = found || p[j] == c;
        }
    }
    if (j >= p.size()) return std::string_view::npos;
    hit = found != negate;
    return j + 1;
}
}  // namespace

bool NameGlob::literal() const { return pattern_.find_first_of("*?[") == std::string::npos; }

// Iterative matching with one backtrack point per `*` (the classic linear
// algorithm for patterns without nested stars).
bool NameGlob::matches(std::string_view name) const {
    std::string_view p = pattern_;
    std::size_t pi = 0, ni = 0;
    std::size_t star = std::string_view::npos, star_ni = 0;
    while (ni < name.size()) {
        if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            star_ni = ni;
            continue;
        }
        if (pi < p.size()) {
            if (p[pi] == '?') {
                ++pi, ++ni;
                continue;
            }
            if (p[pi] == '[') {
                bool hit = false;
                std::size_t next = match_set(p, pi, name[ni], hit);
                if (next != std::string_view::npos) {
                    if (hit) {
                        pi = next, ++ni;
                        continue;
                    }
                } else if (name[ni] == '[') {
                    ++pi, ++ni;
                    continue;
                }
            } else if (p[pi] == name[ni]) {
                ++pi, ++ni;
                continue;
            }
        }
        if (star == std::string_view::npos) return false;
        pi = star + 1;
        ni = ++star_ni;
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

}  // namespace collsim
