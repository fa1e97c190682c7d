#include <catch2/catch.hpp>

#include <filesystem>

#include "sim/core/error.hpp"
#include "sim/validate/measurement.hpp"
#include "sim/validate/text_fields.hpp"
#include "tests/support/run_cli.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;
using collsim::test::source_path;

namespace {

Measurement sample(const std::string& name) { return read_measurement(source_path("tests/data/nccl-logs/" + name)); }

// The message of the input error that reading `name` throws.
std::string read_error(const std::string& name) {
    return test::input_error_of([&] { sample(name); });
}

std::string check_error(const Measurement& m, CollOp op, int ranks) {
    return test::input_error_of([&] { check_measurement(m, op, ranks); });
}

}  // namespace

TEST_CASE("the old nccl-tests layout: no version line, error column, NCCL INFO lines skipped") {
    const Measurement m = sample("old-layout-allreduce.log");
    CHECK(m.op == CollOp::allreduce);  // from the file name: the old layout never names its test
    CHECK(m.ranks == 8);
    CHECK(m.nccl_version.empty());
    REQUIRE(m.rows.size() == 8);
    CHECK(m.rows[0].size == Bytes(0));
    CHECK(m.rows[5].size == Bytes(1048576));
    CHECK(m.rows[5].count == 262144);
    CHECK(m.rows[5].type == "float");
    CHECK(*m.rows[5].result[0].time_us == Approx(43.49));
    CHECK(m.rows[5].line == 23);  // the NCCL INFO lines before it still count as lines
    REQUIRE(m.avg_busbw_GBps);
    CHECK(*m.avg_busbw_GBps == Approx(51.6523));
    CHECK_NOTHROW(check_measurement(m, CollOp::allreduce, 8));
}

TEST_CASE("the old layout without a redop column (all_gather) and with a root column (reduce)") {
    const Measurement ag = sample("old-layout-allgather.log");
    CHECK(ag.op == CollOp::allgather);
    CHECK(ag.ranks == 4);
    REQUIRE(ag.rows.size() == 5);
    CHECK(*ag.rows[3].result[1].busbw_GBps == Approx(31.90));
    CHECK_NOTHROW(check_measurement(ag, CollOp::allgather, 4));

    const Measurement red = sample("old-layout-reduce.log");
    CHECK(red.op == CollOp::reduce);
    REQUIRE(red.rows.size() == 5);
    CHECK(*red.rows[4].result[0].time_us == Approx(499.48));
    CHECK_NOTHROW(check_measurement(red, CollOp::reduce, 8));
}

TEST_CASE("the new layout: version line, test name, root and #wrong columns, NCCL version line") {
    const Measurement m = sample("new-layout-allreduce.log");
    CHECK(m.op == CollOp::allreduce);
    CHECK(m.test_name == "all_reduce_perf");
    CHECK(m.ranks == 8);
    CHECK(m.nccl_version == "2.29.3");  // the "NCCL version" line, agreeing with nccl-library=22903
    CHECK(m.gpus_per_thread == 8);      // '# nThread 1 nGpus 8'
    REQUIRE(m.rows.size() == 8);
    CHECK(*m.rows[7].result[1].time_us == Approx(2644.45));
    CHECK_NOTHROW(check_measurement(m, CollOp::allreduce, 8));

    const Measurement b = sample("new-layout-broadcast.log");
    CHECK(b.op == CollOp::broadcast);
    CHECK(b.ranks == 2);
    CHECK(b.nccl_version == "2.29.2");  // from nccl-library=22902: no NCCL version line here
    CHECK_NOTHROW(check_measurement(b, CollOp::broadcast, 2));
}

TEST_CASE("the harness's output: nccl-tests layout with an unmeasured in-place group") {
    const Measurement m = sample("harness-alltoall.txt");
    CHECK(m.op == CollOp::alltoall);
    CHECK(m.ranks == 4);
    CHECK(m.nccl_version == "2.28.9");
    CHECK(m.gpus_per_thread == 1);  // a process per GPU
    REQUIRE(m.rows.size() == 3);
    CHECK(*m.rows[2].result[0].time_us == Approx(579.84));
    CHECK_FALSE(m.rows[2].result[1].time_us);
    CHECK(*measured_time_us(m.rows[2], CollOp::alltoall, 4) == Approx(579.84));
    CHECK_NOTHROW(check_measurement(m, CollOp::alltoall, 4));
}

