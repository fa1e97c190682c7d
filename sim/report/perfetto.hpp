#pragma once
// The replay as a Chrome trace-event JSON file, which ui.perfetto.dev and
// chrome://tracing open: one process per rank with one thread (track) per
// stream, a slice per op (communication also gets a "wait" slice for the time
// spent waiting for its peers), and a "links" process with one counter track
// per busy link direction giving its throughput in GB/s over time.
// Format: the Trace Event Format (ph "X" complete events, "C" counters, "M"
// metadata; ts and dur in microseconds).
#include <string>

#include "sim/report/replay_report.hpp"

namespace collsim {

// Link tracks need samples (ReplayOptions::sample_links); without them only
// the rank tracks are written. `links` bounds the link tracks.
std::string render_perfetto(const ReplayReport& rep, std::size_t links);

}  // namespace collsim
