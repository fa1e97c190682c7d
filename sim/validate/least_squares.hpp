#pragma once
// Box-constrained nonlinear least squares (Levenberg-Marquardt with
// Marquardt's diagonal scaling and a forward-difference Jacobian). Small and
// dense: collsim fits a handful of calibration parameters, each evaluation
// of the residuals being a batch of simulations.
#include <functional>
#include <vector>

namespace collsim {

struct BoxParameter {
    double start = 0, lo = 0, hi = 0;
    double step = 1e-3;  // finite-difference step, in the parameter's units
};

struct LeastSquaresResult {
    std::vector<double> x;
    double cost = 0;        // sum of squared residuals at x
    double start_cost = 0;  // at the start
    int iterations = 0, evaluations = 0;
    std::vector<bool> active;  // false: the residuals do not depend on it; left at its start
};

using Residuals = std::function<std::vector<double>(const std::vector<double>&)>;

LeastSquaresResult least_squares(const Residuals& f, const std::vector<BoxParameter>& params, int max_iterations = 30);

}  // namespace collsim
