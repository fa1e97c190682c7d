#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "sim/report/partial_report.hpp"

using namespace collsim;

namespace {
const PartialRun kStopped{"--wall-limit 30s", 3, 28, "sizes"};
}

TEST_CASE("a partial table or CSV opens with the line that says where the run stopped") {
    CHECK(partial_line(kStopped) == "# partial: stopped by --wall-limit 30s after 3 of 28 sizes\n");
    CHECK(mark_partial("a,b\n1,2\n", kStopped, false) ==
          "# partial: stopped by --wall-limit 30s after 3 of 28 sizes\na,b\n1,2\n");
}

TEST_CASE("a partial JSON report gets the markers first and keeps its own fields exactly") {
    nlohmann::ordered_json report;
    report["op"] = "allreduce";
    report["rows"] = {{{"time_us", 19.200119}, {"busbw_GBps", 0.1 + 0.2}}};
    const std::string body = report.dump(2) + "\n";
    const std::string marked = mark_partial(body, kStopped, true);
    const auto j = nlohmann::ordered_json::parse(marked);
    CHECK(j.begin().key() == "partial");
    CHECK(j["partial"] == true);
    CHECK(j["stopped"] ==
          nlohmann::ordered_json{{"by", "--wall-limit 30s"}, {"done", 3}, {"total", 28}, {"unit", "sizes"}});
    // The report's own text, unchanged down to the last digit, after the markers.
    nlohmann::ordered_json rest = j;
    rest.erase("partial");
    rest.erase("stopped");
    CHECK(rest.dump(2) + "\n" == body);
}
