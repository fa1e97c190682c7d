// One case per distinct error message of the native trace format: each names
// the file, line and column, the field, what was expected and what was found.
#include <catch2/catch.hpp>

#include "sim/replay/trace_loader.hpp"
#include "tests/support/input_error.hpp"

using namespace collsim;

namespace {
std::string trace_error_of(const std::string& text) {
    return test::input_error_of([&] { parse_trace(text, "t.yaml"); });
}

const std::string kHead = "ranks: 4\ncommunicators: {world: all, pairs: {blocks: 2}}\n";

struct Case {
    std::string trace, expect;
};
}  // namespace

TEST_CASE("every trace error names file, position, field, expectation and finding") {
    const std::vector<Case> cases{
        {"name: x\n", "t.yaml:1:1: trace.ranks: expected an integer (required), found no such field"},
        {"ranks: 0\nprogram: []\n", "t.yaml:1:8: trace.ranks: expected a rank count from 1 to 1000000 (the rank limit), found '0'"},
        {"ranks: 2\ncolour: red\nprogram: []\n", "t.yaml:2:1: trace.colour: expected one of the keys name,"},
        {"ranks: [1\n", "t.yaml:2:1: yaml: expected well-formed YAML"},
        {kHead + "program:\n  - {name: a, durration: 1us}\n", "t.yaml:4:15: program[0].durration: expected one of the keys"},
        {kHead + "program:\n  - {name: a, duration: 1us, flops: 1e9}\n",
         "t.yaml:4:5: program[0]: expected either a duration or FLOPs and bytes for the roofline, not both"},
        {kHead + "program:\n  - {name: a, stream: x}\n",
         "t.yaml:4:5: program[0]: expected a duration, or flops and/or bytes (compute op), found none of them"},
        {kHead + "program:\n  - {name: a, duration: 5}\n", "t.yaml:4:25: program[0].duration: expected a unit after the number"},
        {kHead + "program:\n  - {duration: 5us}\n", "t.yaml:4:5: program[0].name: expected a string (required)"},
        {kHead + "program:\n  - {name: a, flops: 3GB}\n", "t.yaml:4:22: program[0].flops: expected a FLOP count"},
        {kHead + "program:\n  - {name: a, bytes: 1MiB, dtype: fp7}\n",
         "t.yaml:4:35: program[0].dtype: expected one of fp64, fp32"},
        {kHead + "program:\n  - {name: a, collective: allscatter, bytes: 1K, comm: world}\n",
         "t.yaml:4:27: program[0].collective: expected one of allreduce, allgather"},
        {kHead + "program:\n  - {name: a, collective: allreduce, bytes: 1K, comm: tp}\n",
         "t.yaml:4:55: program[0].comm: expected the name of a communicator (world, pairs), found 'tp'"},
        {kHead + "program:\n  - {name: a, collective: allreduce, comm: world}\n",
         "t.yaml:4:5: program[0].bytes: expected a size like '25MiB' or '4096' (required)"},
        {kHead + "program:\n  - {name: a, collective: allreduce, bytes: 1K, dtype: fp7, comm: world}\n",
         "t.yaml:4:56: program[0].dtype: expected one of float, half"},
        {kHead + "program:\n  - {name: a, collective: allreduce, split: [1K, 1K], comm: world}\n",
         "t.yaml:4:45: program[0].split: expected no split (only alltoall takes per-peer sizes)"},
        {kHead + "program:\n  - {name: a, collective: alltoall, split: [1K, 1K], comm: world}\n",
         "t.yaml:4:5: op 'a' on rank 0: expected a split with one size per member of its 'world' group (4), found 2 "
         "sizes"},
        {kHead + "program:\n  - {name: a, collective: alltoall, split: [1K], bytes: 1K, comm: pairs}\n",
         "program[0].bytes: expected no bytes when split gives the size to every peer"},
        {kHead + "program:\n  - {name: a, send: 9, bytes: 1K}\n", "t.yaml:4:21: program[0].send: expected a rank from 0 to 3"},
        {kHead + "program:\n  - {name: a, send: sideways, bytes: 1K}\n",
         "t.yaml:4:21: program[0].send: expected a rank number, or next, prev, +K or -K within the group of `comm`"},
        {kHead + "program:\n  - {name: a, send: next, bytes: 1K}\n", "t.yaml:4:5: program[0].comm: expected a string (required)"},
        {kHead + "program:\n  - {name: a, send: next, recv: prev, comm: pairs, bytes: 1K}\n",
         "t.yaml:4:5: program[0]: expected at most one of collective, send and recv, found several"},
        {kHead + "program:\n  - {name: a, duration: 1us}\n  - {name: a, duration: 1us}\n",
         "t.yaml:5:12: program[1].name: expected a name not used by another op of this program, found 'a' again"},
        {kHead + "program:\n  - {name: a, duration: 1us, after: [b]}\n",
         "t.yaml:4:38: program[0].after: expected the name of another op of this program, found 'b'"},
        {kHead + "program:\n  - {name: a, duration: 1us, after: [b]}\n  - {name: b, duration: 1us, after: [a]}\n",
         "t.yaml:4:5: op 'a' on rank 0: expected dependencies that do not lead back to the op"},
        {"ranks: 4\ncommunicators: {tp: {blocks: 3}}\nprogram: []\n",
         "t.yaml:2:21: communicators.tp: expected groups that tile the 4 ranks"},
        {"ranks: 4\ncommunicators: {tp: {blocks: 2, stride: 2}}\nprogram: []\n",
         "t.yaml:2:21: communicators.tp: expected 'all', {blocks: N}, {stride: N}"},
        {"ranks: 4\ncommunicators: {tp: {groups: [[0, 1], [1, 2]]}}\nprogram: []\n",
         "communicators.tp: expected each rank in at most one group, found rank 1 twice"},
        {"ranks: 4\ncommunicators: {tp: {groups: [[0, 5]]}}\nprogram: []\n",
         "t.yaml:2:31: communicators.tp.groups[0]: expected ranks from 0 to 3 (the trace has 4 ranks), found rank 5"},
        {"ranks: 4\nprograms:\n  - {ranks: \"0-x\", ops: []}\n",
         "t.yaml:3:13: programs[0].ranks: expected ranks as 'all', an integer, a list of integers or ranges"},
        {"ranks: 4\nprograms:\n  - {ranks: \"0-2\", ops: []}\n",
         "t.yaml:1:1: program: expected a program for every rank (program, or programs covering rank 3), found none "
         "for rank 3"},
        {kHead + "program:\n  - {name: a, duration: 1us}\noverrides:\n  - {ranks: [7], op: a, duration: 2us}\n",
         "t.yaml:6:13: overrides[0].ranks: expected ranks from 0 to 3 (the trace has 4 ranks), found rank 7"},
        {kHead + "program:\n  - {name: a, duration: 1us}\noverrides:\n  - {ranks: [1], op: b, duration: 2us}\n",
         "t.yaml:6:22: overrides[0].op: expected the name of an op in rank 1's program, found 'b'"},
        {kHead + "program:\n  - {name: a, duration: 1us}\noverrides:\n  - {op: a, duration: 2us}\n",
         "overrides[0].ranks: expected the ranks it applies to (required)"},
        {kHead + "programs:\n  - {ranks: \"0-1\", ops: [{name: x, collective: allreduce, bytes: 1K, comm: world}]}\n"
                 "  - {ranks: \"2-3\", ops: [{name: y, collective: allreduce, bytes: 2K, comm: world}]}\n",
         "op 'y' on rank 2: expected call 1 on 'world' to match rank 0 (allreduce of 1024 bytes 'x'), found "
         "allreduce of 2048 bytes"},
        {kHead + "programs:\n  - {ranks: \"0-1\", ops: [{name: x, collective: allreduce, bytes: 1K, comm: world}]}\n"
                 "  - {ranks: \"2-3\", ops: [{name: y, duration: 1us}]}\n",
         "op 'x' on rank 2: expected 1 collectives on 'world', as rank 0 issues, found 0"},
        {kHead + "programs:\n  - {ranks: 0, ops: [{name: s, send: 1, bytes: 1K}]}\n  - {ranks: \"1-3\", ops: []}\n",
         "t.yaml:4:22: op 's' on rank 0: expected as many receives on rank 1 from rank 0 as sends, found 1 more sends"},
        {kHead + "program:\n  - {name: s, send: next, comm: pairs, bytes: 1K}\n",
         "op 's' on rank 1: expected a peer inside its group (next and prev do not wrap around), found none"},
        {"ranks: 2\ncommunicators: {one: {groups: [[0]]}}\nprogram:\n  - {name: a, collective: allreduce, bytes: 1K, comm: one}\n",
         "op 'a' on rank 1: expected a rank in a group of communicator 'one', found a rank in none"},
        {kHead + "program:\n  - {name: a, collective: broadcast, bytes: 1K, comm: world, root: 4}\n",
         "op 'a' on rank 0: expected a root from 0 to 3, found 4"},
        {"ranks: 2\ngpu: {card: h900}\nprogram: []\n", "t.yaml:2:13: gpu.card: expected one of a100-sxm-40gb"},
        {"ranks: 2\ngpu: {card: h100-sxm, flops_efficiency: 1.5}\nprogram: []\n",
         "t.yaml:2:41: gpu.flops_efficiency: expected a share above 0 and at most 1"},
        {"ranks: 2\ngpu: {peak: {bf17: 1PFLOP/s}, memory_bandwidth: 1TB/s}\nprogram: []\n",
         "t.yaml:2:14: gpu.peak.bf17: expected one of fp64, fp32"},
        {"ranks: 2\ngpu: {peak: {bf16: 1PB/s}, memory_bandwidth: 1TB/s}\nprogram: []\n",
         "t.yaml:2:20: gpu.peak.bf16: expected a FLOP rate with a unit"},
        {"ranks: 2\ngpu: {card: h100-sxm, memory_bandwidth: 1TB/s}\nprogram: []\n",
         "gpu.memory_bandwidth: expected peak FLOP rates alongside it (a custom card), found memory_bandwidth alone"},
    };
    for (const Case& c : cases) {
        INFO(c.trace);
        CHECK_THAT(trace_error_of(c.trace), Catch::Contains(c.expect));
    }
}
