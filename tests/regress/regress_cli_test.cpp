// `collsim regress` as CI runs it: exit codes, what it prints, its files.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/core/xml_tree.hpp"
#include "sim/model/model_version.hpp"
#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;
using collsim::test::slurp;

namespace {
const std::string kData = "tests/data/regress/";

// A baseline file of this process, removed at the end of the test.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& what)
        : path("/tmp/collsim-regress-" + what + "-" + std::to_string(::getpid())) {}
    ~TempFile() { std::remove(path.c_str()); }
};

collsim::test::CliResult regress(const std::string& suite, const std::string& baseline, const std::string& more = "") {
    return run_cli("regress --suite " + kData + suite + " --baseline " + baseline + " " + more);
}

// Sets an environment variable for the test's lifetime (the CLI runs inherit it).
struct ScopedEnv {
    std::string name;
    ScopedEnv(std::string n, const char* value) : name(std::move(n)) { ::setenv(name.c_str(), value, 1); }
    ~ScopedEnv() { ::unsetenv(name.c_str()); }
};
}  // namespace

TEST_CASE("regress passes an unchanged run and fails a planted 5% NVLink slowdown") {
    TempFile base("nvlink.json");
    REQUIRE(regress("nvlink.yaml", base.path, "--update").exit_code == 0);
    const auto same = regress("nvlink.yaml", base.path, "--tolerance 2%");
    CHECK(same.exit_code == 0);
    CHECK_THAT(same.out, Catch::Contains("0 regressed, 0 hang") && Catch::Contains(": ok"));
    const auto slow = regress("nvlink-slow.yaml", base.path, "--tolerance 2%");
    CHECK(slow.exit_code == 1);
    // 5% less NVLink bandwidth: the bandwidth-bound 64M is more than 2% slower, 8 B (latency) is not.
    CHECK_THAT(slow.out, Catch::Contains("REGRESSION  dgx-h100/allreduce/ring/auto  64M time_us"));
    CHECK_THAT(slow.out, !Catch::Contains("8 time_us"));
    CHECK_THAT(slow.out, Catch::Contains("FAILED (1 entries)"));
    // Within a wider tolerance it is a slowdown, not a failure.
    const auto loose = regress("nvlink-slow.yaml", base.path, "--tolerance 5%");
    CHECK(loose.exit_code == 0);
    CHECK_THAT(loose.out, Catch::Contains("slower      dgx-h100/allreduce/ring/auto  64M time_us"));
    // --exact fails on the change that the tolerance forgives.
    CHECK(regress("nvlink-slow.yaml", base.path, "--tolerance 5% --exact").exit_code == 1);
}

TEST_CASE("regress counts an entry that now hangs as a regression") {
    TempFile base("two-nodes.json"), junit("hang.xml");
    REQUIRE(regress("two-nodes.yaml", base.path, "--update").exit_code == 0);
    const auto hang = regress("two-nodes-nic-down.yaml", base.path, "--tolerance 50% --junit " + junit.path);
    CHECK(hang.exit_code == 1);
    CHECK_THAT(hang.out, Catch::Contains("HANG        two-nodes-1M: 1M no progress possible"));
    CHECK_THAT(hang.out, Catch::Contains("and 12 more"));
    CHECK_THAT(slurp(junit.path), Catch::Contains("<failure type=\"hang\""));
    // A baseline made with the hang expects it: the entry still hangs, and passes.
    REQUIRE(regress("two-nodes-nic-down.yaml", base.path, "--update").exit_code == 0);
    const auto again = regress("two-nodes-nic-down.yaml", base.path);
    CHECK(again.exit_code == 0);
    CHECK_THAT(again.out, Catch::Contains("hangs, as the baseline says"));
}

TEST_CASE("a replay that now hangs is a regression too; its step times are the metrics") {
    TempFile base("replay.json");
    REQUIRE(regress("replay.yaml", base.path, "--update").exit_code == 0);
    CHECK_THAT(slurp(base.path), Catch::Contains("\"step_time_us\"") && Catch::Contains("\"exposed_comm_us\""));
    CHECK(regress("replay.yaml", base.path).exit_code == 0);
    const auto hang = regress("replay-nic-down.yaml", base.path);
    CHECK(hang.exit_code == 1);
    CHECK_THAT(hang.out, Catch::Contains("HANG        dp-step: no progress possible"));
}

TEST_CASE("a plan entry records the step that collsim plan prints for the layout") {
    TempFile base("plan.json");
    REQUIRE(regress("plan.yaml", base.path, "--update").exit_code == 0);
    const auto baseline = nlohmann::json::parse(slurp(base.path));
    const auto plan = run_cli("plan -m llama-3-8b -t topologies/cluster-h100-2n.yaml --tp 8 --dp 2 --global-batch 64 "
                              "--format json");
    REQUIRE(plan.exit_code == 0);
    const auto& metrics = baseline["entries"][0]["metrics"];
    CHECK(metrics["tokens_per_s"].get<double>() == Approx(nlohmann::json::parse(plan.out)["tokens_per_s"].get<double>()));
    CHECK(metrics.contains("TP AllGather exposed_us"));
    CHECK(regress("plan.yaml", base.path, "--exact").exit_code == 0);
}

TEST_CASE("regress reports entries added and gone, and fails them only with --exact") {
    TempFile base("added.json");
    REQUIRE(regress("nvlink.yaml", base.path, "--update").exit_code == 0);
    const auto other = regress("two-nodes.yaml", base.path);
    CHECK(other.exit_code == 0);
    CHECK_THAT(other.out, Catch::Contains("added       two-nodes-1M"));
    CHECK_THAT(other.out, Catch::Contains("gone        dgx-h100/allreduce/ring/auto"));
    CHECK(regress("two-nodes.yaml", base.path, "--exact").exit_code == 1);
}

