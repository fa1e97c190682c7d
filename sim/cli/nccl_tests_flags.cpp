#include "sim/cli/nccl_tests_flags.hpp"

#include <array>

#include <fmt/format.h>

#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/core/limits.hpp"

namespace collsim {

namespace {
// nccl-tests' defaults (src/common.cu: minBytes, maxBytes, stepBytes, stepFactor).
constexpr const char* kDefaultMin = "32M";
constexpr const char* kDefaultMax = "32M";
constexpr const char* kDefaultStep = "1M";

// nccl-tests -o's names (src/common.cu test_opnames, less "all" and the
// pre-multiplied sum it tests alongside them).
constexpr std::array<const char*, 5> kRedops{"sum", "prod", "min", "max", "avg"};

Bytes size_flag(const std::string& text, const char* fallback, const char* option) {
    const std::string value = text.empty() ? fallback : text;
    try {
        const Bytes b = parse_size(value);
        if (b.count() < 1) bad_option(option, "a size of at least 1 byte", value);
        return b;
    } catch (const std::invalid_argument& e) {
        bad_option(option, e.what(), value);
    }
}
}  // namespace

void add_nccl_tests_flags(CLI::App* c, NcclTestsFlags& f) {
    const std::string group = "nccl-tests flags";
    c->add_option("-b,--minbytes", f.minbytes, "nccl-tests: smallest size (default 32M)")->group(group);
    c->add_option("-e,--maxbytes", f.maxbytes, "nccl-tests: largest size (default 32M)")->group(group);
    c->add_option("-i,--stepbytes", f.stepbytes, "nccl-tests: size increment when -f is 1 (default 1M)")->group(group);
    c->add_option("-f,--stepfactor", f.stepfactor, "nccl-tests: size multiplication factor (default 1: use -i)")
        ->group(group);
    c->add_option("-o,--redop", f.redop, "nccl-tests' -o: reduction op, one of sum, prod, min, max, avg (timed alike)")
        ->each([&f](const std::string&) { f.redop_given = true; })
        ->group(group);
    for (const char* flag : {"-n,--iters", "-w,--warmup_iters", "-c,--check"}) {
        const std::string name = CLI::detail::split_names(flag).back();
        c->add_option_function<std::string>(
             flag, [&f, name](const std::string& v) { f.ignored.push_back(fmt::format("{} {}", name, v)); },
             "nccl-tests: accepted and ignored")
            ->group(group);
    }
}

std::vector<Bytes> nccl_tests_sizes(const NcclTestsFlags& f) {
    const Bytes lo = size_flag(f.minbytes, kDefaultMin, "--minbytes");
    const Bytes hi = size_flag(f.maxbytes, kDefaultMax, "--maxbytes");
    const Bytes step = size_flag(f.stepbytes, kDefaultStep, "--stepbytes");
    if (f.stepfactor < 0) bad_option("--stepfactor", "a factor of 1 or more", std::to_string(f.stepfactor));
    if (hi < lo)
        bad_option("--maxbytes", fmt::format("a size no smaller than --minbytes ({} B)", lo.count()),
                   f.maxbytes.empty() ? kDefaultMax : f.maxbytes);
    const int64_t factor = f.stepfactor;
    // Counted before any is made: -b 1 -e 1G -i 1 would be 10^9 sizes.
    int64_t count = 0;
    if (factor > 1)
        for (__int128 s = lo.count(); s <= hi.count(); s *= factor) ++count;
    else
        count = (hi.count() - lo.count()) / step.count() + 1;
    if (count > limits::kMaxSweepSizes)
        bad_option("--stepbytes",
                   fmt::format("a sweep of at most {} sizes (the sweep size limit)", limits::kMaxSweepSizes),
                   fmt::format("{} sizes from {} to {} B", count, lo.count(), hi.count()));
    std::vector<Bytes> sizes;
    __int128 s = lo.count();
    for (int64_t k = 0; k < count; ++k, s = factor > 1 ? s * factor : s + step.count())
        sizes.emplace_back(static_cast<int64_t>(s));
    return sizes;
}

std::string nccl_tests_redop(const NcclTestsFlags& f) {
    for (const char* r : kRedops)
        if (f.redop == r) return f.redop;
    bad_option("--redop", "one of sum, prod, min, max, avg", f.redop);
}

std::vector<std::string> nccl_tests_notes(const NcclTestsFlags& f, bool reduces) {
    std::vector<std::string> notes;
    for (const std::string& flag : f.ignored)
        notes.push_back(fmt::format("{} is nccl-tests' and is ignored: a simulated time is the same every iteration, "
                                    "and collsim moves no data to check",
                                    flag));
    if (f.redop_given && f.redop != "sum")
        notes.push_back(reduces ? fmt::format("--redop {} is timed as sum: collsim gives every reduction op the cost "
                                              "of a sum",
                                              f.redop)
                                : fmt::format("--redop {} has no effect: the collective does not reduce", f.redop));
    return notes;
}

}  // namespace collsim
