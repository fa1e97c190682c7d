#pragma once
// nccl-tests' own flags on `coll`, so that a command line copied from an
// nccl-tests run (all_reduce_perf -b 8 -e 1G -f 2 -g 8) runs as it is and its
// table can be diffed against the run's log (nccl-tests src/common.cu, its
// longopts table). Where nccl-tests and collsim spell a flag alike for
// different things, collsim's meaning stays and the README says so:
//   -t   is coll's --topology (nccl-tests' threads per process: use -g);
//   --op is the collective (nccl-tests' reduction op is -o or --redop here).
// nccl-tests' -n, -w and -c (iterations, warm-up iterations, data check) are
// accepted and ignored with a note: a simulated time does not vary between
// iterations, and collsim moves no data.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/core/units.hpp"

namespace collsim {

struct NcclTestsFlags {
    std::string minbytes, maxbytes, stepbytes;  // -b, -e, -i (sizes as --sizes spells them)
    int64_t stepfactor = 0;                     // -f; 0: not given
    std::string redop = "sum";                  // -o: sum, prod, min, max, avg
    bool redop_given = false;
    std::vector<std::string> ignored;           // "-n 20", ...: for the note
    bool sweep_given() const { return !minbytes.empty() || !maxbytes.empty() || !stepbytes.empty() || stepfactor; }
};

void add_nccl_tests_flags(CLI::App* c, NcclTestsFlags& f);

// The sizes nccl-tests runs for -b/-e/-f/-i, each missing one at nccl-tests'
// default (-b 32M -e 32M -i 1M -f 1): from minbytes, times stepfactor when it
// is above 1, else plus stepbytes, up to maxbytes. InputError for a bad value
// or more than limits::kMaxSweepSizes sizes.
std::vector<Bytes> nccl_tests_sizes(const NcclTestsFlags& f);

// The reduction op as the redop column prints it; InputError for one
// nccl-tests has not.
std::string nccl_tests_redop(const NcclTestsFlags& f);

// What the flags that collsim accepts without acting on mean, for stderr;
// empty when none was given.
std::vector<std::string> nccl_tests_notes(const NcclTestsFlags& f, bool reduces);

}  // namespace collsim