TEST_CASE("a bad suite field is exit 2 at its line and column") {
    TempFile base("bad.json");
    const auto r = regress("bad-size.yaml", base.path, "--update");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("tests/data/regress/bad-size.yaml:6:16: entries[1].sizes[1]: expected a size of 1 "
                                      "byte or more like 8, 64K, 1MiB or 1G, found '64Q'"));
}

TEST_CASE("an entry that cannot run is exit 2 at the entry, naming its field") {
    TempFile base("nvls.json");
    const auto r = regress("nvls-allgather.yaml", base.path, "--update");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("tests/data/regress/nvls-allgather.yaml:4:5: entries[1].op: expected an operation "
                                      "that algorithm 'nvls' implements, found 'allgather'"));
}

TEST_CASE("a bad set: override is exit 2 at its entry") {
    TempFile base("set.json");
    const auto r = regress("bad-set.yaml", base.path, "--update");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("tests/data/regress/bad-set.yaml:3:5: entries[0].set #1 'bogus.path=3': bogus: "
                                      "expected one of the fields there"));
}

TEST_CASE("regress --format json and csv say what failed, for scripts") {
    TempFile base("json.json");
    REQUIRE(regress("nvlink.yaml", base.path, "--update").exit_code == 0);
    const auto r = regress("nvlink-slow.yaml", base.path, "--tolerance 2% --format json");
    CHECK(r.exit_code == 1);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["failed"] == true);
    CHECK(j["totals"]["regressed"] == 1);
    const auto& entry = j["entries"][0];
    CHECK(entry["status"] == "regressed");
    CHECK(entry["changes"][0]["metric"] == "64M time_us");
    CHECK(entry["changes"][0]["worse_pct"].get<double>() == Approx(4.17).margin(0.01));
    const auto csv = regress("nvlink-slow.yaml", base.path, "--tolerance 2% --format csv");
    CHECK(csv.exit_code == 1);
    CHECK_THAT(csv.out, Catch::StartsWith("entry,status,metric,before,now,worse_pct,regression\n"
                                          "dgx-h100/allreduce/ring/auto,regressed,64M time_us,380.20"));
}

TEST_CASE("a baseline of another model version is exit 2 unless --update replaces it") {
    TempFile base("old.json");
    { std::ofstream(base.path) << slurp(collsim::test::source_path(kData + "old-model.json")); }
    const auto r = regress("nvlink.yaml", base.path);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(fmt::format("{}:3:3: model_version: expected {}, this collsim's model", base.path,
                                                  collsim::kModelVersion)));
    CHECK_THAT(r.err, Catch::Contains("make a new one with --update"));
    CHECK(regress("nvlink.yaml", base.path, "--update").exit_code == 0);
    CHECK_THAT(slurp(base.path), Catch::Contains(fmt::format("\"model_version\": {}", collsim::kModelVersion)));
    CHECK_THAT(slurp(base.path), Catch::Contains("\"suite\": \"nvlink.yaml\""));
    CHECK(regress("nvlink.yaml", base.path).exit_code == 0);
}

TEST_CASE("regress writes well-formed JUnit XML: a testcase per entry, a failure per regression") {
    TempFile base("junit.json"), junit("junit.xml");
    REQUIRE(regress("nvlink.yaml", base.path, "--update").exit_code == 0);
    REQUIRE(regress("nvlink-slow.yaml", base.path, "--tolerance 2% --junit " + junit.path).exit_code == 1);
    const auto root = collsim::parse_xml(slurp(junit.path), junit.path);
    REQUIRE(root->name == "testsuites");
    CHECK(root->attribute("failures")->value == "1");
    REQUIRE(root->children.size() == 1);
    const collsim::XmlElement& suite = *root->children[0];
    CHECK(suite.name == "testsuite");
    CHECK(suite.attribute("tests")->value == "1");
    REQUIRE(suite.children.size() == 1);
    const collsim::XmlElement& test = *suite.children[0];
    CHECK(test.attribute("name")->value == "dgx-h100/allreduce/ring/auto");
    REQUIRE(test.children.size() == 1);
    CHECK(test.children[0]->name == "failure");
    CHECK_THAT(test.children[0]->attribute("message")->value, Catch::Contains("64M time_us 380.209 -> 396.045"));
    // Unchanged: the testcase has no failure.
    REQUIRE(regress("nvlink.yaml", base.path, "--junit " + junit.path).exit_code == 0);
    CHECK(collsim::parse_xml(slurp(junit.path), junit.path)->children[0]->children[0]->children.empty());
}

TEST_CASE("regress ignores NCCL_ALGO and NCCL_PROTO, which coll follows") {
    TempFile base("env.json");
    REQUIRE(regress("nvlink.yaml", base.path, "--update").exit_code == 0);
    const ScopedEnv algo("NCCL_ALGO", "Tree"), proto("NCCL_PROTO", "LL");
    CHECK_THAT(run_cli("coll -t topologies/dgx-h100.yaml --sizes 8").err, Catch::Contains("following NCCL_ALGO=Tree"));
    const auto r = regress("nvlink.yaml", base.path, "--exact");
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.err, Catch::Contains("note: NCCL_ALGO=Tree in the environment is ignored"));
    CHECK_THAT(r.err, !Catch::Contains("following NCCL_ALGO"));
}
