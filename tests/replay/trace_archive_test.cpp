// Trace archives (issue 23): a .tgz or .tar of a trace folder is read as the
// folder; with libarchive absent, it is refused with "unpack it first". Our
// own samples are packed by the test itself; the archives in
// ../shared/real-inputs are read where that folder is present.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "sim/replay/import/any_trace.hpp"
#include "sim/replay/import/trace_archive.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
namespace fs = std::filesystem;

namespace {
struct ArchiveScratch {
    fs::path dir = fs::temp_directory_path() / ("collsim-archive-" + std::to_string(::getpid()));
    ArchiveScratch() {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~ArchiveScratch() { fs::remove_all(dir); }
    // `tar FLAGS dir/NAME -C workloads/samples WHAT`
    std::string pack(const std::string& flags, const std::string& name, const std::string& what) const {
        const std::string out = (dir / name).string();
        const std::string cmd = "tar " + flags + " '" + out + "' -C '" + test::source_path("workloads/samples") + "' " + what;
        REQUIRE(std::system(cmd.c_str()) == 0);
        return out;
    }
};

std::size_t op_count(const Trace& t) {
    std::size_t n = 0;
    for (int r = 0; r < t.ranks; ++r) n += t.program(r).ops.size();
    return n;
}

bool has_note(const Trace& t, const std::string& text) {
    for (const std::string& n : t.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST_CASE("a .tgz or .tar of a trace folder reads as the folder", "[archive]") {
    const ArchiveScratch s;
    const std::string tgz = s.pack("-czf", "chakra.tgz", "chakra");
    const std::string tar = s.pack("-cf", "kineto.tar", "kineto");
    const std::string one = s.pack("-czf", "one.tar.gz", "kineto/rank0.pt.trace.json");
    if (!trace_archives_supported()) {
        const auto r = test::run_cli("replay --topology topologies/dgx-h100.yaml --trace " + tgz);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(tgz + ":1:1: file:") && Catch::Contains("this is a tar archive: unpack it first"));
        return;
    }
    const Trace chakra = load_any_trace(tgz), chakra_folder = load_any_trace(test::source_path("workloads/samples/chakra"));
    CHECK(chakra.ranks == 4);
    CHECK(op_count(chakra) == op_count(chakra_folder));
    CHECK(has_note(chakra, tgz + ": read from the archive's 4 file(s), unpacked"));
    CHECK(chakra.source == tgz);
    const Trace kineto = load_any_trace(tar), kineto_folder = load_any_trace(test::source_path("workloads/samples/kineto"));
    CHECK(kineto.ranks == kineto_folder.ranks);
    CHECK(op_count(kineto) == op_count(kineto_folder));
    // One file inside, under a folder: that file.
    CHECK(op_count(load_any_trace(one)) ==
          op_count(load_any_trace(test::source_path("workloads/samples/kineto/rank0.pt.trace.json"))));
    // The replay is the folder's, to the picosecond; the temporary folder is gone afterwards.
    const std::string args = "replay --topology topologies/dgx-h100.yaml --format json --trace ";
    const auto a = test::run_cli(args + tgz), b = test::run_cli(args + test::source_path("workloads/samples/chakra"));
    REQUIRE(a.exit_code == 0);
    CHECK_THAT(a.err, Catch::Contains("read from the archive's 4 file(s), unpacked"));
    const auto step = [](const std::string& out) { return out.substr(out.find("\"step_time_us\""), 40); };
    CHECK(step(a.out) == step(b.out));
}

TEST_CASE("a broken or hostile trace archive is exit 2 at its byte", "[archive]") {
    if (!trace_archives_supported()) return;
    const ArchiveScratch s;
    const std::string tgz = s.pack("-czf", "chakra.tgz", "chakra");
    // Cut in the middle of a member.
    std::ifstream in(tgz, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string cut = (s.dir / "cut.tgz").string();
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    CHECK_THAT(test::input_error_of([&] { load_any_trace(cut); }), Catch::Contains(cut + ": byte "));
    // An archive inside an archive is not unpacked again (an archive of itself would never end).
    const std::string nested = (s.dir / "nested.tar").string();
    REQUIRE(std::system(("tar -cf '" + nested + "' -C '" + s.dir.string() + "' chakra.tgz").c_str()) == 0);
    CHECK_THAT(test::input_error_of([&] { load_any_trace(nested); }),
               Catch::Contains("nested.tar/chakra.tgz:1:1: file:") && Catch::Contains("this is a tar archive"));
    // A member that would land outside the folder it is unpacked into.
    const std::string evil = (s.dir / "evil.tar").string();
    REQUIRE(std::system(("tar -cf '" + evil + "' -P -C '" + s.dir.string() + "' ../" + s.dir.filename().string() +
                         "/chakra.tgz 2>/dev/null")
                            .c_str()) == 0);
    CHECK_THAT(test::input_error_of([&] { load_any_trace(evil); }),
               Catch::Contains(evil + ": byte ") && Catch::Contains("member: expected members inside the archive's own folder"));
}

TEST_CASE("the real trace archives read as their unpacked folders", "[archive]") {
    const std::string real = test::source_path("../shared/real-inputs");
    if (!fs::exists(real) || !trace_archives_supported()) {
        WARN("../shared/real-inputs or libarchive is not here: skipped");
        return;
    }
    const ArchiveScratch s;
    struct Archive {
        std::string path, folder;  // the folder it holds
    };
    for (const Archive& a : {Archive{"kineto/param-dlrm_kineto.tar.gz", "dlrm_kineto"},
                             Archive{"chakra/param-dlrm_pytorch_et.tar.gz", "dlrm_pytorch_et"}}) {
        INFO(a.path);
        const std::string path = real + "/" + a.path;
        REQUIRE(std::system(("tar -xzf '" + path + "' -C '" + s.dir.string() + "'").c_str()) == 0);
        const Trace packed = load_any_trace(path), unpacked = load_any_trace((s.dir / a.folder).string());
        CHECK(packed.ranks == 8);
        CHECK(packed.ranks == unpacked.ranks);
        CHECK(op_count(packed) == op_count(unpacked));
    }
}
