// Every refusal of a Chakra input, and of any input in a format its reader
// does not take, is exit 2 with the file, the place and the format's name
// (issues 23 and 24).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/core/input_format.hpp"
#include "sim/core/text_file.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/import/chakra_et.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
namespace fs = std::filesystem;

namespace {
std::string chakra_bad_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("collsim-chakra-bad-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir.string();
}

void chakra_write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

void chakra_copy_sample(const std::string& dir, int rank) {
    const std::string name = "chakra." + std::to_string(rank) + ".json";
    fs::copy_file(test::source_path("workloads/samples/chakra/" + name), dir + "/" + name);
}

// An .et file: an empty GlobalMetadata, then `nodes` (encoded messages).
std::string chakra_et_file(const std::vector<std::string>& nodes) {
    std::string out(1, '\0');
    for (const std::string& n : nodes) out += static_cast<char>(n.size()) + n;
    return out;
}
}  // namespace

TEST_CASE("a Chakra set with a rank file missing is refused, naming the missing rank", "[chakra]") {
    const std::string dir = chakra_bad_dir("missing");
    for (int r : {0, 1, 3}) chakra_copy_sample(dir, r);
    const std::string expect = "rank files: expected one file per rank from 0 to 3 (chakra.N.json), found no "
                               "chakra.2.json (ranks 0, 1, 3 are there)";
    CHECK_THAT(test::input_error_of([&] { load_any_trace(dir); }), Catch::Contains(dir + ": " + expect));
    CHECK_THAT(test::input_error_of([&] { load_any_trace(dir + "/chakra.0.json"); }),
               Catch::Contains(dir + "/chakra.0.json: " + expect));
    const test::CliResult cli = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + dir);
    CHECK(cli.exit_code == 2);
    CHECK_THAT(cli.err, Catch::Contains("no chakra.2.json"));
    fs::remove_all(dir);
}

TEST_CASE("a Chakra folder skips dotfiles and macOS resource forks, and refuses two sets", "[chakra]") {
    const std::string dir = chakra_bad_dir("folder");
    for (int r : {0, 1, 2, 3}) chakra_copy_sample(dir, r);
    chakra_write(dir + "/._chakra.0.json", std::string("\0\x05\x16\x07Mac OS X", 12));
    chakra_write(dir + "/.chakra.4.json", "not a trace");
    CHECK(load_any_trace(dir).ranks == 4);
    fs::copy_file(dir + "/chakra.0.json", dir + "/small.0.json");
    CHECK_THAT(test::input_error_of([&] { load_any_trace(dir); }),
               Catch::Contains(dir + ": directory: expected the rank files of one trace (NAME.N.et or NAME.N.json), "
                                     "found 2 sets: chakra.N.json, small.N.json"));
    fs::remove_all(dir);
}

TEST_CASE("a Chakra set of fewer files than its ngpus is refused, naming both", "[chakra]") {
    const std::string dir = chakra_bad_dir("world");
    for (int r : {0, 1}) chakra_copy_sample(dir, r);
    CHECK_THAT(test::input_error_of([&] { load_any_trace(dir); }),
               Catch::Contains(dir + ": world_size: expected a trace for each of the job's 4 ranks (its world_size), "
                                     "or --ranks-present to replicate the ranks given, found 2 files in " +
                                     dir + ", of ranks 0, 1"));
    fs::remove_all(dir);
}

TEST_CASE("an unknown Chakra node type is refused at its node, in the file it is in", "[chakra]") {
    const std::string dir = chakra_bad_dir("type");
    const std::string file = dir + "/chakra.0.json";
    chakra_write(file, "{\"workload_graph\": [\n  {\"Id\": 1, \"NodeType\": 4},\n  {\"Id\": 2, \"NodeType\": 42}\n]}");
    CHECK_THAT(test::input_error_of([&] { load_any_trace(file); }),
               Catch::Contains(file + ":3:25: workload_graph[1].NodeType: expected a Chakra JSON node type: "
                                      "1 METADATA, 2 MEM_LOAD, 3 MEM_STORE, 4 COMP, 5 COMM_SEND, 6 COMM_RECV, "
                                      "7 COMM_COLL, found 42"));
    // In an .et file: node 1 (id 2, name "x") has type 42; its place is its byte offset.
    const std::string et = dir + "/trace.0.et";
    chakra_write(et, chakra_et_file({std::string("\x08\x01\x12\x01x\x18\x04", 7), std::string("\x08\x02\x12\x01x\x18\x2a", 7)}));
    const std::string msg = test::input_error_of([&] { load_any_trace(et); });
    if (chakra_et_supported())
        CHECK_THAT(msg, Catch::Contains(et + ": byte 9: node[1].type: expected a Chakra ET protobuf node type: "
                                             "1 METADATA, 2 MEM_LOAD, 3 MEM_STORE, 4 COMP, 5 COMM_SEND, 6 COMM_RECV, "
                                             "7 COMM_COLL, found 42"));
    else
        CHECK_THAT(msg, Catch::Contains(et + ":1:1: file: expected a trace this collsim can read, found this is a "
                                             "Chakra ET protobuf; this collsim was built without protobuf"));
    fs::remove_all(dir);
}

