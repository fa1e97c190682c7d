// AllToAll pair classes (algorithms/alltoall_classes.hpp) against the
// per-pair form they stand for: every transfer its own ECMP-hashed route and
// its own flow. On rail-optimised fat-trees at 1:1 and 2:1 with 256 and 512
// ranks, the classes may only be faster (they charge the hashed links their
// mean load, so they miss the collisions' hot links), and by at most the bound
// the reduction states; the output says the classes were used, and where
// their premise fails (single-path routing) they are not.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "algorithms/alltoall_classes.hpp"
#include "sim/core/text_file.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/model/predict.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
using collsim::test::run_cli;

namespace {

const std::string kTopologies = std::string(COLLSIM_SOURCE_ROOT) + "/topologies/";

// cluster-h100-16n.yaml with `nodes` nodes and the leaves' oversubscription.
std::string fat_tree_text(int nodes, const std::string& oversubscription) {
    std::string text = read_text_file(kTopologies + "cluster-h100-16n.yaml");
    const auto replace = [&](const std::string& from, const std::string& to) {
        const std::size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    };
    replace("count: 16}", "count: " + std::to_string(nodes) + "}");
    replace("[\"1:1\"]", "[\"" + oversubscription + "\"]");
    return text;
}

Prediction alltoall(const Topology& topo, Routes& routes, Bytes bytes, int channels, bool classes) {
    PredictRequest req;
    req.op = CollOp::alltoall;
    req.bytes = bytes;
    req.ranks = topo.gpus();
    req.algo = "alltoall";
    req.proto = "simple";
    req.channels = channels;
    req.model = ModelTier::fluid;
    // Another actor on the network rules the classes out: the per-pair form.
    req.network_alone = classes;
    return predict_collective(topo, routes, req, Calibration{});
}

bool states_classes(const std::vector<std::string>& reductions) {
    for (const std::string& r : reductions)
        if (r.find("classes of equivalent pairs") != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("AllToAll pair classes keep within their stated bound of the per-pair form on 1:1 and 2:1 fat-trees") {
    // 256 ranks on two channels and 512 on NCCL's choice are past the 2^16
    // transfers where the classes take over; 128 ranks stay below it.
    struct Case {
        int nodes;
        const char* oversubscription;
        int channels;
        std::vector<int64_t> sizes;
    };
    const std::vector<int64_t> both{int64_t{1} << 20, int64_t{64} << 20}, large{int64_t{64} << 20};
    for (const Case& c : {Case{32, "1:1", 2, both}, Case{32, "2:1", 2, both}, Case{64, "1:1", 0, large},
                          Case{64, "2:1", 0, large}}) {
        const Topology topo = parse_topology(fat_tree_text(c.nodes, c.oversubscription), kTopologies + "generated.yaml");
        Routes routes(topo);
        for (int64_t size : c.sizes) {
            const Prediction pooled = alltoall(topo, routes, Bytes(size), c.channels, true);
            const Prediction pairs = alltoall(topo, routes, Bytes(size), c.channels, false);
            INFO(c.nodes * 8 << " ranks " << c.oversubscription << " " << size << " B: classes " << pooled.time.us()
                             << " us, per pair " << pairs.time.us() << " us");
            REQUIRE(states_classes(pooled.reductions));
            CHECK_FALSE(states_classes(pairs.reductions));
            const double fast_by = 1 - pooled.time.us() / pairs.time.us();
            CHECK(fast_by > -0.001);
            CHECK(fast_by < kClassesFastBy);
        }
    }
}

TEST_CASE("the AllToAll classes and their bound are stated in the table's model line and in JSON") {
    const std::string args = "coll -t topologies/cluster-h100-128n-2to1.yaml --op alltoall --sizes 64M --links 0";
    const auto table = run_cli(args);
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.out, Catch::Contains("# model: fluid at 67108864 B: alltoall: 1047552 transfers as"));
    CHECK_THAT(table.out, Catch::Contains("ECMP hash collisions not modelled: up to 12% faster"));
    const auto json = run_cli(args + " --format json");
    REQUIRE(json.exit_code == 0);
    const auto row = nlohmann::json::parse(json.out)["rows"][0];
    CHECK(row["model"] == "fluid");
    CHECK(states_classes(row["reductions"].get<std::vector<std::string>>()));
}

TEST_CASE("an AllToAll under single-path routing is never pooled: past the transfer limit it is exit 2 saying why") {
    const auto r = run_cli("coll -t topologies/cluster-h100-512n.yaml --op alltoall --sizes 64M --routing single");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("not aggregated: the pairs take their first equal-cost path"));
}
