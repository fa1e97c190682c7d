#include "tests/support/topology_inputs.hpp"

#include "sim/hw/topology_loader.hpp"
#include "tests/support/input_error.hpp"
#include "tests/support/run_cli.hpp"

namespace collsim::test {

const Topology& dgx_h100() {
    static const Topology t = load_topology(source_path("topologies/dgx-h100.yaml"));
    return t;
}

std::string topology_error(const std::string& yaml) {
    return input_error_of([&] { parse_topology(yaml, "t.yaml"); });
}

}  // namespace collsim::test