TEST_CASE("the CSV form: header fields, empty values, op and ranks from the header") {
    const Measurement m = sample("sample.csv");
    CHECK(m.op == CollOp::allgather);
    CHECK(m.test_name == "all_gather_perf");
    CHECK(m.ranks == 4);
    CHECK(m.nccl_version == "2.18.5");
    CHECK(m.gpus_per_thread == 4);  // '-g 4' in the collective's command line
    REQUIRE(m.rows.size() == 4);
    CHECK(m.rows[0].line == 7);
    CHECK_FALSE(m.rows[2].result[1].time_us);
    CHECK_FALSE(m.rows[3].result[0].time_us);
    CHECK(*m.rows[3].result[1].busbw_GBps == Approx(115.49));
    CHECK_NOTHROW(check_measurement(m, CollOp::allgather, 4));
}

TEST_CASE("measured time: the mean of both placements, else derived from a precise bandwidth") {
    const Measurement m = sample("sample.csv");
    CHECK(*measured_time_us(m.rows[0], CollOp::allgather, 4) == Approx((18.13 + 18.20) / 2));
    CHECK(*measured_time_us(m.rows[2], CollOp::allgather, 4) == Approx(24.55));
    // 64 MiB x 3/4 / 115.49 GB/s
    CHECK(*measured_time_us(m.rows[3], CollOp::allgather, 4) == Approx(67108864.0 * 0.75 / 115.49 / 1e3));

    const Measurement b = sample("sample-busbw-only.csv");
    CHECK_FALSE(measured_time_us(b.rows[0], CollOp::allreduce, 8));  // 0.07 GB/s: 7% rounding
    CHECK(*measured_time_us(b.rows[1], CollOp::allreduce, 8) == Approx(1048576 * 1.75 / 43.70 / 1e3));
}

TEST_CASE("GPUs per thread in command lines and run headers") {
    using Mentions = std::vector<std::pair<int64_t, std::size_t>>;
    CHECK(gpus_per_thread_mentions("all_reduce_perf -b 8 -g 8 (single process)") == Mentions{{8, 24}});
    CHECK(gpus_per_thread_mentions("-g2") == Mentions{{2, 2}});
    CHECK(gpus_per_thread_mentions("# nThread 1 nGpus 4 minBytes 0") == Mentions{{4, 18}});
    // nccl-tests' long option (src/common.cu: {"ngpus", required_argument, 0, 'g'}).
    CHECK(gpus_per_thread_mentions("./all_reduce_perf -b 8 --ngpus 8") == Mentions{{8, 31}});
    CHECK(gpus_per_thread_mentions("all_gather_perf --ngpus=4 -e 1G") == Mentions{{4, 24}});
    // Not the flag: part of a word, or no number after it.
    CHECK(gpus_per_thread_mentions("--gpus 8, bf-g 8, -gpu 2, -g x, -g 8x").empty());
}

TEST_CASE("a CSV header that gives two different -g leaves the run's -g unknown, and says where") {
    const Measurement m = sample("gpus-conflict.csv");
    CHECK(m.gpus_per_thread == 4);  // the first figure
    REQUIRE(m.gpus_per_thread_conflict);
    CHECK(m.gpus_per_thread_conflict->line == 2);
    CHECK(m.gpus_per_thread_conflict->column == 61);
}

TEST_CASE("ranks implied by busbw / algbw") {
    CHECK(ranks_from_bandwidths(sample("new-layout-allreduce.log"), CollOp::allreduce) == 8);
    CHECK(ranks_from_bandwidths(sample("old-layout-allgather.log"), CollOp::allgather) == 4);
    CHECK_FALSE(ranks_from_bandwidths(sample("new-layout-broadcast.log"), CollOp::broadcast));
}

TEST_CASE("collective names in test names, file names and CSV headers") {
    const SourceLocation here{"x", 1, 1};
    CHECK(coll_op_named_in("all_reduce_perf", here) == CollOp::allreduce);
    CHECK(coll_op_named_in("reduce_scatter_perf", here) == CollOp::reducescatter);
    CHECK(coll_op_named_in("superbench-nccl_reduce.log", here) == CollOp::reduce);
    CHECK(coll_op_named_in("alltoall_perf (nGpus 8)", here) == CollOp::alltoall);
    CHECK(coll_op_named_in("all_gather via run_nccl_tests.sh -t all_gather", here) == CollOp::allgather);
    CHECK_FALSE(coll_op_named_in("cs244c-l40s-2gpu-ring.txt", here));
    CHECK_THROWS_AS(coll_op_named_in("scatter_perf", here), InputError);
}

