#pragma once
// What a benchmark process has used so far: CPU time of all its threads
// (on a shared machine wall time also counts other processes' turns) and
// its peak resident memory.
#include <sys/resource.h>
#include <time.h>

namespace collsim::bench {

inline double process_cpu_s() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

inline double peak_rss_mib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // Linux reports KiB
}

}  // namespace collsim::bench
