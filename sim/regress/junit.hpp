#pragma once
// A comparison as JUnit XML, the report format CI systems (GitLab, Jenkins,
// GitHub's test reporters) show test by test: one testcase per suite entry,
// a <failure> on each that failed, its message saying what moved.
#include <string>

#include "sim/regress/comparison.hpp"

namespace collsim {

// `suite` names the testsuite (the suite file).
std::string render_junit(const Comparison& c, const std::string& suite, bool exact);

}  // namespace collsim
