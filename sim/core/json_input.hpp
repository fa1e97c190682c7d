#pragma once
// JSON inputs (replay reports, Chakra and Kineto traces) read with errors
// that name the line and column, as the YAML and CSV readers' do.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sim/core/limits.hpp"

namespace collsim {

// The deepest nesting of lists and objects a JSON input may have, as the YAML
// reader bounds its own: nlohmann copies and prints values recursively, so a
// value nested a million deep (a fuzzed "args": [[[[...) would overflow the
// stack. Real traces nest a few levels (Kineto's "Input Dims" is 3 deep).
using limits::kMaxJsonDepth;

// Parses `text`; malformed JSON, a number no double holds (1e400), or nesting
// past kMaxJsonDepth is an InputError at its place in `name`, field "json",
// saying `expected`.
nlohmann::json parse_json_input(const std::string& text, const std::string& name, const std::string& expected);

// The InputError for nesting past kMaxJsonDepth, at `where`.
InputError json_too_deep(SourceLocation where);

// Throws the InputError above, at the first '[' or '{' past kMaxJsonDepth
// levels; strings are skipped, so brackets inside them do not count.
void check_json_depth(const std::string& text, const std::string& name);

// A JSON value held in a string (Kineto's "Process Group Ranks": "[0, 1]"):
// discarded when malformed or nested past kMaxJsonDepth, so that the caller
// reports it at the string's own place.
nlohmann::json parse_embedded_json(const std::string& text);

// Whether `text` is a JSON object with the top-level key `key`, told in one
// pass over the text that builds nothing and stops at the key (a reader that
// takes several formats picks one without parsing the file twice). Empty when
// the text is not well-formed JSON up to where that was decided.
std::optional<bool> json_has_top_level_key(const std::string& text, std::string_view key);

// Whether `text` opens as a JSON object (its first non-blank character is '{').
bool looks_like_json(const std::string& text);

}  // namespace collsim
