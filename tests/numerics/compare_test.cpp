#include <catch2/catch.hpp>

#include <bit>

#include <nlohmann/json.hpp>

#include "algorithms/algorithm.hpp"
#include "sim/exec/interpret.hpp"
#include "sim/numerics/combine_tree.hpp"
#include "sim/numerics/numerics_run.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/synthetic_topology.hpp"

using namespace collsim;

namespace {
NumericsRequest bf16_request(std::vector<std::pair<std::string, int>> configs) {
    NumericsRequest req;
    req.configs.clear();
    for (auto& [algo, ranks] : configs) {
        NumericsConfig c;
        c.algo = algo;
        c.ranks = ranks;
        req.configs.push_back(c);
    }
    req.elements = 1 << 16;
    req.dtype = FloatFormat::bf16;
    req.dist = InputDistribution::gradients;
    req.seed = 11;
    return req;
}
}  // namespace

TEST_CASE("with more contributions than ranks, each rank first sums its share in order") {
    // 12 contributions on 4 ranks: rank r holds (x_3r + x_3r+1) + x_3r+2, and
    // the 4-rank ring adds chunk 0 as r3 + (r2 + (r1 + r0)) (see numerics_test).
    const Topology topo = test::cluster({1, 4, false, false});
    const Schedule s =
        find_algorithm("ring")->build(CollectiveCall{CollOp::allreduce, Bytes(4 * 1024), 4, 1}, first_gpus(topo, 4));
    const CombineTree t = combine_tree(s, CollOp::allreduce, index_order(s));
    REQUIRE(t.describe(t.root[0][0]) == "(r3+(r2+(r1+r0)))");
    const InputData in(InputDistribution::normal, 5, FloatFormat::fp32);
    const ReductionStats st = evaluate_tree(t, in, Accumulation{}, 1024, 12);
    for (int64_t e = 0; e < 256; ++e) {  // chunk 0
        INFO("element " << e);
        auto share = [&](int r) { return (in.value(3 * r, e) + in.value(3 * r + 1, e)) + in.value(3 * r + 2, e); };
        const float expect = share(3) + (share(2) + (share(1) + share(0)));
        REQUIRE(std::bit_cast<uint32_t>(st.result[static_cast<std::size_t>(e)]) == std::bit_cast<uint32_t>(expect));
    }
}

TEST_CASE("ring on 8 and on 16 ranks reduce the same bf16 contributions to different bits, both within the bound") {
    const NumericsReport r = run_numerics(bf16_request({{"ring", 8}, {"ring", 16}}));
    CHECK(r.contributions == 16);
    REQUIRE(r.results.size() == 2);
    CHECK(r.results[0].label == "ring@8");
    CHECK(r.results[0].contributions_per_rank == 2);
    CHECK(r.results[1].contributions_per_rank == 1);
    for (const auto& res : r.results) {
        INFO(res.label);
        CHECK(res.stats.max_bound_ratio > 0.0);
        CHECK(res.stats.max_bound_ratio <= 1.0);
        CHECK(res.stats.max_rel_error > 0.0);
    }
    REQUIRE(r.pairs.size() == 1);
    CHECK(r.pairs[0].a == "ring@8");
    CHECK(r.pairs[0].b == "ring@16");
    CHECK(r.pairs[0].elements_differing > 0);
    CHECK(r.pairs[0].max_ulp > 0);
    CHECK(r.pairs[0].max_rel_difference > 0.0);
}

TEST_CASE("a configuration compared with itself is bitwise identical") {
    const NumericsReport r = run_numerics(bf16_request({{"tree", 8}, {"tree", 8}}));
    REQUIRE(r.pairs.size() == 1);
    CHECK(r.pairs[0].elements_differing == 0);
    CHECK(r.pairs[0].max_ulp == 0);
    CHECK(r.pairs[0].max_rel_difference == 0.0);
    CHECK(r.results[0].stats.max_rel_error == r.results[1].stats.max_rel_error);
}

TEST_CASE("numerics --compare across rank counts and topologies reports every pair, the same bytes every time") {
    const std::string args = "numerics --compare ring@8,ring@16,tree@16:topologies/cluster-h100-2n.yaml,ring@8 --elements 16K --dtype bf16 --seed 2 "
                             "--format json";
    const auto a = collsim::test::run_cli(args), b = collsim::test::run_cli(args);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    const auto j = nlohmann::json::parse(a.out);
    CHECK(j["algo"] == "ring");  // the single-run names describe the first configuration
    CHECK(j["ranks"] == 8);
    CHECK(j["contributions"] == 16);
    REQUIRE(j["compare"].size() == 4);
    CHECK(j["compare"][2]["ranks"] == 16);
    CHECK(j["compare"][2]["algo"] == "tree");
    CHECK(j["compare"][0]["contributions_per_rank"] == 2);
    REQUIRE(j["pairs"].size() == 6);
    for (const auto& p : j["pairs"]) {
        INFO(p.dump());
        for (const char* k : {"a", "b", "bitwise_identical", "elements_differing", "max_ulp", "max_rel_difference"})
            CHECK(p.contains(k));
        const bool same_config = p["a"] == p["b"];  // ring@8 twice
        CHECK(p["bitwise_identical"] == same_config);
    }
}

TEST_CASE("numerics rejects bad --compare entries with exit 2") {
    struct Case {
        std::string args, expect;
    };
    for (const Case& c : {
             Case{"numerics --compare ring,", "--compare: expected entries ALGO[@RANKS][:TOPOLOGY] with an algorithm, found ''"},
             Case{"numerics --compare @8", "--compare: expected entries ALGO[@RANKS][:TOPOLOGY] with an algorithm, found '@8'"},
             Case{"numerics --compare ring@x", "--compare: expected a rank count after '@' in ALGO[@RANKS][:TOPOLOGY], found 'ring@x'"},
             Case{"numerics --compare ring@", "--compare: expected a rank count after '@' in ALGO[@RANKS][:TOPOLOGY], found 'ring@'"},
             Case{"numerics --compare ring:", "--compare: expected a topology file after ':' in ALGO[@RANKS][:TOPOLOGY], found 'ring:'"},
             Case{"numerics --compare ring,spiral@8", "--compare: expected one of ring"},
             Case{"numerics --compare ring@8,ring@1", "--compare: expected at least 2, found '1'"},
             Case{"numerics --compare ring@16:topologies/dgx-h100.yaml",
                  "--compare: expected at most the 8 GPUs of"},
             Case{"numerics --compare ring@4096,ring@4095",
                  "--compare: expected rank counts whose least common multiple is at most 65536 (every element sums "
                  "that many contributions: the contribution limit), found '16773120'"},
         }) {
        INFO(c.args);
        auto r = collsim::test::run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}
