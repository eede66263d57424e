// Which accelerator numbers matter: the total inference time when each number
// the studio's panel (and --set) can change moves alone by a relative step
// (±10 % by default). The data of the AMAIX tornado chart, computed from the
// model, not from the plot (docs/models/amaix.md, "Sensitivity").
#pragma once

#include "io.h"
#include "model.h"

#include <string>
#include <vector>

namespace roofline::amaix {

// The data type an evaluation with these options uses: the chosen one, else
// the network's when the accelerator defines it, else the accelerator's default.
std::string activeDataType(const Network &network, const Accelerator &accelerator, const Options &options);

// One number the panel offers a slider for, in the panel's order.
struct SettableParameter {
    std::string pointer; // as --set names it: "/memories/DRAM/bandwidth_gbps"
    std::string label; // "DRAM bandwidth", "MAC T_k"
    std::string unit; // of the stored number: "GHz", "GB/s", "ops/cycle", "B", ...
    std::string description; // what it means, for tooltips
    bool integer = false; // the file and validate() want a whole number
    bool operator==(const SettableParameter &) const = default;
};
// Clock; under nvdla T_k (of `dataType`) and T_c; the ops/cycle of every unit
// (but the MAC array under nvdla); every memory's bandwidth; the element width
// of `dataType`; under nvdla the CBUF size, banks and entry size, the bus
// width and the NVDLA atom.
std::vector<SettableParameter> settableParameters(const Accelerator &accelerator, const std::string &dataType);

struct Sensitivity {
    std::string pointer;
    std::string label;
    double value = 0; // the parameter now
    double lowValue = 0; // at (1 − step), clamped to its valid range, rounded when integral
    double highValue = 0; // at (1 + step)
    double lowNs = 0; // total inference time with lowValue (the current time when that is not feasible)
    double highNs = 0;
    bool lowFeasible = true; // false: the accelerator rejects lowValue or the network does not run with it
    bool highFeasible = true;

    double swing() const { return highNs > lowNs ? highNs - lowNs : lowNs - highNs; }
    bool operator==(const Sensitivity &) const = default;
};

// Every settable parameter of the accelerator for the data type the options
// select, sorted by swing, largest first (ties keep the panel's order). Empty
// when the current configuration does not evaluate.
//
// Integral numbers (T_k, T_c, element width, CBUF bytes/banks/entry, bus width,
// atom) are rounded to the nearest whole number, so a small step can leave one
// unchanged (2 B ± 10 % is still 2 B): no swing. A moved value outside the
// number's range is clamped to the range; one that validate() rejects (e.g. a
// CBUF entry smaller than the atom) or that makes the network infeasible (a
// layer no longer fits the CBUF) keeps the current time and is flagged.
//
// `threads` > 1 shares the parameters' evaluations among that many threads
// (the view's live tornado uses both cores; a sweep that already runs on every
// core passes 1); the rows are the same whatever the count.
std::vector<Sensitivity> sensitivity(const Network &network, const Accelerator &accelerator, const Options &options,
                                     double relativeStep = 0.1, unsigned threads = 1);

} // namespace roofline::amaix