TEST_CASE("a cut-off or corrupt Chakra ET file is refused at the byte where it breaks", "[chakra]") {
    if (!chakra_et_supported()) return;
    const std::string dir = chakra_bad_dir("cut");
    const std::string et = dir + "/trace.0.et";
    chakra_write(et, chakra_et_file({std::string("\x08\x01\x12\x01x\x18\x04", 7)}) + std::string("\x4a\x08\x01", 3));
    CHECK_THAT(test::input_error_of([&] { load_any_trace(et); }),
               Catch::Contains(et + ": byte 9: node[1]: expected a message length (varint) within the file (Chakra ET "
                                    "protobuf), found a cut-off or corrupt length"));
    chakra_write(et, chakra_et_file({std::string("\x08\x01\x12\x05x", 5)}));
    CHECK_THAT(test::input_error_of([&] { load_any_trace(et); }),
               Catch::Contains(et + ": byte 1: node[0]: expected a 5-byte Node message (Chakra ET protobuf), found "
                                    "bytes protobuf cannot parse as one"));
    // A send without its peer.
    chakra_write(et, chakra_et_file({std::string("\x08\x01\x12\x01x\x18\x05", 7)}));
    CHECK_THAT(test::input_error_of([&] { load_any_trace(et); }),
               Catch::Contains(et + ": byte 1: node[0].comm_dst: expected an integer that is not negative, found nothing"));
    fs::remove_all(dir);
}

TEST_CASE("inputs in a format their reader does not take are named as that format", "[chakra]") {
    CHECK(sniff_input_format(std::string("\x1f\x8b\x08", 3)) == InputFormat::gzip);
    CHECK(sniff_input_format("PK\x03\x04rest") == InputFormat::zip);
    CHECK(sniff_input_format("\x28\xb5\x2f\xfd") == InputFormat::zstd);
    CHECK(sniff_input_format("<?xml version=\"1.0\"?>\n<system version=\"1\">") == InputFormat::nccl_topology_xml);
    CHECK(sniff_input_format("<algo name=\"x\">") == InputFormat::msccl_xml);
    CHECK(sniff_input_format("name: dgx\ngpus: 8\n") == InputFormat::text);
    CHECK(sniff_input_format("{\"traceEvents\": []}") == InputFormat::text);
    CHECK(sniff_input_format(std::string("\x07\x0a\x05" "0.0.4", 8)) == InputFormat::chakra_et);
    // The root element decides, past a long header comment; YAML's merge key is not XML.
    CHECK(sniff_input_format("<!-- " + std::string(2000, '-') + " -->\n<system>") == InputFormat::nccl_topology_xml);
    CHECK(sniff_input_format("<<: *defaults\n") == InputFormat::text);
    CHECK(sniff_input_format("<!-- cut") == InputFormat::xml);
    CHECK(sniff_input_format("name: x\n\x1b[0m\n") == InputFormat::binary);

    const std::string dir = chakra_bad_dir("formats");
    // Tar archives are read, or refused without libarchive: trace_archive_test.
    chakra_write(dir + "/a.zip", "PK\x03\x04" + std::string(40, '\0'));
    chakra_write(dir + "/a.zst", "\x28\xb5\x2f\xfd" + std::string(40, '\1'));
    chakra_write(dir + "/topo.xml", "<?xml version=\"1.0\"?>\n<system version=\"1\">\n  <cpu numaid=\"0\"/>\n</system>\n");
    chakra_write(dir + "/long.yaml", std::string(15000, 'x') + "\n");
    struct Case {
        std::string args, expect;
    };
    for (const Case& c : {
             Case{"replay --topology topologies/dgx-h100.yaml --trace " + dir + "/a.zip",
                  dir + "/a.zip:1:1: file: expected a workload trace (native YAML or JSON, Chakra, PyTorch ET, Kineto), "
                        "found this is a zip archive: unpack it first (unzip)"},
             // Topologies: the same sniffer (sim/core/input_format), whose NCCL XML the reader imports.
             Case{"coll --topology " + dir + "/a.zst",
                  dir + "/a.zst:1:1: topology: expected a topology: schema-v1 YAML or NCCL topology XML, found this is "
                        "a zstd-compressed file: unpack it first (zstd -d)"},
             Case{"coll --topology " + dir + "/topo.xml",
                  dir + "/topo.xml:2:1: NCCL topology XML <system>: expected at least one GPU"},
             Case{"topo check " + test::source_path("workloads/samples/chakra-et/ring.0.et"),
                  "ring.0.et:1:1: topology: expected a topology: schema-v1 YAML or NCCL topology XML, found this is "
                  "a Chakra ET protobuf: give it to `collsim replay --trace`"},
         }) {
        INFO(c.args);
        const test::CliResult r = test::run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.expect));
        CHECK_THAT(r.err, !Catch::Contains("escape"));
    }
    // A 15 KB line is quoted in at most 120 characters.
    const test::CliResult r = test::run_cli("topo check " + dir + "/long.yaml");
    CHECK(r.exit_code == 2);
    CHECK(r.err.size() < 400);
    CHECK_THAT(r.err, Catch::Contains(std::string(120, 'x') + "..."));
    fs::remove_all(dir);
}

TEST_CASE("ranks whose imported collectives disagree are named at the node's place", "[chakra]") {
    // Found by tests/mutation_fuzz.py: the replay's check named the rank file without a place.
    const std::string dir = chakra_bad_dir("disagree");
    for (int r : {0, 2, 3}) chakra_copy_sample(dir, r);
    std::string one = read_text_file(test::source_path("workloads/samples/chakra/chakra.1.json"));
    one.replace(one.find("\"comm_size\": 16777216"), 21, "\"comm_size\": 8388608");
    chakra_write(dir + "/chakra.1.json", one);
    const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + dir);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(dir + "/chakra.1.json:80:5: op 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL#106' on "
                                            "rank 1: expected call 1 on 'world' to match rank 0 (allreduce of 16777216 bytes"));
    fs::remove_all(dir);
}
