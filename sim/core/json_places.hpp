#pragma once
// Places in a JSON text. nlohmann's values keep no positions (3.11), so an
// error about a field ("traceEvents[3].dur") finds its place by walking the
// text along the field's path: the line and column of the value, or of the
// nearest enclosing value the text has where the field itself is missing.
#include <string>

#include "sim/core/error.hpp"

namespace collsim {

// Where the value at `path` (keys and [indices]: "a.b[2].c"; "" or "." the
// whole document) begins in the JSON `text`, or its nearest enclosing value.
SourceLocation json_place(const std::string& text, const std::string& path, const std::string& name);

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
