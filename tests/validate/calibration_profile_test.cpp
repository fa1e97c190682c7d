#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/validate/calibration_profile.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {

std::string parse_error(const std::string& yaml) {
    return test::input_error_of([&] { parse_calibration(yaml, "p.yaml"); });
}

const std::string kHead = "collsim_calibration: 1\n";

}  // namespace

TEST_CASE("a calibration profile survives writing and reading back") {
    Calibration c;
    c.nccl_version = "2.29.3";
    c.fitted_from = "a.csv, dir/b \"x\".log";
    c.bandwidth_efficiency = {0.912345, 1.0, 0.5};
    c.p2p_bandwidth_efficiency = 0.75;
    c.nvls_bandwidth_efficiency = 0.875;
    c.hop_latency_delta = {Time{} - 1200_ns, 0_ns, 3_us};
    c.base_latency[{NcclFamily::ring, ProtoKind::simple}] = 22500_ns;
    c.base_latency[{NcclFamily::tree, ProtoKind::ll}] = 7_us;
    c.op_base_latency[{CollOp::allgather, NcclFamily::ring, ProtoKind::simple}] = 9_us;
    c.size_corrections = {{Bytes(0), Bytes(65536), 1.08}, {Bytes(65536), Bytes(3 * 1000), 0.9}};
    c.size_corrections[1].to = Bytes(64 << 20);
    c.launch_per_gpu = 6500_ns;
    const std::string text = render_calibration(c, "fitted by a test\nsecond line");
    CHECK_THAT(text, Catch::StartsWith("# fitted by a test\n# second line\ncollsim_calibration: 1\n"));
    CHECK_THAT(text, Catch::Contains("hop_latency_delta: {nvlink: -1.2us, pci: 0s, net: 3us}"));
    CHECK_THAT(text, Catch::Contains("  - {from: 64K, to: 64M, factor: 0.9}"));
    CHECK_THAT(text, Catch::Contains("\nlaunch_per_gpu: 6.5us\n"));
    CHECK_THAT(text, Catch::Contains("\np2p_bandwidth_efficiency: 0.75\nnvls_bandwidth_efficiency: 0.875\n"));
    const Calibration r = parse_calibration(text, "round-trip");
    CHECK(r.nccl_version == c.nccl_version);
    CHECK(r.fitted_from == c.fitted_from);
    CHECK(r.bandwidth_efficiency == c.bandwidth_efficiency);
    CHECK(r.p2p_bandwidth_efficiency == 0.75);
    CHECK(r.nvls_bandwidth_efficiency == 0.875);
    CHECK(r.hop_latency_delta == c.hop_latency_delta);
    CHECK(r.base_latency == c.base_latency);
    CHECK(r.op_base_latency == c.op_base_latency);
    CHECK_THAT(text, Catch::Contains("  - {op: allgather, family: ring, proto: simple, latency: 9us}"));
    CHECK(r.launch_per_gpu == 6500_ns);
    REQUIRE(r.size_corrections.size() == 2);
    CHECK(r.size_corrections[1].from == Bytes(65536));
    CHECK(r.size_corrections[1].to == Bytes(64 << 20));
    CHECK(r.size_corrections[0].factor == 1.08);
    CHECK(render_calibration(r, "fitted by a test\nsecond line") == text);
}

TEST_CASE("a profile with only the version is the default calibration") {
    const Calibration c = parse_calibration(kHead, "p.yaml");
    CHECK(c.is_default());
}

