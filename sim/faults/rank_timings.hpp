#pragma once
// Per-rank, per-collective timings: what people can actually collect from
// their jobs (NCCL/PyTorch logs, profilers) and what a replay reports.
//
// CSV form (one row per rank and collective, header required, any column order):
//   rank,collective,enter_us,exit_us
//   0,17,1520.5,1893.0
// `collective` is an id or sequence number shared by every rank taking part
// (the n-th collective of the job), or a name ("allreduce_17", as logs print
// them); times are microseconds on any common clock.
#include <cstdint>
#include <string>
#include <vector>

namespace collsim {

struct RankTiming {
    int rank = 0;
    // A number, or for a named collective kNamedCollectives plus its place
    // among the names in order of first appearance (numbers stay below it).
    int64_t collective = 0;
    double enter_us = 0;
    double exit_us = 0;
    std::string name{};  // the collective's name where the file gives one
};

inline constexpr int64_t kNamedCollectives = int64_t{1} << 53;

// Throws InputErrors naming file:line:column, the column and what was expected.
std::vector<RankTiming> read_rank_timings_csv(const std::string& text, const std::string& name);
// A CSV file as above, or a replay's JSON report (replay_timings.hpp).
std::vector<RankTiming> load_rank_timings(const std::string& path);

}  // namespace collsim
