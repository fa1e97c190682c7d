#include "sim/report/coll_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace collsim {

CollRow make_row(Bytes size, int64_t count, std::string type, Time time, double busbw_factor) {
    CollRow row{size, count, std::move(type), time, 0, 0, {}, {}, 0, std::nullopt};
    if (time.ps() > 0) {
        // bytes per picosecond x 1000 = GB/s
        row.algbw_GBps = static_cast<double>(size.count()) / static_cast<double>(time.ps()) * 1000.0;
        row.busbw_GBps = row.algbw_GBps * busbw_factor;
    }
    return row;
}

std::string render_table(const CollReport& r) {
    std::string out = fmt::format("# collsim coll: {} algo {} proto {} on {} ranks, topology {} ({})\n", r.op,
                                  r.algo, r.proto, r.ranks, r.topology, r.topology_file);
    out += "#\n";
    out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>10}  {:>8}  {:>8}  {:>6} {:>6} {:>3}\n", "size", "count", "type",
                       "time", "algbw", "busbw", "algo", "proto", "ch");
    out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>10}  {:>8}  {:>8}\n", "(B)", "(elements)", "", "(us)", "(GB/s)",
                       "(GB/s)");
    for (const auto& row : r.rows) {
        out += fmt::format("  {:>10}  {:>12}  {:>8}  {:>10.2f}  {:>8.2f}  {:>8.2f}  {:>6} {:>6} {:>3}\n",
                           row.size.count(), row.count, row.type, row.time.us(), row.algbw_GBps, row.busbw_GBps,
                           row.algo, row.proto, row.channels);
        if (row.hang)
            out += fmt::format("#   HANG: {} at {:.2f} us with {} of {} steps done; ranks waiting: {}; dead links: {}\n",
                               row.hang->timed_out ? "watchdog fired" : "no progress possible", row.hang->at.us(),
                               row.hang->steps_done, row.hang->steps_total, fmt::join(row.hang->waiting_ranks, ","),
                               row.hang->dead_links.empty() ? "none" : fmt::format("{}", fmt::join(row.hang->dead_links, ", ")));
    }
    return out;
}

std::string render_json(const CollReport& r) {
    nlohmann::ordered_json j;
    j["op"] = r.op;
    j["algo"] = r.algo;
    j["proto"] = r.proto;
    j["ranks"] = r.ranks;
    j["topology"] = r.topology;
    j["rows"] = nlohmann::ordered_json::array();
    for (const auto& row : r.rows) {
        nlohmann::ordered_json o;
        o["size_bytes"] = row.size.count();
        o["count"] = row.count;
        o["type"] = row.type;
        o["time_us"] = row.time.us();
        o["algbw_GBps"] = row.algbw_GBps;
        o["busbw_GBps"] = row.busbw_GBps;
        o["algo"] = row.algo;
        o["proto"] = row.proto;
        o["channels"] = row.channels;
        if (row.hang)
            o["hang"] = {{"at_us", row.hang->at.us()},
                         {"timed_out", row.hang->timed_out},
                         {"steps_done", row.hang->steps_done},
                         {"steps_total", row.hang->steps_total},
                         {"waiting_ranks", row.hang->waiting_ranks},
                         {"dead_links", row.hang->dead_links}};
        j["rows"].push_back(std::move(o));
    }
    return j.dump(2) + "\n";
}

std::string render_csv(const CollReport& r) {
    std::string out = "size_bytes,count,type,time_us,algbw_GBps,busbw_GBps,algo,proto,channels\n";
    for (const auto& row : r.rows)
        out += fmt::format("{},{},{},{:.6f},{:.6f},{:.6f},{},{},{}\n", row.size.count(), row.count, row.type,
                           row.time.us(), row.algbw_GBps, row.busbw_GBps, row.algo, row.proto, row.channels);
    return out;
}

}  // namespace collsim
