#pragma once
// Reading typed fields out of YAML nodes while collecting every error with its
// file:line:column, the field's path and what was expected. Shared by every
// YAML input (topologies now; traces and fault files later).
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/core/error.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace collsim {

class YamlFields {
public:
    explicit YamlFields(std::string file) : file_(std::move(file)) {}

    SourceLocation at(const YAML::Node& n) const;
    // Errors on `n` (a node a --set put in the tree, which has no place in
    // the file) are located at `where`.
    void place(const YAML::Node& n, SourceLocation where) { placed_.emplace_back(n, std::move(where)); }
    void error(const YAML::Node& n, std::string field, std::string expected, std::string found);
    bool ok() const { return errors_.empty(); }
    // Throws InputErrors if any error was collected.
    void throw_if_errors();
    // Takes over the errors of another file's reader (an included file).
    void absorb(YamlFields& other);
    void add(InputError e) { errors_.push_back(std::move(e)); }

    // Records an error for each key of `map` not in `allowed`.
    void check_keys(const YAML::Node& map, const std::string& path, std::initializer_list<std::string_view> allowed);
    bool expect_map(const YAML::Node& n, const std::string& path);
    bool expect_sequence(const YAML::Node& n, const std::string& path);

    // Each returns nullopt (after recording an error) when the field is missing
    // and required, or present but malformed.
    std::optional<std::string> string(const YAML::Node& map, const std::string& path, const char* key, bool required);
    std::optional<int64_t> integer(const YAML::Node& map, const std::string& path, const char* key, bool required);
    std::optional<bool> boolean(const YAML::Node& map, const std::string& path, const char* key, bool required);
    std::optional<Time> time(const YAML::Node& map, const std::string& path, const char* key, bool required);
    std::optional<Bandwidth> bandwidth(const YAML::Node& map, const std::string& path, const char* key,
                                       bool required);

    const std::string& file() const { return file_; }

private:
    template <class T>
    std::optional<T> scalar(const YAML::Node& map, const std::string& path, const char* key, bool required,
                            const std::function<T(const std::string&)>& parse, const char* expected);

    std::string file_;
    std::vector<InputError> errors_;
    std::vector<std::pair<YAML::Node, SourceLocation>> placed_;
};

// Loads a file as YAML, turning parser errors into an InputError with position.
YAML::Node load_yaml_file(const std::string& path);
YAML::Node load_yaml_text(const std::string& text, const std::string& name);

std::string describe_node(const YAML::Node& n);

}  // namespace collsim
