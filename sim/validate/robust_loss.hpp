#pragma once
// Huber's loss on a row's residual in log time, for calibration fits. Least
// squares lets one row that the model cannot explain (a noisy run, a size
// where another algorithm ran) pull every parameter towards it: a fit on two
// 2-node H100 runs, one of them noisy, pushed Tree/LL128's launch latency to
// 667 us and raised its own rows' latency-bound error from 14.6% to 93.7%.
// Huber's loss counts residuals beyond `delta` linearly, so such a row pulls
// with a bounded force. Huber (1964), "Robust Estimation of a Location
// Parameter", Ann. Math. Statist. 35(1).
namespace collsim {

// ln 1.25: a row within 25% of its measurement is fitted as by least squares.
inline constexpr double kHuberDelta = 0.22314355131420976;

// The residual whose square is twice Huber's loss of r (r itself within
// delta): least squares on it minimises Huber's loss, and it is smooth, so
// Levenberg-Marquardt takes it as it is.
double huber_residual(double r, double delta = kHuberDelta);
// How much Huber's loss weighs r against least squares: 1 within delta,
// delta / |r| beyond.
double huber_weight(double r, double delta = kHuberDelta);

}  // namespace collsim
