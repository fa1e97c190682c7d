// MSCCL XML algorithms: our own samples, the public files in
// ../shared/real-inputs/msccl (when present), and one test per error message.
#include <catch2/catch.hpp>

#include <filesystem>

#include "algorithms/communicator.hpp"
#include "algorithms/msccl/msccl_algorithm.hpp"
#include "sim/exec/simulate.hpp"
#include "sim/exec/symbolic.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/synthetic_topology.hpp"

using namespace collsim;

namespace {
std::string sample(const std::string& name) { return test::source_path("tests/data/msccl/" + name); }
}  // namespace

TEST_CASE("our MSCCL samples give schedules that are correct in every order") {
    for (const char* name : {"ring-allreduce-4.xml", "pair-allreduce.xml"}) {
        INFO(name);
        const auto algo = msccl::load_msccl(sample(name));
        const Schedule s = msccl::msccl_schedule(algo, Bytes(1 << 20));
        CHECK(verify_schedule(s, algo.op, 0, 5) == "");
    }
}

TEST_CASE("an MSCCL ring takes the ring's time: 2(n-1) steps of S/n") {
    // 4 GPUs on one NVSwitch (450 GB/s ports), ring Simple: 6 hops of 3.4 us
    // protocol step + 0.3 us path, 8.4 us launch, and 6 transfers of S/4 plus
    // three reductions (3 bytes of memory traffic per byte at 3.35 TB/s).
    const Topology topo = test::cluster({1, 4, false, false});
    Routes routes(topo);
    const auto algo = msccl::load_msccl(sample("ring-allreduce-4.xml"));
    const double S = 64.0 * (1 << 20);
    const Schedule s = msccl::msccl_schedule(algo, Bytes(static_cast<int64_t>(S)));
    const Time t = simulate_schedule(topo, routes, first_gpus(topo, 4).gpus, s,
                                     *nccl_protocol(NcclFamily::ring, ProtoKind::simple)).time;
    // The send of a received chunk waits for its reduction (rrcs), as in the
    // built-in ring, of which only the last 512 KiB Simple slot shows (NCCL
    // reduces while the rest arrives): 8.4 + 6 x 3.7 us + 6 S/4/B + 3 x 3 x 512 KiB/M.
    const double expected_us = 8.4 + 6 * 3.7 + (6 * S / 4 / 450e9 + 3 * 3 * 512.0 * 1024 / 3.35e12) * 1e6;
    CHECK(t.us() == Approx(expected_us).epsilon(0.005));
}

TEST_CASE("every public MSCCL file loads and its schedule is correct") {
    const std::filesystem::path dir = test::source_path("../shared/real-inputs/msccl");
    if (!std::filesystem::exists(dir)) {
        WARN("../shared/real-inputs/msccl is absent: skipped");
        return;
    }
    int files = 0;
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".xml") paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    for (const auto& path : paths) {
        INFO(path.string());
        const auto algo = msccl::load_msccl(path.string());
        const Schedule s = msccl::msccl_schedule(algo, Bytes(int64_t{1} << 20));
        CHECK(verify_schedule(s, algo.op, 0, 2) == "");
        ++files;
    }
    CHECK(files >= 9);
}

TEST_CASE("a malformed MSCCL file is an error with file, line, column, element and attribute") {
    struct Case {
        std::string file, expect;
    };
    for (const Case& c : {
             Case{"bad-unclosed.xml", "bad-unclosed.xml:8:5: xml: expected well-formed XML: </tb> to close <tb> of line 4, found </gpu>"},
             Case{"bad-step-type.xml", "bad-step-type.xml:6:24: step.type: expected one of s, r, rrc, rcs, rrs, rrcs, re, cpy, nop, found 'rrx'"},
             Case{"bad-offset.xml", "bad-offset.xml:7:46: step.srcoff: expected chunks within buffer i of gpu 0 (2 chunks), found 2 to 2"},
             Case{"bad-count.xml", "bad-count.xml:6:7: step.cnt: expected the count of the matching send on gpu 1 (12:7), found 1 against 2"},
             Case{"bad-unmatched.xml", "bad-unmatched.xml:8:7: step: expected a receive on gpu 1 channel 0 for this send, found none"},
             Case{"bad-deadlock.xml", "bad-deadlock.xml:5:7: step: expected a step that can run: a matching send for each receive and no dependency cycle, found gpu 0 tb 0 step 0 waiting forever"},
             Case{"bad-missing-gpu.xml", "bad-missing-gpu.xml:2:1: algo.ngpus: expected a <gpu id=\"1\"> for each of the 2 gpus, found none"},
             Case{"bad-coll.xml", "bad-coll.xml:2:82: algo.coll: expected one of allreduce, allgather, reduce_scatter, alltoall, broadcast, reduce, found 'allscatter'"},
             Case{"bad-depid.xml", "bad-depid.xml:6:7: step.depid: expected a step of a thread block of gpu 0, found tb 7 step 0"},
             Case{"bad-no-send-peer.xml", "bad-no-send-peer.xml:5:7: step.type: expected a step that does not send (tb send=\"-1\"), found a send"},
             Case{"bad-no-ngpus.xml", "bad-no-ngpus.xml:2:1: algo.ngpus: expected an integer from 1 to 1048576, found no such attribute"},
         }) {
        INFO(c.file);
        std::string message;
        try {
            msccl::load_msccl(sample(c.file));
        } catch (const std::exception& e) {
            message = e.what();
        }
        CHECK_THAT(message, Catch::Contains(c.expect));
    }
}

TEST_CASE("XML nested far deeper than MSCCL's four levels is refused, not recursed into") {
    std::string deep = "<algo>";
    for (int i = 0; i < 100000; ++i) deep += "<a>";
    CHECK_THROWS_WITH(msccl::parse_msccl(deep, "deep.xml"),
                      Catch::Contains("deep.xml:1:") && Catch::Contains("elements nested at most 32 deep"));
}

TEST_CASE("coll --algo-file runs an MSCCL file and rejects one that does not fit") {
    auto ok = test::run_cli("coll -t topologies/dgx-h100.yaml --ranks 4 --algo-file tests/data/msccl/ring-allreduce-4.xml "
                            "--sizes 1M --format json");
    REQUIRE(ok.exit_code == 0);
    CHECK_THAT(ok.out, Catch::Contains("\"algo\": \"test_ring_allreduce\""));
    auto ranks = test::run_cli("coll -t topologies/dgx-h100.yaml --algo-file tests/data/msccl/ring-allreduce-4.xml");
    CHECK(ranks.exit_code == 2);
    CHECK_THAT(ranks.err, Catch::Contains("--algo-file: expected an algorithm for the communicator's 8 ranks"));
    auto op = test::run_cli("coll -t topologies/dgx-h100.yaml --ranks 4 --op allgather --algo-file "
                            "tests/data/msccl/ring-allreduce-4.xml");
    CHECK(op.exit_code == 2);
    CHECK_THAT(op.err, Catch::Contains("--op: expected allreduce, the operation of"));
    auto closed = test::run_cli("coll -t topologies/dgx-h100.yaml --ranks 4 --model analytical --algo-file "
                                "tests/data/msccl/ring-allreduce-4.xml");
    CHECK(closed.exit_code == 2);
    CHECK_THAT(closed.err, Catch::Contains("--model: expected flow or auto: an MSCCL file has no closed form"));
    auto bad = test::run_cli("coll -t topologies/dgx-h100.yaml --ranks 2 --algo-file tests/data/msccl/bad-step-type.xml");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("bad-step-type.xml:6:24: step.type"));
}
