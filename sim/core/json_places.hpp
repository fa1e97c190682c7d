#pragma once
// Places in a JSON text. nlohmann's values keep no positions (3.11), so an
// error about a field ("traceEvents[3].dur") finds its place by walking the
// text along the field's path: the line and column of the value, or of the
// nearest enclosing value the text has where the field itself is missing.
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"

namespace collsim {

// Where the value at `path` (keys and [indices]: "a.b[2].c"; "" or "." the
// whole document) begins in the JSON `text`, or its nearest enclosing value.
SourceLocation json_place(const std::string& text, const std::string& path, const std::string& name);

// Where each element of the array at `path` begins in `text`, in order; empty
// where the text has no array there. One pass over the array.
std::vector<std::size_t> json_element_offsets(const std::string& text, const std::string& path);

// The place in `name` of each of the `count` elements of the array at `path`,
// in order (an importer's op points at the node it came from); where the text
// does not have them all, each is the place of `path` itself.
std::vector<SourceLocation> json_element_places(const std::string& text, const std::string& path,
                                                const std::string& name, std::size_t count);

// The text of the value of member `key` in the object that begins at byte
// `object`, as written (a number's own digits, a string with its quotes); empty
// where the object has no such member.
std::string_view json_member_text(const std::string& text, std::size_t object, const std::string& key);

// Runs `read`; an InputError it throws about file `name` without a line
// comes out at the place in `text` of the field it names.
template <class Read>
decltype(auto) with_json_places(const std::string& text, const std::string& name, Read&& read) {
    try {
        return read();
    } catch (const InputError& e) {
        if (e.where().line > 0 || e.where().file != name) throw;
        throw InputError(json_place(text, e.field(), name), e.field(), e.expected(), e.found());
    }
}

}  // namespace collsim
