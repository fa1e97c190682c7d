// The replay report as a table for people: the step, where time went, the
// longest collectives and bubbles, the busiest links.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "sim/replay/replay_tier.hpp"
#include "sim/report/replay_report.hpp"

namespace collsim {

namespace {
std::string ms_or_us(Time t) {
    return t.ps() >= 1'000'000'000 ? fmt::format("{:.3f} ms", t.us() / 1e3) : fmt::format("{:.3f} us", t.us());
}

// Keeps columns aligned: long (imported kernel) names are cut with a marker.
std::string fit(const std::string& s, std::size_t width) {
    return s.size() <= width ? s : s.substr(0, width - 1) + "~";
}

std::string algo_label(const CollectiveRun& c) {
    if (c.algo == "measured" || c.algo == "local") return c.algo;
    // "16(1)": NCCL launches 16 channels, the schedule simulated 1 (see the note below the table).
    // "~": a lumped schedule, "*": the fluid tier's (the notes below the table)
    const char* lumped = c.lumped ? "~" : c.fluid ? "*" : "";
    if (c.bounded)
        return fmt::format("{}/{}/{}({}){}", c.algo, to_string(c.proto), c.channels, c.simulated_channels, lumped);
    return fmt::format("{}/{}/{}{}", c.algo, to_string(c.proto), c.channels, lumped);
}

std::string pct(double f) { return fmt::format("{:.1f}%", 100 * f); }

std::string size(Bytes b) {
    const double v = static_cast<double>(b.count());
    if (b.count() >= (int64_t{1} << 30)) return fmt::format("{:.2f}GiB", v / (1 << 30));
    if (b.count() >= (int64_t{1} << 20)) return fmt::format("{:.2f}MiB", v / (1 << 20));
    if (b.count() >= 1024) return fmt::format("{:.1f}KiB", v / 1024);
    return fmt::format("{}B", b.count());
}

// Over several steps, or with faults: the spread of step times, and what the
// faults cost against the same replay without them.
void distribution(std::string& out, const ReplayReport& rep) {
    const StepTimes& s = rep.steps;
    if (rep.result->steps > 1 || rep.baseline)
        out += fmt::format("step times over {} step{}: p50 {}, p99 {}, max {}\n", s.each.size(),
                           s.each.size() == 1 ? "" : "s", ms_or_us(s.p50), ms_or_us(s.p99), ms_or_us(s.max));
    if (rep.baseline)
        out += fmt::format("without the faults:       p50 {}, p99 {}, max {}; throughput lost {:.1f}%\n",
                           ms_or_us(rep.baseline->p50), ms_or_us(rep.baseline->p99), ms_or_us(rep.baseline->max),
                           throughput_lost_pct(rep));
    if (rep.result->steps > 1 || rep.baseline) out += "\n";
}

void breakdown(std::string& out, const ReplayReport& rep) {
    const StepMetrics& m = rep.metrics;
    const Fractions& a = m.average;
    const Fractions& w = m.ranks[static_cast<std::size_t>(m.worst_rank)].fractions;
    out += fmt::format("{:<26}{:>10}{:>18}\n", "share of the span", "average", fmt::format("worst (rank {})", m.worst_rank));
    out += fmt::format("{:<26}{:>10}{:>18}\n", "  compute", pct(a.compute), pct(w.compute));
    out += fmt::format("{:<26}{:>10}{:>18}\n", "  exposed communication", pct(a.exposed_comm), pct(w.exposed_comm));
    out += fmt::format("{:<26}{:>10}{:>18}\n", "  overlapped communication", pct(a.overlapped_comm),
                       pct(w.overlapped_comm));
    out += fmt::format("{:<26}{:>10}{:>18}\n", "  idle (bubbles)", pct(a.idle), pct(w.idle));
}

void collectives(std::string& out, const ReplayReport& rep, std::size_t rows) {
    const auto& all = rep.result->collectives;
    if (all.empty()) return;
    Time sum{};
    for (const auto& c : all) sum += c.end - c.last_arrival;
    out += fmt::format("\ncollectives: {} calls, {} in all; the {} longest:\n", all.size(), ms_or_us(sum),
                       std::min(rows, all.size()));
    std::vector<std::size_t> order(all.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        return all[x].end - all[x].last_arrival > all[y].end - all[y].last_arrival;
    });
    // Names in full: the name, comm and algo columns widen to the longest listed.
    const std::size_t listed = std::min(rows, order.size());
    std::size_t name_w = 24, comm_w = 8, algo_w = 16;
    for (std::size_t k = 0; k < listed; ++k) {
        const CollectiveRun& c = all[order[k]];
        name_w = std::max(name_w, c.name.size());
        comm_w = std::max(comm_w, rep.trace->communicators[c.comm].name.size());
        algo_w = std::max(algo_w, algo_label(c).size());
    }
    out += fmt::format("{:>4}  {:<{}} {:<13} {:<{}} {:>5} {:>10} {:<{}} {:>12} {:>10}\n", "step", "name", name_w, "op",
                       "comm", comm_w, "ranks", "size", "algo/proto/ch", algo_w, "latency(us)", "skew(us)");
    int bounded = 0, lumped = 0, fluid = 0;
    for (const auto& c : all) {
        bounded += c.bounded;
        lumped += c.lumped;
        fluid += c.fluid;
    }
    for (std::size_t k = 0; k < listed; ++k) {
        const CollectiveRun& c = all[order[k]];
        out += fmt::format("{:>4}  {:<{}} {:<13} {:<{}} {:>5} {:>10} {:<{}} {:>12.2f} {:>10.2f}\n", c.step + 1, c.name,
                           name_w, to_string(c.kind), rep.trace->communicators[c.comm].name, comm_w, c.ranks,
                           c.algo == "measured" ? "-" : size(c.bytes), algo_label(c), algo_w,
                           (c.end - c.last_arrival).us(), (c.last_arrival - c.first_arrival).us());
    }
    if (bounded > 0)
        out += fmt::format("note: {} of these ran with fewer simulated channels than NCCL launches, \"N(n)\", to keep "
                           "each schedule within --max-schedule-steps; across nodes that understates their bandwidth\n",
                           bounded);
    if (lumped > 0)
        out += fmt::format("note: {} of these ran as lumped rings, \"~\", several lockstep steps in each send, to keep "
                           "each schedule within --max-schedule-steps; they keep the ring's loads and hop latencies\n",
                           lumped);
    static_assert(kAutoChunkSteps == 300'000 && kAutoChunkLevelCalls == 50'000, "the note quotes auto's bounds");
    if (fluid > 0)
        out += fmt::format("note: {} of these ran in the fluid tier, \"*\": their steady state as long-lived flows on the "
                           "shared links, with the closed form's latencies and fill (--model auto takes it for a call whose schedule "
                           "passes 300,000 steps, and for every call of a trace of over 50,000 calls; --model flow: "
                           "chunk by chunk); a call's identical streams (same GPUs, channel and bytes) run as one flow weighing their count, "
                           "which max-min makes exact\n",
                           fluid);
}

// Imported calls without a size: their time is the measurement's, whatever the cluster.
void unsized(std::string& out, const ReplayReport& rep, std::size_t rows) {
    const auto& all = rep.trace->unsized;
    if (all.empty()) return;
    out += fmt::format("\ncalls without a size in the trace: {}, each kept at its measured time (no topology, "
                       "algorithm or fault changes it){}:\n",
                       all.size(), all.size() > rows ? fmt::format("; the first {} (--format json lists all)", rows) : "");
    for (std::size_t k = 0; k < std::min(rows, all.size()); ++k) {
        const UnsizedCall& u = all[k];
        out += fmt::format("  {}:{}:{}: {} ({:.2f} us): {}\n", u.where.file, u.where.line, u.where.column, u.name,
                           u.measured.us(), u.reason);
    }
}

void transfers(std::string& out, const ReplayReport& rep) {
    const auto& all = rep.result->p2p;
    if (all.empty()) return;
    Time sum{}, longest{};
    for (const auto& p : all) {
        sum += p.end - p.start;
        longest = std::max(longest, p.end - p.start);
    }
    out += fmt::format("\ntransfers: {} send/recv pairs, {} in all, the longest {}\n", all.size(), ms_or_us(sum),
                       ms_or_us(longest));
}

void bubbles(std::string& out, const ReplayReport& rep, std::size_t rows) {
    const auto& all = rep.bubbles;
    if (all.empty()) return;
    Time sum{};
    for (const auto& b : all) sum += b.end - b.start;
    out += fmt::format("\nbubbles: {} over all ranks, {} in all; the {} longest:\n", all.size(), ms_or_us(sum),
                       std::min(rows, all.size()));
    std::vector<std::size_t> order(all.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return all[x].end - all[x].start > all[y].end - all[y].start; });
    out += fmt::format("{:>5} {:>4} {:>12} {:>12}  {:<11} {:<24} {}\n", "rank", "step", "start(us)", "length(us)",
                       "cause", "op", "waited for");
    for (std::size_t k = 0; k < std::min(rows, order.size()); ++k) {
        const Bubble& b = all[order[k]];
        out += fmt::format("{:>5} {:>4} {:>12.2f} {:>12.2f}  {:<11} {:<24} {}\n", b.rank, b.step + 1, b.start.us(),
                           (b.end - b.start).us(), to_string(b.cause), b.op.empty() ? "-" : fit(b.op, 24),
                           b.waited_for);
    }
}

