#include "workloads/gen/pp.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace collsim::gen {

Json generate_pp(const PpOptions& o, const std::string& command) {
    const auto sched = pipe_schedule_from(o.schedule);
    if (!sched) throw std::invalid_argument("--schedule: gpipe or 1f1b");
    if (o.stages < 2) throw std::invalid_argument("--stages: at least 2");
    if (o.microbatches < 1) throw std::invalid_argument("--microbatches: at least 1");
    if (o.forward.ps() <= 0) throw std::invalid_argument("--forward: a positive time per microbatch and stage");
    const Time backward = o.backward.ps() > 0 ? o.backward : o.forward * 2;
    TraceDoc doc(o.name, o.stages, command,
                 fmt::format("{} pipeline: {} stages, {} microbatches, forward {} and backward {} per microbatch "
                             "and stage",
                             o.schedule, o.stages, o.microbatches, format_time(o.forward), format_time(backward)));
    doc.communicator("pp", "all");
    for (int s = 0; s < o.stages; ++s) {
        std::vector<Json> ops;
        pipeline_stage(ops, *sched, o.stages, s, o.microbatches, PipeLinks{"pp", o.activation},
                       [&](bool forward, int i, const Names& after) {
                           return std::vector<Json>{compute_op(fmt::format("{}{}", forward ? 'F' : 'B', i),
                                                               forward ? o.forward : backward, after)};
                       });
        doc.program_for(std::to_string(s), std::move(ops));
    }
    return doc.document();
}

}  // namespace collsim::gen
