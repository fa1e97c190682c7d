#include "sim/faults/link_faults.hpp"

#include <memory>

namespace collsim {

namespace {
// Toggles one link direction: up for duty x period, down for the rest, from
// `from` until `until` (if set), for as long as the schedule runs.
struct Flapper : std::enable_shared_from_this<Flapper> {
    Simulator* sim;
    Network* net;
    ResourceId channel;
    Bandwidth up_bw;
    Time up_for, down_for;
    std::optional<Time> until;
    std::function<bool()> running;

    void toggle(bool up) {
        if (!running() || (until && sim->now() >= *until)) {
            net->set_capacity(channel, up_bw);  // the flapping ends with the link up
            return;
        }
        net->set_capacity(channel, up ? up_bw : Bandwidth{});
        // Each pending toggle keeps its flapper alive.
        sim->schedule_in(up ? up_for : down_for, [self = shared_from_this(), up] { self->toggle(!up); });
    }
};
}  // namespace

void apply_link_faults(const FaultPlan& plan, Simulator& sim, Network& net, std::function<bool()> running) {
    for (const Fault& f : plan.faults) {
        if (!f.on_links()) continue;
        for (LinkId l : f.links) {
            for (ResourceId ch : {2 * l, 2 * l + 1}) {
                const Bandwidth nominal = net.capacity(ch);
                switch (f.kind) {
                    case FaultKind::down:
                        sim.schedule_at(f.at, [&net, ch] { net.set_capacity(ch, Bandwidth{}); });
                        break;
                    case FaultKind::degrade: {
                        const Bandwidth less = Bandwidth::bytes_per_s(
                            static_cast<int64_t>(static_cast<double>(nominal.bps()) * f.bandwidth_factor));
                        const Time added = f.added_latency;
                        sim.schedule_at(f.at, [&net, ch, less, added] {
                            net.set_capacity(ch, less);
                            net.set_extra_latency(ch, added);
                        });
                        break;
                    }
                    case FaultKind::flap: {
                        const Time up_for = Time::from_ps(static_cast<int64_t>(static_cast<double>(f.period.ps()) * f.duty));
                        auto fl = std::make_shared<Flapper>();
                        fl->sim = &sim;
                        fl->net = &net;
                        fl->channel = ch;
                        fl->up_bw = nominal;
                        fl->up_for = up_for;
                        fl->down_for = f.period - up_for;
                        if (f.duration) fl->until = f.at + *f.duration;
                        fl->running = running;
                        sim.schedule_at(f.at, [fl] { fl->toggle(true); });
                        continue;  // the flapper restores the link itself
                    }
                    default: break;
                }
                if (f.duration)
                    sim.schedule_at(f.at + *f.duration, [&net, ch, nominal] {
                        net.set_capacity(ch, nominal);
                        net.set_extra_latency(ch, Time{});
                    });
            }
        }
    }
}

NetworkSetup link_fault_setup(const FaultPlan& plan) {
    for (const Fault& f : plan.faults)
        if (!f.on_links())
            throw InputError(f.where, "kind", "a link fault (down, degrade, flap) for a single collective",
                             f.kind == FaultKind::straggler
                                 ? "a straggler, which strikes per step or collective of a replay"
                                 : "a compute fault, which needs a replay");
    return [plan](Simulator& sim, Network& net, std::function<bool()> running) {
        apply_link_faults(plan, sim, net, std::move(running));
    };
}

}  // namespace collsim
