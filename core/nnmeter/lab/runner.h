// The kernel lab's executor: runs a network's kernels on this machine's CPU
// with oneDNN (the library CPU inference engines use), so the lab can time
// single kernels, operator pairs alone and fused (seed 004 eq. 1) and whole
// networks (end-to-end measurement).
//
// Every kernel found by detectKernels() becomes a short list of oneDNN
// primitives. A kernel's first operator opens a primitive; each following
// member is attached to it as a oneDNN post-op when oneDNN accepts it (an
// activation as an eltwise post-op, an element-wise add/mul/sub/div as a binary
// post-op reading the other operand, a batch norm folded into the preceding
// convolution or fully connected layer, or as per-channel binary multiply and
// add after other primitives); when oneDNN refuses, the member opens a
// primitive of its own inside the same kernel. So a kernel runs fused exactly
// as far as oneDNN fuses it, which is what the fusion test measures.
//
// Activations are fp32 in NHWC (TFLite's layout); weights take the layout
// oneDNN picks, laid out once when the runner is built (not timed). Buffers
// are filled with small random values once, and denormals are flushed to zero
// so values never slow the arithmetic down.
//
// A matmul (attention's Q·Kᵀ and P·V, `heads` products side by side) runs
// as one batched oneDNN matmul reading its operands in place through strides;
// a layer norm normalizes the channels of every position. Operators without a
// oneDNN primitive here (`other`, a reduce that is not a mean over H and W, a
// grouped deconvolution) are skipped and listed in skipped(); a network with
// skipped operators is measured without them.
#pragma once

#include "../kernels.h"
#include "stats.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace roofline::nnmeter::lab {

struct RunOptions
{
    int warmup = 3;           // untimed runs first (JIT, caches, page faults)
    int repetitions = 15;     // timed samples
    double minSampleMs = 0.2; // a sample repeats the work until it lasts this long (tiny kernels)
    int maxInner = 1000;      // at most this many runs per sample
    // When > 0, every sample is one run preceded by writing this many bytes
    // elsewhere (untimed), so the run starts with the caches holding other
    // data, as a kernel does in the middle of a network; 0 times the kernel
    // hot, run after run.
    std::size_t flushBytes = 0;
};

// What the runner made of one kernel.
struct KernelPlanInfo
{
    int primitives = 0; // oneDNN primitives it runs (1 = fully fused)
    int postOps = 0;    // members attached as post-ops (or folded)
    std::vector<int> skippedLayers;
    bool runs() const { return primitives > 0; }
};

class NetworkRunner
{
public:
    // Builds the primitives of every kernel of `detection`; nullptr and
    // `error` when oneDNN refuses the network as a whole (no CPU engine), or
    // when `cancel` becomes true (polled between kernels: building a large
    // network's primitives and laying out its weights takes most of a second).
    static std::unique_ptr<NetworkRunner> create(const network::Network &net, const Detection &detection,
                                                 std::string &error, const std::atomic<bool> *cancel = nullptr);
    ~NetworkRunner();
    NetworkRunner(const NetworkRunner &) = delete;
    NetworkRunner &operator=(const NetworkRunner &) = delete;

    std::size_t kernelCount() const;
    const KernelPlanInfo &plan(std::size_t kernel) const;
    // Layer indices skipped (no primitive), in network order.
    std::vector<int> skipped() const;

    // The values of a tensor after the last run, NHWC: a layer's output, or
    // network input -1 - i (for tests that check what a primitive computed).
    std::vector<float> values(int producer) const;

    void runKernel(std::size_t kernel); // one run, waits for completion
    void runAll();                      // every kernel in order, waits

    TimingStats timeKernel(std::size_t kernel, const RunOptions &options);
    TimingStats timeAll(const RunOptions &options);

    // The network run whole, `repetitions` times after `warmup` runs, with
    // every kernel timed where it runs in the sequence (its inputs written
    // by the kernel before it, its weights cold). On a shared machine a run
    // of tens of ms is preempted by other processes, a kernel of a fraction
    // of a ms rarely: the sum of the per-kernel medians is the network's own
    // latency, the whole runs' median includes the waits for the CPU.
    // `cancel` is polled between kernels; a run it cuts short is not counted.
    struct SequenceTiming
    {
        std::vector<TimingStats> kernels;
        double kernelSumMs = 0; // Σ per-kernel medians
        TimingStats whole;      // whole runs, end to end
    };
    SequenceTiming timeSequence(const RunOptions &options, const std::atomic<bool> *cancel = nullptr);

private:
    struct Impl;
    explicit NetworkRunner(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// Warm-up, calibration of the runs per sample and the timed samples of `run`
// (which must complete its work before it returns). Stops early, with the
// samples taken so far, when `cancel` becomes true.
TimingStats timeRepeated(const std::function<void()> &run, const RunOptions &options,
                         const std::atomic<bool> *cancel = nullptr);

// "oneDNN 2.6.3" (the library actually loaded).
std::string onednnVersion();

// Threads oneDNN may use (OpenMP); the lab uses 1 by default on a shared machine.
void setThreads(int threads);
int threads();

} // namespace roofline::nnmeter::lab
