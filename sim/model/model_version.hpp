#pragma once
// The version of collsim's performance model: what a regress baseline
// (sim/regress) was made with. Bump it in the commit that changes what the
// model computes for the same inputs in a way that old baselines cannot be
// compared with (a new metric's meaning, a change of units, a new tier's
// numbers), so that `collsim regress` refuses them with a clear message
// rather than reporting every entry as a regression. Changes that move a
// number but keep the meaning (a fixed constant) keep the version: the
// baseline is regenerated with --update in the same commit instead.
namespace collsim {

inline constexpr int kModelVersion = 1;

}  // namespace collsim