void links(std::string& out, const ReplayReport& rep) {
    if (rep.links.empty()) return;
    out += fmt::format("\nbusiest links (average over the span):\n{:<32} {:>12} {:>10} {:>12}\n", "link", "bytes",
                       "GB/s", "utilisation");
    for (const LinkUsage& l : rep.links)
        out += fmt::format("{:<32} {:>12} {:>10.2f} {:>12}\n", l.name, size(l.bytes), l.average_GBps,
                           pct(l.utilisation));
}
}  // namespace

std::string render_replay_table(const ReplayReport& rep, std::size_t rows) {
    const ReplayResult& r = *rep.result;
    std::string out = fmt::format("replay of '{}' on '{}': {} ranks, {} step{}\n", rep.trace->name, rep.topo->name(),
                                  r.ranks, r.steps, r.steps == 1 ? "" : "s");
    out += fmt::format("step time {}{}\n\n", ms_or_us(rep.metrics.step_time),
                       r.steps > 1 ? fmt::format(" (span {} / {} steps)", ms_or_us(rep.metrics.span), r.steps) : "");
    distribution(out, rep);
    breakdown(out, rep);
    collectives(out, rep, rows);
    unsized(out, rep, rows);
    transfers(out, rep);
    bubbles(out, rep, rows);
    links(out, rep);
    return out;
}

}  // namespace collsim

namespace collsim {

std::string render_replay_csv(const ReplayReport& rep) {
    std::string out = "rank,gpu,compute_us,exposed_comm_us,overlapped_comm_us,idle_us,compute,exposed_comm,"
                      "overlapped_comm,idle\n";
    for (const RankBreakdown& b : rep.metrics.ranks)
        out += fmt::format("{},{},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f}\n", b.rank,
                           rep.topo->device(rep.topo->gpus()[static_cast<std::size_t>(b.rank)]).name, b.compute.us(),
                           b.exposed_comm.us(), b.overlapped_comm.us(), b.idle.us(), b.fractions.compute,
                           b.fractions.exposed_comm, b.fractions.overlapped_comm, b.fractions.idle);
    return out;
}

}  // namespace collsim