TEST_CASE("bad calibration profiles name the field, the line and what was expected") {
    struct Case {
        std::string yaml, expect;
    };
    for (const Case& c : {
             Case{"- 1\n", "p.yaml:1:1: profile: expected a mapping of fields, found a list"},
             Case{kHead + "colour: red\n", "p.yaml:2:1: profile.colour: expected one of the keys collsim_calibration"},
             Case{"nccl_version: 2.18.5\n", "profile.collsim_calibration: expected an integer (required), found no "
                                            "such field"},
             Case{"collsim_calibration: 2\n", "p.yaml:1:22: profile.collsim_calibration: expected format version 1, "
                                              "found 2"},
             Case{kHead + "bandwidth_efficiency: {nvlink: 3}\n",
                  "p.yaml:2:32: profile.bandwidth_efficiency.nvlink: expected a number above 0.05 and at most 2, "
                  "found '3'"},
             Case{kHead + "p2p_bandwidth_efficiency: 0\n",
                  "p.yaml:2:27: profile.p2p_bandwidth_efficiency: expected a number above 0.05 and at most 2, "
                  "found '0'"},
             Case{kHead + "nvls_bandwidth_efficiency: fast\n",
                  "p.yaml:2:28: profile.nvls_bandwidth_efficiency: expected a number above 0.05 and at most 2, "
                  "found 'fast'"},
             Case{kHead + "bandwidth_efficiency: [1, 2]\n",
                  "p.yaml:2:23: profile.bandwidth_efficiency: expected a mapping of fields, found a list"},
             Case{kHead + "hop_latency_delta: {pci: 2}\n",
                  "p.yaml:2:26: profile.hop_latency_delta.pci: expected a unit after the number"},
             Case{kHead + "hop_latency_delta: {net: -2ms}\n",
                  "p.yaml:2:26: profile.hop_latency_delta.net: expected a time between -1ms and 1ms, found '-2ms'"},
             Case{kHead + "launch_per_gpu: 2ms\n", "p.yaml:2:17: profile.launch_per_gpu: expected at most 1ms, found '2ms'"},
             Case{kHead + "launch_per_gpu: fast\n", "p.yaml:2:17: profile.launch_per_gpu: expected a time with a unit"},
             Case{kHead + "base_latency:\n  - {family: spiral, proto: ll, latency: 5us}\n",
                  "p.yaml:3:14: profile.base_latency[0].family: expected one of tree, ring"},
             Case{kHead + "base_latency:\n  - {family: ring, proto: fast, latency: 5us}\n",
                  "p.yaml:3:27: profile.base_latency[0].proto: expected one of ll, ll128, simple, found 'fast'"},
             Case{kHead + "base_latency:\n  - {family: ring, proto: ll, latency: 20ms}\n",
                  "p.yaml:3:40: profile.base_latency[0].latency: expected at most 10ms, found '20ms'"},
             Case{kHead + "base_latency:\n  - {family: ring, proto: ll, latency: -5us}\n",
                  "profile.base_latency[0].latency: expected a time that is not negative"},
             Case{kHead + "base_latency:\n  - {family: nvls, proto: ll, latency: 5us}\n",
                  "p.yaml:3:5: profile.base_latency[0]: expected a protocol that NCCL runs with this family, found ll "
                  "with nvls"},
             Case{kHead + "base_latency:\n  - {family: ring, proto: ll, latency: 5us}\n"
                          "  - {family: ring, proto: ll, latency: 6us}\n",
                  "p.yaml:4:5: profile.base_latency[1]: expected each family and protocol once, found ring ll again"},
             Case{kHead + "base_latency:\n  - {op: allmix, family: ring, proto: ll, latency: 5us}\n",
                  "p.yaml:3:10: profile.base_latency[0].op: expected one of allreduce, allgather"},
             Case{kHead + "base_latency:\n  - {op: allgather, family: ring, proto: ll, latency: 5us}\n"
                          "  - {op: allgather, family: ring, proto: ll, latency: 6us}\n",
                  "p.yaml:4:5: profile.base_latency[1]: expected each collective, family and protocol once, found "
                  "allgather ring ll again"},
             Case{kHead + "base_latency:\n  - {family: ring, proto: ll}\n",
                  "profile.base_latency[0].latency: expected a time like '600ns' (required), found no such field"},
             Case{kHead + "size_corrections:\n  - {from: 1M, to: 64K, factor: 1.1}\n",
                  "p.yaml:3:20: profile.size_corrections[0].to: expected a size above from (1048576 B), found '64K'"},
             Case{kHead + "size_corrections:\n  - {from: 0, to: 1M, factor: 1.1}\n  - {from: 64K, to: 2M, factor: 1}\n",
                  "p.yaml:4:12: profile.size_corrections[1].from: expected ranges in rising order, not overlapping "
                  "(the previous one ends at 1048576 B)"},
             Case{kHead + "size_corrections:\n  - {from: lots, to: 1M, factor: 1.1}\n",
                  "p.yaml:3:12: profile.size_corrections[0].from: expected a size like"},
             Case{kHead + "size_corrections:\n  - {from: 0, to: 1M, factor: 0}\n",
                  "p.yaml:3:31: profile.size_corrections[0].factor: expected a number above 0.1 and at most 10"},
             Case{kHead + "fitted_from: [a.csv, [b]]\n",
                  "p.yaml:2:22: profile.fitted_from[1]: expected a file name, found a list"},
             Case{kHead + "bandwidth_efficiency: {nvlink: 0.9\n", "p.yaml:3:1: yaml: expected well-formed YAML"},
         }) {
        INFO(c.yaml);
        CHECK_THAT(parse_error(c.yaml), Catch::Contains(c.expect));
    }
}

TEST_CASE("a profile reports every error it has at once") {
    const std::string msg =
        parse_error(kHead + "bandwidth_efficiency: {pci: 0}\nhop_latency_delta: {nvlink: 1}\nsurprise: 1\n");
    CHECK_THAT(msg, Catch::Contains("bandwidth_efficiency.pci"));
    CHECK_THAT(msg, Catch::Contains("hop_latency_delta.nvlink"));
    CHECK_THAT(msg, Catch::Contains("profile.surprise"));
}
