#pragma once
// Shell-style patterns over device names, for overrides and fabric endpoints:
// `*` any run of characters (dots included, so `node*.nic0` spans a whole
// cluster), `?` one character, `[0-7]` / `[abc]` / `[!0]` one character of a
// set. Anything else matches itself.
#include <string>
#include <string_view>

namespace collsim {

class NameGlob {
public:
    explicit NameGlob(std::string pattern) : pattern_(std::move(pattern)) {}
    bool matches(std::string_view name) const;
    // True when the pattern has no wildcard, so it names exactly one device.
    bool literal() const;
    const std::string& pattern() const { return pattern_; }

private:
    std::string pattern_;
};

}  // namespace collsim
