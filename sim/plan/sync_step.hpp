#pragma once
// Data-parallel synchronisation in buckets, as Megatron-LM's DDP runs it:
// gradients are reduced bucket by bucket while the last micro-batch's
// backward pass still runs (a bucket is ready once backward has passed its
// layers; buckets go out one after another on one stream). Without overlap
// every bucket waits for the end of backward.
#include <vector>

namespace collsim {

struct OverlapTime {
    double exposed = 0;     // past the end of the window
    double overlapped = 0;  // communication that ran inside the window
};

// Buckets become ready evenly over `window` seconds (bucket i at
// window x (i+1)/n) when `overlap`, all at its end otherwise.
OverlapTime bucketed_overlap(double window, const std::vector<double>& buckets, bool overlap);

// Communication of `comm` seconds running beside `window` seconds of compute
// that hides it: what sticks out.
OverlapTime hidden_behind(double window, double comm);

}  // namespace collsim
