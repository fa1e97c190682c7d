#include "sim/report/coll_report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace collsim {

CollRow make_row(Bytes size, int64_t count, std::string type, Time time, double busbw_factor) {
    CollRow row;
    row.size = size;
    row.count = count;
    row.type = std::move(type);
    row.time = time;
    if (time.ps() > 0) {
        // bytes per picosecond x 1000 = GB/s
        row.algbw_GBps = static_cast<double>(size.count()) / static_cast<double>(time.ps()) * 1000.0;
        row.busbw_GBps = row.algbw_GBps * busbw_factor;
    }
    return row;
}

namespace {
// One `# model:` line per run of sizes that the same tier timed with the same
// simplifications, so no reduction goes unsaid.
std::string model_section(const CollReport& r) {
    std::string out;
    for (std::size_t i = 0; i < r.rows.size();) {
        std::size_t j = i + 1;
        while (j < r.rows.size() && r.rows[j].model == r.rows[i].model && r.rows[j].reductions == r.rows[i].reductions) ++j;
        const CollRow& row = r.rows[i];
        const std::string sizes = j - i == 1 ? fmt::format("{} B", row.size.count())
                                             : fmt::format("{} - {} B", row.size.count(), r.rows[j - 1].size.count());
        out += fmt::format("# model: {} at {}: {}\n", row.model, sizes,
                           row.reductions.empty() ? std::string("no reductions")
                                                  : fmt::format("{}", fmt::join(row.reductions, "; ")));
        i = j;
    }
    return out;
}

std::string explain_section(const CollReport& r) {
    bool any = false;
    for (const auto& row : r.rows) any = any || row.explain.has_value();
    if (!any) return "";
    std::string out = "#\n# explain: flow simulation against the closed form (alpha-beta) of the algorithm, and the\n"
                      "# closed form's latency and bandwidth terms\n";
    out += fmt::format("# {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {:>7}  {}\n", "size", "flow", "closed", "latency",
                       "bandwidth", "diff", "why");
    out += fmt::format("# {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {:>7}\n", "(B)", "(us)", "(us)", "(us)", "(us)", "(%)");
    for (const auto& row : r.rows) {
        if (!row.explain) continue;
        const auto& e = *row.explain;
        const std::string flow = e.flow ? fmt::format("{:.2f}", e.flow->us()) : "-";
        const std::string diff = e.flow && e.flow->ps() > 0
                                     ? fmt::format("{:.2f}", 100.0 * (e.flow->us() - e.analytical.us()) / e.flow->us())
                                     : "-";
        out += fmt::format("{:>12}  {:>10}  {:>10.2f}  {:>10.2f}  {:>10.2f}  {:>7}  {}\n", row.size.count(), flow,
                           e.analytical.us(), e.latency.us(), e.bandwidth.us(), diff, e.why);
    }
    if (!r.tuner_spans.empty()) {
        out += "#\n# the tuner's choice by size (asked at every power of two of the sweep); crossovers between lines\n";
        for (const auto& s : r.tuner_spans)
            out += fmt::format("# {:>12} - {:>12} B  {}/{}\n", s.from.count(), s.to.count(), s.algo, s.proto);
    }
    return out;
}

// Each simulated size's busiest link directions, names aligned over the section.
std::string links_section(const CollReport& r) {
    std::size_t width = 0;
    bool any = false;
    for (const auto& row : r.rows)
        if (row.links) {
            any = true;
            for (const CollLink& l : *row.links) width = std::max(width, l.name.size());
        }
    if (!any) return "";
    std::string out = "#\n# busiest link directions: bytes carried, average rate over the collective's time, its share of the\n"
                      "# direction's capacity as simulated (after link efficiency), the most flows on it at once\n";
    for (const auto& row : r.rows) {
        if (!row.links) continue;
        if (row.links->empty()) {
            out += fmt::format("# busiest links at {} B: none carried data\n", row.size.count());
            continue;
        }
        out += fmt::format("# busiest links at {} B:\n", row.size.count());
        for (const CollLink& l : *row.links)
            out += fmt::format("#   {:<{}}  {:>13} B  {:>8.2f} GB/s  {:>5.1f}%  {} flow{}\n", l.name, width,
                               l.bytes.count(), l.average_GBps, 100 * l.utilisation, l.flows, l.flows == 1 ? "" : "s");
    }
    return out;
}

// nccl-tests' footer (src/common.cu): the mean busbw over the sizes run
// ("%g", as it prints it; it averages its out-of-place and in-place rows, of
// which collsim has the one). A size that hung has no bandwidth and is left out.
std::string footer(const CollReport& r) {
    double sum = 0;
    int timed = 0;
    for (const auto& row : r.rows)
        if (!row.hang) sum += row.busbw_GBps, ++timed;
    const int hung = static_cast<int>(r.rows.size()) - timed;
    return fmt::format("# Avg bus bandwidth    : {}{}\n#\n", timed ? fmt::format("{:g}", sum / timed) : "N/A",
                       hung ? fmt::format(" (over the {} sizes that finished; {} hung)", timed, hung) : "");
}
}  // namespace

