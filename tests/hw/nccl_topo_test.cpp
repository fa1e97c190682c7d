// NCCL topology XML import (`topo import`, `--topology FILE.xml`): our own
// samples, the public dumps in ../shared/real-inputs/nccl-topo (when
// present), and one test per refusal.
#include <catch2/catch.hpp>

#include <filesystem>

#include "sim/core/text_file.hpp"
#include "sim/hw/nccl_topo.hpp"
#include "sim/hw/topology_loader.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;

namespace {

std::string ncclxml_sample(const std::string& name) { return test::source_path("tests/data/nccl-topo/" + name); }

NcclImport ncclxml_import(const std::string& path, NcclImportOptions o = {}) {
    return import_nccl_topology(read_text_file(path), path, o);
}

Topology ncclxml_topology(const NcclImport& imp, const std::string& path) {
    return parse_topology(imp.yaml, path + " (imported)");
}

const Link* ncclxml_link(const Topology& t, const std::string& a, const std::string& b) {
    const auto ia = t.find(a), ib = t.find(b);
    if (!ia || !ib) return nullptr;
    for (const Link& l : t.links())
        if ((l.a == *ia && l.b == *ib) || (l.a == *ib && l.b == *ia)) return &l;
    return nullptr;
}

// The widest NVLink or xGMI port of each GPU, and the PCIe link above it.
struct NcclxmlGpuLinks {
    double nvlink_gbps = 0;  // summed over the GPU's NVLink/xGMI links
    int pcie_gen = 0, pcie_lanes = 0;
};

NcclxmlGpuLinks ncclxml_gpu_links(const Topology& t, DeviceId gpu) {
    NcclxmlGpuLinks out;
    for (const Link& l : t.links()) {
        if (l.a != gpu && l.b != gpu) continue;
        if (l.kind == LinkKind::nvlink || l.kind == LinkKind::xgmi) out.nvlink_gbps += l.bandwidth.gbps();
        if (l.kind == LinkKind::pcie) out.pcie_gen = l.pcie_gen, out.pcie_lanes = l.pcie_lanes;
    }
    return out;
}

bool ncclxml_noted(const NcclImport& imp, const std::string& text) {
    for (const std::string& n : imp.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("an NVSwitch dump imports with its NVLinks summed into one switch port per GPU", "[ncclxml]") {
    const NcclImport imp = ncclxml_import(ncclxml_sample("nvswitch-2gpu.xml"));
    const Topology topo = ncclxml_topology(imp, ncclxml_sample("nvswitch-2gpu.xml"));
    REQUIRE(topo.gpus().size() == 2);
    CHECK(topo.device(topo.gpus()[0]).arch == GpuArch::hopper);
    // 5 + 4 + 4 + 5 NVLinks of 25 GB/s per direction.
    const Link* nv = ncclxml_link(topo, "gpu0", "nvswitch");
    REQUIRE(nv);
    CHECK(nv->bandwidth.gbps() == Approx(450));
    CHECK(topo.device(*topo.find("nvswitch")).in_network_reduction);
    const Link* pcie = ncclxml_link(topo, "gpu1", "pcie1");
    REQUIRE(pcie);
    CHECK(pcie->pcie_gen == 5);
    CHECK(pcie->pcie_lanes == 16);
    // Sapphire Rapids sockets: NCCL's SRP_QPI_BW.
    CHECK(ncclxml_link(topo, "cpu0", "cpu1")->bandwidth.gbps() == Approx(22));
    CHECK(topo.device(topo.gpus()[0]).memory_bandwidth.gbps() == Approx(3350));
    CHECK(ncclxml_noted(imp, "the H100 SXM5's, for sm 90"));
    CHECK(ncclxml_noted(imp, "NVLS"));
}

TEST_CASE("NVLinks between GPUs are counted per pair, and odd values are mapped with a note each", "[ncclxml]") {
    const std::string file = ncclxml_sample("nvlink-pairs-4gpu.xml");
    const NcclImport imp = ncclxml_import(file);
    const Topology topo = ncclxml_topology(imp, file);
    REQUIRE(topo.gpus().size() == 4);
    CHECK(ncclxml_link(topo, "gpu0", "gpu1")->bandwidth.gbps() == Approx(50));
    // gpu0 lists 1 link to gpu2, gpu2 lists 2: the smaller is used, said so.
    CHECK(ncclxml_link(topo, "gpu0", "gpu2")->bandwidth.gbps() == Approx(25));
    CHECK(ncclxml_noted(imp, "gpu0 and gpu2 list 1 and 2 nvlink links to each other: 1 used"));
    // An <nvlink> naming its own GPU is an NVSwitch NVML could not see.
    CHECK(ncclxml_link(topo, "gpu3", "nvswitch")->bandwidth.gbps() == Approx(25));
    CHECK(ncclxml_noted(imp, file + ":34:11: <nvlink> of 0000:3c:00.0 names the GPU itself"));
    // link_speed="" is Gen3, link_width="0" is x16, as NCCL takes them.
    CHECK(ncclxml_link(topo, "gpu1", "pcie0")->pcie_gen == 3);
    CHECK(ncclxml_noted(imp, file + ":14:61: link_speed of 0000:1c:00.0 is '': taken as PCIe Gen3"));
    CHECK(ncclxml_link(topo, "pcie1", "cpu1")->pcie_lanes == 16);
    CHECK(ncclxml_noted(imp, "link_width of 0000:3a:00.0 is '0': taken as x16"));
    CHECK(ncclxml_link(topo, "cpu0", "cpu1")->bandwidth.gbps() == Approx(10));
}

TEST_CASE("RCCL's xGMI links are their own link kind, at the gfx942 rate", "[ncclxml]") {
    const NcclImport imp = ncclxml_import(ncclxml_sample("rccl-xgmi-2gpu.xml"));
    const Topology topo = ncclxml_topology(imp, ncclxml_sample("rccl-xgmi-2gpu.xml"));
    REQUIRE(topo.gpus().size() == 2);
    const Link* x = ncclxml_link(topo, "gpu0", "gpu1");
    REQUIRE(x);
    CHECK(x->kind == LinkKind::xgmi);
    CHECK(x->bandwidth.gbps() == Approx(64));
    CHECK(topo.device(topo.gpus()[0]).arch == GpuArch::unknown);
    CHECK(topo.device(topo.gpus()[0]).memory_bandwidth.gbps() == Approx(5300));
    CHECK(ncclxml_noted(imp, "AMD GPU (gcn gfx942)"));
}

TEST_CASE("an NCCL_TOPO_FILE skeleton needs --gpu-arch and imports without NVLink", "[ncclxml]") {
    const std::string file = ncclxml_sample("skeleton-4gpu.xml");
    CHECK_THROWS_WITH(ncclxml_import(file), Catch::Contains("skeleton-4gpu.xml:6:7: NCCL topology XML <pci>: expected a "
                                                          "<gpu sm=...> inside a GPU's <pci>, or --gpu-arch"));
    NcclImportOptions o;
    o.gpu_arch = GpuArch::ampere;
    const NcclImport imp = ncclxml_import(file, o);
    const Topology topo = ncclxml_topology(imp, file);
    REQUIRE(topo.gpus().size() == 4);
    CHECK(ncclxml_gpu_links(topo, topo.gpus()[1]).pcie_lanes == 8);
    CHECK(ncclxml_gpu_links(topo, topo.gpus()[0]).nvlink_gbps == 0);
    CHECK(ncclxml_noted(imp, "NCCL_TOPO_FILE skeleton"));
}

TEST_CASE("topo import writes the same YAML every time, and --topology takes the XML with notes", "[ncclxml]") {
    const std::string args = "topo import tests/data/nccl-topo/nvlink-pairs-4gpu.xml";
    const auto a = test::run_cli(args), b = test::run_cli(args);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == b.out);
    CHECK_THAT(a.out, Catch::StartsWith("# Imported by `collsim topo import`"));
    CHECK_THAT(a.err, Catch::Contains("collsim: note: "));
    const auto coll = test::run_cli("coll -t tests/data/nccl-topo/nvlink-pairs-4gpu.xml --sizes 1M --format json");
    CHECK(coll.exit_code == 0);
    CHECK_THAT(coll.err, Catch::Contains("collsim: note: ") && Catch::Contains("taken as PCIe Gen3"));
    CHECK_THAT(coll.out, Catch::Contains("\"busbw"));
}

TEST_CASE("topo import --nodes --fabric builds a cluster whose NICs join at their dumped speed", "[ncclxml]") {
    NcclImportOptions o;
    o.nodes = 2;
    o.fabric_file = ncclxml_sample("fabric-rail.yaml");
    const NcclImport imp = ncclxml_import(ncclxml_sample("nvswitch-2gpu.xml"), o);
    const Topology topo = ncclxml_topology(imp, ncclxml_sample("nvswitch-2gpu.xml"));
    CHECK(topo.gpus().size() == 4);
    CHECK(topo.find("node1.gpu1"));
    CHECK(ncclxml_noted(imp, "endpoint_link of fabric ib set to the NICs' speed, 400Gb/s"));
    const auto coll = test::run_cli("topo import tests/data/nccl-topo/nvswitch-2gpu.xml --nodes 2");
    CHECK(coll.exit_code == 2);
    CHECK_THAT(coll.err, Catch::Contains("--fabric: expected a YAML file with the fabrics joining the nodes"));
}

TEST_CASE("a bad NCCL topology file is exit 2 with file, line, column and the format", "[ncclxml]") {
    struct Case {
        std::string file, expect;
    };
    for (const Case& c : {
             Case{"bad-cut-header.xml", "bad-cut-header.xml:1:1: xml: expected well-formed NCCL topology XML: '-->' to "
                                        "close the comment that starts here, found the end of the file"},
             Case{"bad-unclosed.xml", "bad-unclosed.xml:5:7: xml: expected well-formed NCCL topology XML: </gpu> to "
                                      "close <gpu> of line 4, found </pci>"},
             Case{"bad-link-speed.xml", "bad-link-speed.xml:3:59: NCCL topology XML <pci>.link_speed: expected a PCIe "
                                        "link speed such as '16.0 GT/s PCIe' or '8 GT/s' (2.5 to 64 GT/s), found 'fast'"},
             Case{"bad-link-width.xml", "bad-link-width.xml:3:79: NCCL topology XML <pci>.link_width: expected an "
                                        "integer from 0 to 32, found 'x16'"},
             Case{"bad-no-class.xml", "bad-no-class.xml:3:5: NCCL topology XML <pci>.class: expected a PCI class code"},
             Case{"bad-tclass.xml", "bad-tclass.xml:5:56: NCCL topology XML <nvlink>.tclass: expected 0x068000 (an "
                                    "NVSwitch) or a GPU's class (0x03...., 0x12....), found '0x020700'"},
             Case{"bad-sm.xml", "bad-sm.xml:4:23: NCCL topology XML <gpu>.sm: expected a compute capability collsim "
                                "models"},
         }) {
        INFO(c.file);
        const auto r = test::run_cli("topo import tests/data/nccl-topo/" + c.file);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
}

TEST_CASE("a file in another format is named as that format, and quoted at most 120 characters", "[ncclxml]") {
    const auto msccl = test::run_cli("coll -t tests/data/msccl/ring-allreduce-4.xml");
    CHECK(msccl.exit_code == 2);
    CHECK_THAT(msccl.err, Catch::Contains("ring-allreduce-4.xml:1:1: topology: expected a topology: schema-v1 YAML or "
                                          "NCCL topology XML, found this is an MSCCL algorithm (XML)"));
    // Where the import is not offered, the message points to it.
    CHECK_THROWS_WITH(load_topology(ncclxml_sample("nvswitch-2gpu.xml")),
                      Catch::Contains("nvswitch-2gpu.xml:1:1: topology: expected a schema-v1 YAML topology, found "
                                      "this is NCCL topology XML: use `collsim topo import` to convert it"));
    // A one-line file that is not YAML mappings used to be echoed whole.
    std::string message;
    try {
        parse_topology(std::string(15000, 'x'), "long.yaml");
    } catch (const std::exception& e) {
        message = e.what();
    }
    CHECK_THAT(message, Catch::Contains("long.yaml:1:1") && Catch::Contains("(15000 characters in all)"));
    CHECK(message.size() < 300);
}

TEST_CASE("the public NCCL topology dumps import with their GPUs, NVLink and PCIe, and coll runs on them",
          "[ncclxml]") {
    const std::filesystem::path dir = test::source_path("../shared/real-inputs/nccl-topo");
    if (!std::filesystem::exists(dir)) {
        WARN("../shared/real-inputs/nccl-topo is absent: skipped");
        return;
    }
    struct Case {
        const char* file;
        const char* arch;  // --gpu-arch for skeletons
        std::size_t gpus;
        double nvlink_gbps;  // per GPU and direction
        int gen, lanes;      // of GPU 0's PCIe link
    };
    // From the files: the cs244c dump's GPU has 6 NVLinks of count 2 to
    // NVSwitches (sm 80: 12 x 25 GB/s); MI300X GPUs have 7 xGMI links each.
    for (const Case& c : {
             Case{"cs244c-skampere1-a100-nccl_topo.xml", "", 1, 300, 4, 16},
             Case{"rccl-topo_8p_940.xml", "", 8, 7 * 64, 5, 16},
             Case{"rccl-topo_8p_pcie.xml", "", 8, 0, 4, 16},
             Case{"azhpc-ndv4-topo.xml", "ampere", 8, 0, 4, 16},
             Case{"azhpc-ndv5-topo.xml", "hopper", 8, 0, 5, 16},
             Case{"superbench-ndv5-topo.xml", "hopper", 8, 0, 5, 16},
             Case{"azhpc-ndv2-topo.xml", "volta", 8, 0, 4, 16},
             Case{"aws-ofi-nccl-p4d-24xl-topo.xml", "ampere", 8, 0, 3, 16},
         }) {
        INFO(c.file);
        const std::string path = (dir / c.file).string();
        NcclImportOptions o;
        if (*c.arch) o.gpu_arch = gpu_arch_from(c.arch);
        const NcclImport imp = ncclxml_import(path, o);
    const Topology topo = ncclxml_topology(imp, path);
        REQUIRE(topo.gpus().size() == c.gpus);
        for (DeviceId g : topo.gpus()) {
            const NcclxmlGpuLinks l = ncclxml_gpu_links(topo, g);
            CHECK(l.nvlink_gbps == Approx(c.nvlink_gbps));
            CHECK(l.pcie_gen == c.gen);
            CHECK(l.pcie_lanes == c.lanes);
        }
        // coll on every GPU; the one-GPU dump as two nodes over its NICs.
        const std::string arch = *c.arch ? std::string(" --gpu-arch ") + c.arch : "";
        const std::string nodes = c.gpus == 1 ? " --nodes 2 --fabric tests/data/nccl-topo/fabric-rail.yaml" : "";
        const std::string out = (std::filesystem::temp_directory_path() / ("collsim-ncclxml-" + std::string(c.file) + ".yaml")).string();
        REQUIRE(test::run_cli("topo import " + path + arch + nodes + " -o " + out).exit_code == 0);
        const auto coll = test::run_cli("coll -t " + out + " --sizes 1M --format json");
        CHECK(coll.exit_code == 0);
        CHECK_THAT(coll.out, Catch::Contains("\"busbw"));
    }
    // g5.48xlarge's skeleton lists bare bus ids: nothing says which is a GPU.
    const auto g5 = test::run_cli("topo import " + (dir / "aws-ofi-nccl-g5.48xl-topo.xml").string());
    CHECK(g5.exit_code == 2);
    CHECK_THAT(g5.err, Catch::Contains("aws-ofi-nccl-g5.48xl-topo.xml:14:5: NCCL topology XML <pci>.class") &&
                           Catch::Contains("NCCL_TOPO_FILE skeleton"));
}

TEST_CASE("the p5 example replays on the cluster its import command writes", "[ncclxml]") {
    // command-b-replay reads p5-2node.yaml; command-a-import's golden output
    // is that file, so the two cannot drift apart.
    CHECK(test::slurp(test::source_path("examples/p5-import-ddp/p5-2node.yaml")) ==
          test::slurp(test::source_path("examples/p5-import-ddp/expected-a-import.txt")));
}
