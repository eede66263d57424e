// Sensitivity of a network's total time to each coefficient of a Brouwer
// device (seed 002 Table 2: per category and regime the intercept a, the
// slope b of log x and the c of log F; for a feature-selection submodel its
// intercept and every term): the total with that coefficient alone scaled by
// (1 − step) and (1 + step), all else as calibrated. The models are fitted in
// log space, so a relative change of a coefficient multiplies the layer times
// it enters by base^(±step·coefficient·feature): an intercept of 5 (log10 ns)
// moved by 10 % scales those times by 10^0.5 ≈ 3.2.
#pragma once

#include "model.h"

#include <string>
#include <vector>

namespace roofline::brouwer {

struct CoefficientSensitivity
{
    std::string label; // "CONV std b·log M", "FC swap c·log F", "LOAD intercept", "CONV I·O^2"
    Category submodel = Category::Other;
    double lowMs = 0;  // total with the coefficient × (1 − step)
    double highMs = 0; // × (1 + step)
    bool operator==(const CoefficientSensitivity &) const = default;
};

// Every coefficient that moves the total at these parameters (calibrated, not
// zero, used by some layer in its current regime), largest swing |high − low|
// first. Each coefficient re-predicts only the parts of the layers whose
// submodel it belongs to.
std::vector<CoefficientSensitivity> coefficientSensitivity(const Device &device,
                                                           const std::vector<LayerFeatures> &layers,
                                                           const Params &params, double relativeStep, bool smeared);

} // namespace roofline::brouwer