// The row layout of nccl-tests (src/common.cu): "%12li  %12li  %8s  %6s  %6i"
// then, per placement, "  %7s  %6.2f  %6.2f  %5s". #wrong is N/A: collsim
// moves no data (schedules are checked symbolically, in the tests). The algo
// and proto columns widen to their longest name (nvls_tree). A size that hung
// shows "hang" for its time and "-" for its bandwidths, never a time.
std::string render_table(const CollReport& r) {
    std::size_t algo_w = 6, proto_w = 6;
    for (const auto& row : r.rows) algo_w = std::max(algo_w, row.algo.size()), proto_w = std::max(proto_w, row.proto.size());
    std::string out = fmt::format("# collsim coll: {} algo {} proto {} on {} ranks, topology {} ({}), model {}\n", r.op,
                                  r.algo, r.proto, r.ranks, r.topology, r.topology_file, r.model);
    out += "#\n";
    out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:<30}\n", "", "", "", "", "", "   out-of-place");
    out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>5}  {:>{}} {:>{}} {:>3}\n", "size",
                       "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "algo", algo_w, "proto",
                       proto_w, "ch");
    out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}\n", "(B)", "(elements)", "", "", "",
                       "(us)", "(GB/s)", "(GB/s)");
    for (const auto& row : r.rows) {
        const std::string time = row.hang ? "hang" : fmt::format("{:.2f}", row.time.us());
        const std::string algbw = row.hang ? "-" : fmt::format("{:.2f}", row.algbw_GBps);
        const std::string busbw = row.hang ? "-" : fmt::format("{:.2f}", row.busbw_GBps);
        out += fmt::format("{:>12}  {:>12}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>5}  {:>{}} {:>{}} {:>3}\n",
                           row.size.count(), row.count, row.type, row.redop, row.root, time, algbw, busbw, "N/A",
                           row.algo, algo_w, row.proto, proto_w, row.channels);
        if (row.hang)
            out += fmt::format("#   HANG: {} at {:.2f} us with {} of {} steps done; ranks waiting: {}; dead links: {}\n",
                               row.hang->timed_out ? "watchdog fired" : "no progress possible", row.hang->at.us(),
                               row.hang->steps_done, row.hang->steps_total, fmt::join(row.hang->waiting_ranks, ","),
                               row.hang->dead_links.empty() ? "none" : fmt::format("{}", fmt::join(row.hang->dead_links, ", ")));
    }
    return out + footer(r) + model_section(r) + links_section(r) + explain_section(r);
}

std::string render_json(const CollReport& r) {
    nlohmann::ordered_json j;
    j["op"] = r.op;
    j["algo"] = r.algo;
    j["proto"] = r.proto;
    j["ranks"] = r.ranks;
    j["topology"] = r.topology;
    j["model"] = r.model;
    j["rows"] = nlohmann::ordered_json::array();
    for (const auto& row : r.rows) {
        nlohmann::ordered_json o;
        o["size_bytes"] = row.size.count();
        o["count"] = row.count;
        o["type"] = row.type;
        // A hang has no time or bandwidth: null, beside "hang".
        o["time_us"] = row.hang ? nlohmann::ordered_json() : nlohmann::ordered_json(row.time.us());
        o["algbw_GBps"] = row.hang ? nlohmann::ordered_json() : nlohmann::ordered_json(row.algbw_GBps);
        o["busbw_GBps"] = row.hang ? nlohmann::ordered_json() : nlohmann::ordered_json(row.busbw_GBps);
        o["algo"] = row.algo;
        o["proto"] = row.proto;
        o["channels"] = row.channels;
        o["redop"] = row.redop;
        o["root"] = row.root;
        o["model"] = row.model;
        o["reductions"] = row.reductions;
        if (row.hang)
            o["hang"] = {{"at_us", row.hang->at.us()},
                         {"timed_out", row.hang->timed_out},
                         {"steps_done", row.hang->steps_done},
                         {"steps_total", row.hang->steps_total},
                         {"waiting_ranks", row.hang->waiting_ranks},
                         {"dead_links", row.hang->dead_links}};
        if (row.explain) {
            if (row.explain->flow) o["flow_us"] = row.explain->flow->us();
            o["analytical_us"] = row.explain->analytical.us();
            o["latency_us"] = row.explain->latency.us();
            o["bandwidth_us"] = row.explain->bandwidth.us();
            if (row.explain->flow) o["why"] = row.explain->why;
        }
        if (row.links) {
            o["links"] = nlohmann::ordered_json::array();
            for (const CollLink& l : *row.links)
                o["links"].push_back({{"link", l.name},
                                      {"bytes", l.bytes.count()},
                                      {"average_GBps", l.average_GBps},
                                      {"utilisation", l.utilisation},
                                      {"flows", l.flows}});
        }
        j["rows"].push_back(std::move(o));
    }
    if (!r.tuner_spans.empty()) {
        j["tuner_spans"] = nlohmann::ordered_json::array();
        for (const auto& s : r.tuner_spans)
            j["tuner_spans"].push_back(
                {{"from_bytes", s.from.count()}, {"to_bytes", s.to.count()}, {"algo", s.algo}, {"proto", s.proto}});
    }
    return j.dump(2) + "\n";
}

// Each row carries the sweep's op, topology and ranks, so concatenated sweeps
// keep their context; a size that hung has "hang" set and no time or bandwidth.
std::string render_csv(const CollReport& r) {
    std::string out =
        "size_bytes,count,type,time_us,algbw_GBps,busbw_GBps,algo,proto,channels,redop,root,model,hang,op,topology,ranks\n";
    for (const auto& row : r.rows) {
        const std::string measured = row.hang ? ",," : fmt::format("{:.6f},{:.6f},{:.6f}", row.time.us(), row.algbw_GBps,
                                                                   row.busbw_GBps);
        out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", row.size.count(), row.count, row.type, measured,
                           row.algo, row.proto, row.channels, row.redop, row.root, row.model, row.hang ? "yes" : "no",
                           r.op, r.topology, r.ranks);
    }
    return out;
}

}  // namespace collsim
