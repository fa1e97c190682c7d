#include "algorithms/fluid_form.hpp"

namespace collsim {

Schedule fluid_schedule(const FluidForm& form, const CollectiveCall& call, std::string algorithm, Time launch) {
    Schedule s;
    s.algorithm = std::move(algorithm);
    s.ranks = call.ranks;
    s.channels = call.channels;
    s.chunks = 1;
    s.switches = form.switches;
    s.fluid = true;
    const Time rest = form.closed.total() - launch - form.steady;
    s.fill = rest > Time{} ? rest : Time{};
    s.steps.reserve(form.streams.size());
    for (const FluidStream& f : form.streams) {
        if (f.bytes.count() == 0) continue;
        if (f.to == kMemoryStream || f.to == kCopyStream) {
            s.local(f.to == kMemoryStream ? StepKind::local_reduce : StepKind::local_copy, f.from, f.channel, 0, 0,
                    f.bytes, {});
            continue;
        }
        const StepId id = s.send(f.from, f.to, f.channel, 0, f.bytes, {}, false);
        s.steps[id].flags |= kFluidStream;
    }
    return s;
}

}  // namespace collsim
