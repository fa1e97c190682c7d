#include <catch2/catch.hpp>

#include "sim/core/json_places.hpp"

using namespace collsim;

namespace {
std::string place(const std::string& text, const std::string& path) {
    const SourceLocation w = json_place(text, path, "f.json");
    return std::to_string(w.line) + ":" + std::to_string(w.column);
}
}  // namespace

TEST_CASE("a JSON field's place is where its value begins") {
    const std::string text =
        "{\n"
        "  \"a\": {\"s\": \"x]}\\\"[,\", \"b\": [10, {\"c\": true}, [1, 2]]},\n"
        "  \"d\" :\n"
        "    null,\n"
        "  \"d\": 5\n"
        "}\n";
    CHECK(place(text, "") == "1:1");
    CHECK(place(text, "a") == "2:8");
    CHECK(place(text, "a.s") == "2:14");
    // Brackets, quotes and commas inside a string are text, not structure.
    CHECK(place(text, "a.b") == "2:30");
    CHECK(place(text, "a.b[0]") == "2:31");
    CHECK(place(text, "a.b[1].c") == "2:41");
    CHECK(place(text, "a.b[2][1]") == "2:52");
    // Of duplicate keys the parser keeps the last.
    CHECK(place(text, "d") == "5:8");
    // A field the text lacks: the nearest enclosing value.
    CHECK(place(text, "a.b[1].missing") == "2:35");
    CHECK(place(text, "a.b[7]") == "2:30");
    CHECK(place(text, ".a.s") == "2:14");
    // A field of something that is not an object or array stays at that value.
    CHECK(place(text, "a.s.t") == "2:14");
    CHECK(place(text, "a.b[x]") == "2:30");
}

TEST_CASE("an error without a line gets its field's place; others pass through") {
    const std::string text = "{\"n\": [1,\n 2]}";
    auto thrown = [&](const InputError& e) {
        try {
            with_json_places(text, "f.json", [&]() -> int { throw e; });
        } catch (const InputError& got) {
            return std::string(got.what());
        }
        return std::string("no error");
    };
    CHECK(thrown(InputError(SourceLocation{"f.json", 0, 0}, "n[1]", "one", "2")) ==
          "f.json:2:2: n[1]: expected one, found 2");
    CHECK(thrown(InputError(SourceLocation{"f.json", 4, 5}, "n[1]", "one", "2")) ==
          "f.json:4:5: n[1]: expected one, found 2");
    CHECK(thrown(InputError(SourceLocation{"other.json", 0, 0}, "n[1]", "one", "2")) ==
          "other.json: n[1]: expected one, found 2");
    CHECK(with_json_places(text, "f.json", [] { return 7; }) == 7);
}