TEST_CASE("broken logs are rejected with the line of the problem") {
    struct Case {
        std::string file, expect;
    };
    for (const Case& c : {
             Case{"bad/truncated.log", "truncated.log:22:1: footer: expected the '# Avg bus bandwidth' line"},
             Case{"bad/cut-row.log", "cut-row.log:22:1: row: expected 13 fields like the table header at line 17, "
                                     "found 7: a cut-off or garbled row"},
             Case{"bad/unsupported-collective.log", "unsupported-collective.log:2:29: collective: expected a "
                                                    "collective collsim models"},
             Case{"bad/interleaved-ranks.log", "interleaved-ranks.log:8:10: device list: expected each rank listed "
                                               "once, found rank 0 again: several runs mixed in one file"},
             Case{"bad/wrong-elements.log", "wrong-elements.log:21:88: #wrong: expected 0 wrong elements, found '3'"},
             Case{"bad/out-of-bounds.log", "out-of-bounds.log:28:1: data check: expected '# Out of bounds values : 0 "
                                           "OK'"},
             Case{"bad/second-table.log", "second-table.log:24:1: table header: expected one table per log (the "
                                          "first began at line 17)"},
             Case{"bad/failure-line.log", "failure-line.log:20:1: line: expected a table row, a '#' line or an NCCL log line, "
                                        "found 'Test NCCL failure"},
             Case{"bad/bad-number.log", "bad-number.log:26:57: time: expected a number that is not negative, or N/A, found "
                                        "'67x.45'"},
             Case{"bad/csv-header.csv", "csv-header.csv:6:1: CSV header: expected 'size_bytes,count,"},
             Case{"bad/csv-cut-row.csv", "csv-cut-row.csv:9:1: row: expected 10 fields like the header, found 5"},
             // Cut inside the last field: every field is there and reads as a number, but no line break follows.
             Case{"bad/csv-cut-field.csv", "csv-cut-field.csv:9:57: row: expected a line break after the last row (is "
                                           "the file cut short?), found the end of the file"},
             Case{"bad/csv-bad-number.csv", "csv-bad-number.csv:8:21: oop_time_us: expected a number"},
             Case{"bad/csv-empty-row.csv", "csv-empty-row.csv:9:26: row: expected at least one time or bandwidth"},
             Case{"bad/csv-unsupported.csv", "csv-unsupported.csv:2:1: collective: expected a collective collsim "
                                             "models"},
         }) {
        INFO(c.file);
        CHECK_THAT(read_error(c.file), Catch::Contains(c.expect));
    }
}

TEST_CASE("rows that contradict the collective or the rank count are rejected") {
    CHECK_THAT(check_error(sample("bad/ranks-disagree.log"), CollOp::allreduce, 4),
               Catch::Contains("ranks-disagree.log:19:1: busbw: expected algbw x 1.5000 = 3.97 GB/s (allreduce on 4 "
                               "ranks), found 4.63 GB/s, which implies 8 ranks"));
    CHECK_THAT(check_error(sample("bad/count-mismatch.log"), CollOp::allgather, 4),
               Catch::Contains("count-mismatch.log:13:1: count: expected count x 4 B x 4 ranks = the size, 32 B, "
                               "found 1 elements, 16 B: the log is not from allgather on 4 ranks"));
    // The same all_gather table read as an all_reduce does not add up either.
    CHECK_THAT(check_error(sample("old-layout-allgather.log"), CollOp::allreduce, 4),
               Catch::Contains("found 2 elements, 8 B: the log is not from allreduce on 4 ranks"));
    // A bandwidth no collective reaches gives a time that is not one (and errors that are not numbers).
    const Measurement absurd = parse_measurement(
        "size_bytes,count,type,redop,oop_time_us,oop_algbw_GBps,oop_busbw_GBps,ip_time_us,ip_algbw_GBps,"
        "ip_busbw_GBps\n1024,,float,sum,,,,,,1e308\n",
        "b.csv");
    CHECK_THAT(check_error(absurd, CollOp::allreduce, 8),
               Catch::Contains("b.csv:2:1: time: expected at least 1 ns (a busbw or algbw that a collective can "
                               "reach), found 1.792e-308 us"));
}

