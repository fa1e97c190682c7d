#pragma once
// Every bound collsim puts on what it reads, in one place. Each is enforced
// where its input is read, as an exit 2 (InputError) that names the bound and
// the value found; the README's "Limits" section lists them. They sit far above
// any real input we know of and exist so that a wrong or hostile input ends at
// once with a message instead of growing until the machine runs out of memory
// (issue 24: /dev/zero as a trace, a 10^6-deep JSON list, 10^12 elements).
#include <cstddef>
#include <cstdint>

namespace collsim::limits {

// Files. Any one input file, as read (after gunzip, so a small .gz cannot
// unpack without bound). Only regular files and pipes are read: a device such as
// /dev/zero never ends.
inline constexpr int64_t kMaxInputBytes = int64_t{1} << 30;  // 1 GiB
// A native trace in YAML (or in JSON that cannot be streamed, see
// sim/replay/trace_stream.hpp) is read as a whole yaml-cpp document, which
// costs about 60-77 bytes of memory per byte of text and ~200 us per op
// (bench/resources.cpp, BENCHMARKS.md): 32 MiB of trace is about 2 GiB.
// Larger ones are refused when their size is known, before the read.
inline constexpr int64_t kMaxNativeTraceDocumentBytes = int64_t{32} << 20;  // 32 MiB
// A native trace in JSON (named .json) is streamed: each op is resolved as it
// is read, so memory follows the ops kept (kMaxNativeTraceOps), not the text;
// the text is bounded by the input limit alone.
inline constexpr int64_t kMaxNativeTraceStreamBytes = kMaxInputBytes;

// Nesting, in every reader: YAML (topologies, traces, fault plans, profiles,
// manifests), JSON (Chakra, Kineto, replay reports) and XML (MSCCL).
inline constexpr int kMaxYamlDepth = 256;
// YAML aliases of aliases multiply ("billion laughs"): the nodes walked once
// aliases are expanded.
inline constexpr std::size_t kMaxYamlNodes = 10'000'000;
inline constexpr int kMaxJsonDepth = 256;
inline constexpr int kMaxXmlDepth = 32;

// Traces: ranks, and the ops of a native trace over all its programs. A
// streamed op, resolved (TraceOp, sim/replay/trace.hpp) and replayed, costs
// about 445 bytes (bench/resources.cpp at 10^6 ops: 447 MiB, BENCHMARKS.md):
// 2^22 ops is about 1.8 GiB with the rest of a replay.
inline constexpr int kMaxTraceRanks = 1'000'000;
inline constexpr int64_t kMaxNativeTraceOps = int64_t{1} << 22;
// The ops of an imported trace (Kineto, Chakra), over all its rank files: the
// bound a native trace had when it was read as a document (~3.3 x 10^6 ops)
// rounded up to 2^22: at ~400 bytes per op with its name and dependencies, about 1.7 GiB. Checked
// after each rank file, so that a set of a million files stops at the file
// that passes it.
inline constexpr int64_t kMaxTraceOps = int64_t{1} << 22;

// Files in one trace archive (.tgz): a file per rank of the largest imported
// job (kMaxImportedRanks, 2^20) and a few more; the bytes unpacked are bounded
// by kMaxInputBytes together.
inline constexpr int kMaxArchiveFiles = (1 << 20) + 1024;

// Topologies: instances of one node template (count:), and devices made from
// templates, checked before they are copied. The largest shipped file
// (cluster-h100-16384n.yaml, 131,072 GPUs) has 381,952 devices and loads in
// ~1.5 s and ~310 MiB (BENCHMARKS.md); 2^20 devices is about 2.7 times that.
inline constexpr int64_t kMaxNodeInstances = int64_t{1} << 20;
inline constexpr int64_t kMaxTopologyDevices = int64_t{1} << 20;

// numerics: elements (~28 bytes each while the reduction runs: 2^27 is a few
// GiB), ranks, and contributions per element under --compare.
inline constexpr int64_t kMaxNumericsElements = int64_t{1} << 27;
inline constexpr int kMaxNumericsRanks = 65'536;
inline constexpr int64_t kMaxNumericsContributions = int64_t{1} << 16;

// Sizes in one coll sweep (nccl-tests' -b 1 -e 1G -i 1 would be 10^9).
inline constexpr int64_t kMaxSweepSizes = 100'000;

// Points of one `collsim sweep` spec (the product of its parameter lists):
// each is a full run, so a spec past this is a typo, not a study.
inline constexpr int64_t kMaxSweepPoints = 100'000;

// A direct AllToAll's closed form and fluid streams hold every pair:
// ranks x (ranks-1) x channels transfers, about 1.1 GiB per million.
inline constexpr int64_t kMaxAllToAllTransfers = int64_t{1} << 22;

}  // namespace collsim::limits
