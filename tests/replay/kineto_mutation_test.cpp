// Seeded mutations of our Kineto samples (both layouts): every value of the
// file may become another JSON type or an edge value, or a member may go. Each
// mutant either imports or fails with an InputError that names the file and a
// line; nothing else escapes (no nlohmann type_error, no crash).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/core/random.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// Every value in `doc`, as pointers (the root excluded).
void kineto_values(json& doc, std::vector<json*>& out) {
    if (doc.is_object())
        for (auto& [key, v] : doc.items()) {
            out.push_back(&v);
            kineto_values(v, out);
        }
    else if (doc.is_array())
        for (json& v : doc) {
            out.push_back(&v);
            kineto_values(v, out);
        }
}

json kineto_replacement(uint64_t pick) {
    switch (pick % 12) {
        case 0: return 5;
        case 1: return -1;
        case 2: return 1e300;
        case 3: return "x";
        case 4: return "[0, 1, ...]";
        case 5: return json::array();
        case 6: return json::object();
        case 7: return nullptr;
        case 8: return true;
        case 9: return json::array({json::array({7})});
        case 10: return 18446744073709551615ULL;
        default: return 0.5;
    }
}
}  // namespace

TEST_CASE("seeded mutations of the Kineto samples import or fail with file and line", "[kineto]") {
    const fs::path dir = fs::temp_directory_path() / ("collsim-kineto-mutants-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string file = (dir / "mutant.json").string();
    uint64_t state = 20240523;
    int imported = 0, refused = 0;
    for (const char* sample : {"workloads/samples/kineto-2.0/worker1_step_3.pt.trace.json",
                               "workloads/samples/kineto/rank0.pt.trace.json"}) {
        const json original = json::parse(test::slurp(test::source_path(sample)));
        for (int round = 0; round < 150; ++round) {
            json doc = original;
            std::vector<json*> values;
            kineto_values(doc, values);
            json& target = *values[splitmix_next(state) % values.size()];
            const uint64_t pick = splitmix_next(state);
            if (pick % 13 == 12 && target.is_object() && !target.empty()) target.erase(target.begin());
            else target = kineto_replacement(pick);
            std::ofstream(file) << doc.dump(1);
            INFO(sample << ", round " << round);
            try {
                load_any_trace(file);
                ++imported;
            } catch (const InputError& e) {
                ++refused;
                INFO(e.what());
                CHECK(e.where().file == file);
                CHECK(e.where().line > 0);
            }
        }
    }
    // Both outcomes occur: the mutations reach fields that matter and ones that do not.
    CHECK(imported > 10);
    CHECK(refused > 10);
    fs::remove_all(dir);
}