TEST_CASE("published nccl-tests logs read (skipped when ../shared/real-inputs is absent)") {
    const std::string dir = source_path("../shared/real-inputs/nccl-tests-logs/");
    if (!std::filesystem::exists(dir)) {
        WARN("skipped: " << dir << " is absent");
        return;
    }
    struct Case {
        std::string file;
        CollOp op;
        int ranks;
        std::size_t rows;
    };
    for (const Case& c : {
             Case{"superbench-nccl_allreduce.log", CollOp::allreduce, 8, 34},
             Case{"superbench-nccl_allgather.log", CollOp::allgather, 8, 34},
             Case{"superbench-nccl_reducescatter.log", CollOp::reducescatter, 8, 34},
             Case{"superbench-nccl_reduce.log", CollOp::reduce, 8, 34},
             Case{"cs244c-a100-8gpu-modal-results_8gpu_allreduce.txt", CollOp::allreduce, 8, 25},
             Case{"cs244c-l40s-2gpu-ring-2026-02-22_14-42-09.txt", CollOp::allreduce, 2, 25},
         }) {
        INFO(c.file);
        const Measurement m = read_measurement(dir + c.file);
        CHECK(m.op == c.op);
        CHECK(m.ranks == c.ranks);
        CHECK(m.rows.size() == c.rows);
        CHECK_NOTHROW(check_measurement(m, c.op, c.ranks));
    }
    // Three single-rank runs interleaved line by line: rejected, never merged.
    CHECK_THROWS_WITH(read_measurement(dir + "cs244c-skampere1-clean_3gpu_test.out"),
                      Catch::Contains("several runs mixed in one file"));
    // The log and its CSV transcription in ../shared/nccl-data agree row by row.
    const Measurement log = read_measurement(dir + "superbench-nccl_allreduce.log");
    const Measurement csv = read_measurement(source_path("../shared/nccl-data/dgxa100-40g-8gpu-allreduce-sb01.csv"));
    REQUIRE(log.rows.size() == csv.rows.size());
    for (std::size_t i = 0; i < log.rows.size(); ++i) {
        CHECK(log.rows[i].size == csv.rows[i].size);
        CHECK(*log.rows[i].result[0].time_us == *csv.rows[i].result[0].time_us);
        CHECK(*log.rows[i].result[1].busbw_GBps == *csv.rows[i].result[1].busbw_GBps);
    }
}

TEST_CASE("a raw log's hosts come from its device list, so a 16-rank run on two hosts is multi-node") {
    const Measurement two = sample("two-hosts-allreduce.log");
    CHECK(two.ranks == 16);
    CHECK(two.hosts == 2);
    CHECK(sample("old-layout-allreduce.log").hosts == 1);
    auto r = test::run_cli("validate --log tests/data/nccl-logs/two-hosts-allreduce.log --topology "
                           "topologies/cluster-h100-2n.yaml --format json");
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("\"nodes\": 2"));
}

TEST_CASE("old nccl-tests leave AllToAll's redop cell empty under a redop header: the row reads without it") {
    const Measurement m = sample("old-layout-alltoall.log");
    CHECK(m.op == CollOp::alltoall);
    REQUIRE(m.rows.size() == 4);
    CHECK(m.rows[3].size == Bytes(67108864));
    CHECK(m.rows[3].type == "float");
    CHECK(*m.rows[3].result[0].time_us == Approx(1040.5));
    CHECK(*m.rows[3].result[1].busbw_GBps == Approx(56.29));
    CHECK_NOTHROW(check_measurement(m, CollOp::alltoall, 8));
}

TEST_CASE("a log pasted through Markdown is named as such, with the fix", "[ncclxml]") {
    struct Case {
        std::string file, expect;
    };
    for (const Case& c : {
             Case{"bad/markdown-fenced.log", "markdown-fenced.log:3:1: log: expected raw nccl-tests output; paste the "
                                             "raw output as nccl-tests printed it, or delete the fence lines and put "
                                             "'#' back at the start of the header lines"},
             Case{"bad/markdown-no-hash.log", "markdown-no-hash.log:1:1: log: expected raw nccl-tests output; paste "
                                              "the raw output"},
         }) {
        INFO(c.file);
        const auto r = test::run_cli("validate --log tests/data/nccl-logs/" + c.file +
                                     " --topology topologies/dgx-h100.yaml");
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.expect));
    }
    CHECK_THROWS_WITH(sample("bad/markdown-fenced.log"), Catch::Contains("found a Markdown code fence '```'"));
    CHECK_THROWS_WITH(sample("bad/markdown-no-hash.log"),
                      Catch::Contains("found 'nccl-tests version 2.17.9 nccl-headers=2...' (63 characters in all) "
                                      "without its '#': a log pasted into Markdown"));
}

TEST_CASE("validate says which zero-byte rows it skipped", "[ncclxml]") {
    const auto r = test::run_cli("validate --log tests/data/nccl-logs/new-layout-allreduce.log --topology "
                                 "topologies/dgx-h100.yaml --format json");
    REQUIRE(r.exit_code == 0);
    CHECK(r.err == "collsim: note: tests/data/nccl-logs/new-layout-allreduce.log: skipped the rows of 0 bytes "
                   "(nccl-tests runs no collective for them) at line(s) 19\n");
}
