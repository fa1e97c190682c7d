#include "sim/core/yaml_fields.hpp"

#include <iterator>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/input_format.hpp"
#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"

namespace collsim {

SourceLocation YamlFields::at(const YAML::Node& n) const {
    if (n.IsDefined())
        for (const auto& [node, where] : placed_)
            if (node.is(n)) return where;
    YAML::Mark m = n.Mark();
    if (m.line < 0) return SourceLocation{file_, 0, 0};
    return SourceLocation{file_, m.line + 1, m.column + 1};
}

void YamlFields::error(const YAML::Node& n, std::string field, std::string expected, std::string found) {
    errors_.emplace_back(at(n), std::move(field), std::move(expected), std::move(found));
}

void YamlFields::throw_if_errors() {
    if (!errors_.empty()) throw InputErrors(std::move(errors_));
}

void YamlFields::absorb(YamlFields& other) {
    errors_.insert(errors_.end(), std::make_move_iterator(other.errors_.begin()),
                   std::make_move_iterator(other.errors_.end()));
    other.errors_.clear();
}

std::string describe_node(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Null: return "nothing";
        // A file in another format (XML) reads as one long scalar: quote its start only.
        case YAML::NodeType::Scalar: return quote_input(n.Scalar());
        case YAML::NodeType::Sequence: return "a list";
        case YAML::NodeType::Map: return "a mapping";
        default: return "an undefined node";
    }
}

void YamlFields::check_keys(const YAML::Node& map, const std::string& path,
                            std::initializer_list<std::string_view> allowed) {
    for (const auto& kv : map) {
        const std::string key = kv.first.as<std::string>();
        bool known = false;
        std::string choices;
        for (auto a : allowed) {
            known = known || key == a;
            choices += (choices.empty() ? "" : ", ") + std::string(a);
        }
        if (!known) error(kv.first, path + "." + key, "one of the keys " + choices, "unknown key '" + key + "'");
    }
}

bool YamlFields::expect_map(const YAML::Node& n, const std::string& path) {
    if (n.IsMap()) return true;
    error(n, path, "a mapping of fields", describe_node(n));
    return false;
}

bool YamlFields::expect_sequence(const YAML::Node& n, const std::string& path) {
    if (n.IsSequence()) return true;
    error(n, path, "a list", describe_node(n));
    return false;
}

template <class T>
std::optional<T> YamlFields::scalar(const YAML::Node& map, const std::string& path, const char* key,
                                    bool required, const std::function<T(const std::string&)>& parse,
                                    const char* expected) {
    const std::string field = path + "." + key;
    YAML::Node v = map[key];
    if (!v) {
        if (required) error(map, field, std::string(expected) + " (required)", "no such field");
        return std::nullopt;
    }
    if (!v.IsScalar()) {
        error(v, field, expected, describe_node(v));
        return std::nullopt;
    }
    try {
        return parse(v.Scalar());
    } catch (const std::invalid_argument& e) {
        error(v, field, e.what(), describe_node(v));
        return std::nullopt;
    }
}

std::optional<std::string> YamlFields::string(const YAML::Node& map, const std::string& path, const char* key,
                                              bool required) {
    return scalar<std::string>(map, path, key, required, [](const std::string& s) { return s; }, "a string");
}

std::optional<int64_t> YamlFields::integer(const YAML::Node& map, const std::string& path, const char* key,
                                           bool required) {
    return scalar<int64_t>(
        map, path, key, required,
        [](const std::string& s) -> int64_t {
            std::size_t used = 0;
            int64_t v = 0;
            try {
                v = std::stoll(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != s.size()) throw std::invalid_argument("an integer");
            return v;
        },
        "an integer");
}

std::optional<bool> YamlFields::boolean(const YAML::Node& map, const std::string& path, const char* key,
                                        bool required) {
    return scalar<bool>(
        map, path, key, required,
        [](const std::string& s) {
            if (s == "true") return true;
            if (s == "false") return false;
            throw std::invalid_argument("true or false");
        },
        "true or false");
}

std::optional<Time> YamlFields::time(const YAML::Node& map, const std::string& path, const char* key,
                                     bool required) {
    auto t = scalar<Time>(map, path, key, required, [](const std::string& s) { return parse_time(s); },
                          "a time like '600ns'");
    if (t && *t < Time{}) {
        error(map[key], path + "." + key, "a time that is not negative", describe_node(map[key]));
        return std::nullopt;
    }
    return t;
}

std::optional<Bandwidth> YamlFields::bandwidth(const YAML::Node& map, const std::string& path, const char* key,
                                               bool required) {
    return scalar<Bandwidth>(map, path, key, required, [](const std::string& s) { return parse_bandwidth(s); },
                             "a bandwidth like '400Gb/s' or '50GB/s'");
}

namespace {
// yaml-cpp keeps both pairs of a mapping whose key repeats, and a lookup
// finds the first: the second value would be ignored without a word.
void reject_duplicate_keys(const YAML::Node& n, const std::string& path, const std::string& name, int depth,
                           std::size_t& visited) {
    // An alias of its own ancestor never ends; aliases of aliases multiply
    // ("billion laughs"): both bounds are far above any input of ours.
    using limits::kMaxYamlDepth, limits::kMaxYamlNodes;
    if (depth > kMaxYamlDepth || ++visited > kMaxYamlNodes)
        throw InputError(SourceLocation{name, n.Mark().line + 1, n.Mark().column + 1}, path,
                         fmt::format("YAML nested at most {} deep, with at most {} nodes once aliases are expanded "
                                     "(the nesting limits)",
                                     kMaxYamlDepth, kMaxYamlNodes),
                         depth > kMaxYamlDepth ? fmt::format("nesting {} deep", depth)
                                               : fmt::format("more than {} nodes", kMaxYamlNodes));
    if (n.IsSequence())
        for (std::size_t i = 0; i < n.size(); ++i)
            reject_duplicate_keys(n[i], fmt::format("{}[{}]", path, i), name, depth + 1, visited);
    if (!n.IsMap()) return;
    std::map<std::string, int> first_line;
    for (const auto& kv : n) {
        const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "?";
        const std::string field = path.empty() ? key : path + "." + key;
        if (kv.first.IsScalar()) {
            const auto [it, fresh] = first_line.emplace(key, kv.first.Mark().line + 1);
            if (!fresh)
                throw InputError(SourceLocation{name, kv.first.Mark().line + 1, kv.first.Mark().column + 1}, field,
                                 "each key once in a mapping", fmt::format("it again (first at line {})", it->second));
        }
        reject_duplicate_keys(kv.second, field, name, depth + 1, visited);
    }
}
}  // namespace

YAML::Node load_yaml_text(const std::string& text, const std::string& name) {
    refuse_foreign_format(text, name, "YAML");
    YAML::Node doc;
    try {
        doc = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw InputError(SourceLocation{name, e.mark.line + 1, e.mark.column + 1}, "yaml", "well-formed YAML",
                         e.msg);
    }
    // A file of comments alone (one cut inside its header comment) loads as a
    // null node without a place, and errors about it would name no line. With an
    // explicit null after its end, the node's place is the end of the file.
    if (doc.IsNull() && doc.Mark().line < 0) {
        try {
            doc = YAML::Load(text + (text.empty() || text.back() == '\n' ? "~" : "\n~"));
        } catch (const YAML::ParserException&) {  // keeps the null without a place
        }
    }
    std::size_t visited = 0;
    reject_duplicate_keys(doc, "", name, 0, visited);
    return doc;
}

YAML::Node load_yaml_file(const std::string& path) { return load_yaml_text(read_text_file(path), path); }

}  // namespace collsim
