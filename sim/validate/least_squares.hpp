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
    // > 0: a prior on the parameter, centred on `start`. Each parameter adds
    // the residual (x - start) / prior_sd, so a move of one prior_sd costs
    // as much as one row missed by e (in log time). 0: no prior.
    double prior_sd = 0;
};

struct LeastSquaresResult {
    std::vector<double> x;
    double cost = 0;        // sum of squared residuals at x, the priors' included
    double start_cost = 0;  // at the start
    int iterations = 0, evaluations = 0;
    std::vector<bool> active;  // false: the residuals do not depend on it; left at its start
};

using Residuals = std::function<std::vector<double>(const std::vector<double>&)>;

LeastSquaresResult least_squares(const Residuals& f, const std::vector<BoxParameter>& params, int max_iterations = 30);

}  // namespace collsim
