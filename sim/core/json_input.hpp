#pragma once
// JSON inputs (replay reports, Chakra and Kineto traces) read with errors
// that name the line and column, as the YAML and CSV readers' do.
#include <string>

#include <nlohmann/json.hpp>

namespace collsim {

// Parses `text`; malformed JSON, nesting deeper than limits::kMaxJsonDepth, or
// a number no double holds (1e400), is an InputError at its place in `name`,
// field "json", saying `expected`.
nlohmann::json parse_json_input(const std::string& text, const std::string& name, const std::string& expected);

// The same checks, keeping only the top-level object's keys and scalar values
// (arrays and objects in it come back empty): enough to tell formats apart
// without holding a large document.
nlohmann::json parse_json_outline(const std::string& text, const std::string& name, const std::string& expected);

// Whether `text` opens as a JSON object (its first non-blank character is '{').
bool looks_like_json(const std::string& text);

}  // namespace collsim
