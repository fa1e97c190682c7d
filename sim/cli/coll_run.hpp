#pragma once
// The size sweep `coll` runs, apart from how it is printed: `compare` runs it
// once per side.
#include <optional>

#include "sim/cli/coll_command.hpp"
#include "sim/report/coll_report.hpp"
#include "sim/report/partial_report.hpp"

namespace collsim {

struct CollRun {
    CollReport report;
    std::optional<PartialRun> partial;  // --wall-limit stopped it after report.rows
    bool hung = false;                  // some size never finished
};

// Checks `o` (InputError on bad input, all but --format), loads the topology
// with its --set settings and times every size; notes go to stderr.
CollRun run_coll_sweep(const CollOptions& o, ProgressMonitor& monitor);

}  // namespace collsim
