#include "runner.h"

#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>
#include <xmmintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <unordered_map>

namespace roofline::nnmeter::lab {

namespace dn = dnnl;
using network::Layer;
using network::LayerType;
using network::Network;
using network::Shape;
using Tag = dn::memory::format_tag;
using Dt = dn::memory::data_type;
using Dims = dn::memory::dims;

namespace {

void flushDenormals()
{
    // FTZ and DAZ on every OpenMP thread (MXCSR is per thread).
#pragma omp parallel
    _mm_setcsr(_mm_getcsr() | 0x8040);
}

dn::memory::desc desc4(const Shape &s)
{
    return dn::memory::desc(Dims{std::max<std::int64_t>(s.n, 1), std::max<std::int64_t>(s.c, 1),
                                 std::max<std::int64_t>(s.h, 1), std::max<std::int64_t>(s.w, 1)},
                            Dt::f32, Tag::nhwc);
}

// Values uniform in [-a, a]. Weights use a = sqrt(3 / fan-in), so every output has
// the variance of an input and values neither grow to inf nor shrink into
// denormals through a deep network (either slows the arithmetic down many times).
void fill(dn::memory &m, std::mt19937 &rng, float a = 0.5f)
{
    const std::size_t n = m.get_desc().get_size() / sizeof(float);
    auto *p = static_cast<float *>(m.get_data_handle());
    std::uniform_real_distribution<float> u(-a, a);
    for (std::size_t i = 0; i < n; ++i)
        p[i] = u(rng);
}

std::string implName(const dn::primitive &p)
{
    const char *info = nullptr;
    if (dnnl_primitive_desc_query(p.get_primitive_desc(), dnnl_query_impl_info_str, 0, &info) != dnnl_success || !info)
        return {};
    return info;
}

struct Step
{
    dn::primitive primitive;
    std::unordered_map<int, dn::memory> args;
};

// An element-wise stage that may follow a primitive as a post-op.
struct PostOp
{
    enum class Kind { Eltwise, Binary, FoldBn, ScaleShift } kind = Kind::Eltwise;
    int layer = -1;
    dn::algorithm alg = dn::algorithm::eltwise_relu;
    float alpha = 0, beta = 0;
    dn::memory src1; // Binary: the other operand
};

std::optional<PostOp> activationPostOp(const Layer &l)
{
    const std::string &f = l.function;
    PostOp p;
    if (f == "relu" || f == "dropout" || f == "identity")
        p.alg = dn::algorithm::eltwise_relu; // dropout/identity at inference: a copy; relu costs the same pass
    else if (f == "relu6" || f.rfind("clip", 0) == 0)
        p.alg = dn::algorithm::eltwise_clip, p.alpha = 0, p.beta = 6;
    else if (f == "hardswish" || f == "hswish")
        p.alg = dn::algorithm::eltwise_hardswish;
    else if (f == "hardsigmoid" || f == "hsigmoid")
        p.alg = dn::algorithm::eltwise_clip, p.alpha = 0, p.beta = 1; // same single pass as max(0, min(1, ax+b))
    else if (f == "sigmoid")
        p.alg = dn::algorithm::eltwise_logistic;
    else if (f == "tanh")
        p.alg = dn::algorithm::eltwise_tanh;
    else if (f == "elu" || f == "selu" || f == "celu")
        p.alg = dn::algorithm::eltwise_elu, p.alpha = 1;
    else if (f == "gelu")
        p.alg = dn::algorithm::eltwise_gelu_erf;
    else if (f == "leakyrelu" || f == "prelu")
        p.alg = dn::algorithm::eltwise_relu, p.alpha = 0.01f;
    else if (f == "softplus")
        p.alg = dn::algorithm::eltwise_soft_relu;
    else if (f == "mish")
        p.alg = dn::algorithm::eltwise_mish;
    else if (f == "swish" || f == "silu")
        p.alg = dn::algorithm::eltwise_swish, p.alpha = 1;
    else if (f == "sqrt")
        p.alg = dn::algorithm::eltwise_sqrt;
    else if (f == "exp")
        p.alg = dn::algorithm::eltwise_exp;
    else if (f == "log")
        p.alg = dn::algorithm::eltwise_log;
    else if (f == "abs")
        p.alg = dn::algorithm::eltwise_abs;
    else if (f == "erf")
        p.alg = dn::algorithm::eltwise_tanh; // oneDNN has no erf alone: a transcendental pass of the same traffic
    else if (f == "pow")
        p.alg = dn::algorithm::eltwise_square;
    else if (f == "neg" || f == "reciprocal")
        p.alg = dn::algorithm::eltwise_linear, p.alpha = -1;
    else
        return std::nullopt;
    p.kind = PostOp::Kind::Eltwise;
    return p;
}

dn::algorithm binaryAlg(LayerType t)
{
    switch (t) {
    case LayerType::EltwiseMul: return dn::algorithm::binary_mul;
    case LayerType::EltwiseSub: return dn::algorithm::binary_sub;
    case LayerType::EltwiseDiv: return dn::algorithm::binary_div;
    default: return dn::algorithm::binary_add;
    }
}

bool isBinary(LayerType t)
{
    return t == LayerType::EltwiseAdd || t == LayerType::EltwiseMul || t == LayerType::EltwiseSub
        || t == LayerType::EltwiseDiv;
}

} // namespace

struct NetworkRunner::Impl
{
    dn::engine engine{dn::engine::kind::cpu, 0};
    dn::stream stream{engine};
    const Network *net = nullptr;
    std::vector<dn::memory> layerMem; // every layer's output (views alias their producer)
    std::vector<dn::memory> inputMem; // network inputs
    std::vector<std::vector<Step>> kernels;
    std::vector<KernelPlanInfo> plans;
    std::vector<std::vector<int>> consumers;
    std::mt19937 rng{12345};
    // x · sigmoid(x) inside a kernel: the multiply runs as one swish eltwise of x (the
    // sigmoid is not run), as inference engines run SiLU; layer index -> x.
    std::map<int, int> swishMul;

    dn::memory &tensor(int producer)
    {
        return producer >= 0 ? layerMem[std::size_t(producer)] : inputMem[std::size_t(-producer - 1)];
    }
    dn::memory alloc(const dn::memory::desc &d, double fanIn = 0)
    {
        dn::memory m(d, engine);
        fill(m, rng, fanIn > 0 ? float(std::sqrt(3.0 / fanIn)) : 0.5f);
        return m;
    }
    dn::memory reinterpret(const dn::memory &m, const dn::memory::desc &d)
    {
        return dn::memory(d, engine, m.get_data_handle());
    }

    // The post-op form of member `m` following `tail` in an open group whose
    // primary is `primary`; nullopt when it cannot be one.
    std::optional<PostOp> postOpFor(int primary, int tail, int m, bool hasPostOps)
    {
        const Layer &l = net->layers[std::size_t(m)];
        const Layer &t = net->layers[std::size_t(tail)];
        if (const auto sw = swishMul.find(m); sw != swishMul.end()) {
            // x · sigmoid(x) after the tail x: a swish post-op (x's two readers are the swish's own).
            if (sw->second != tail || consumers[std::size_t(tail)].size() != 2)
                return std::nullopt;
            PostOp p;
            p.layer = m;
            p.alg = dn::algorithm::eltwise_swish;
            p.alpha = 1;
            return p;
        }
        if (consumers[std::size_t(tail)].size() != 1 || l.output.elements() != t.output.elements())
            return std::nullopt;
        if (std::find(l.inputs.begin(), l.inputs.end(), tail) == l.inputs.end())
            return std::nullopt;
        if (l.type == LayerType::Activation && l.inputs.size() == 1) {
            auto p = activationPostOp(l);
            if (p)
                p->layer = m;
            return p;
        }
        if (l.type == LayerType::BatchNorm && l.inputs.size() == 1) {
            const LayerType pt = net->layers[std::size_t(primary)].type;
            PostOp p;
            p.layer = m;
            // Inference engines fold a batch norm into the convolution or FC before it.
            p.kind = !hasPostOps && (pt == LayerType::Convolution || pt == LayerType::FullyConnected
                                     || pt == LayerType::Deconvolution)
                ? PostOp::Kind::FoldBn
                : PostOp::Kind::ScaleShift;
            if (p.kind == PostOp::Kind::ScaleShift)
                p.src1 = alloc(dn::memory::desc(Dims{1, std::max<std::int64_t>(l.output.c, 1), 1, 1}, Dt::f32, Tag::nhwc));
            return p;
        }
        if (isBinary(l.type) && l.inputs.size() <= 2) {
            PostOp p;
            p.kind = PostOp::Kind::Binary;
            p.layer = m;
            p.alg = binaryAlg(l.type);
            if (l.inputs.size() == 2) {
                const int other = l.inputs[0] == tail ? l.inputs[1] : l.inputs[0];
                if (other == tail)
                    return std::nullopt;
                const Shape &os = net->inputShape(other);
                if (os.c != l.output.c && os.c != 1)
                    return std::nullopt;
                if ((os.h != l.output.h && os.h != 1) || (os.w != l.output.w && os.w != 1))
                    return std::nullopt;
                p.src1 = tensor(other);
            } else {
                // The other operand is a constant of the file: a scalar.
                p.src1 = alloc(dn::memory::desc(Dims{1, 1, 1, 1}, Dt::f32, Tag::nhwc));
            }
            return p;
        }
        return std::nullopt;
    }

    dn::primitive_attr attrFor(const std::vector<PostOp> &posts)
    {
        dn::post_ops ops;
        for (const PostOp &p : posts) {
            switch (p.kind) {
            case PostOp::Kind::Eltwise: ops.append_eltwise(1.0f, p.alg, p.alpha, p.beta); break;
            case PostOp::Kind::Binary: ops.append_binary(p.alg, p.src1.get_desc()); break;
            case PostOp::Kind::ScaleShift:
                ops.append_binary(dn::algorithm::binary_mul, p.src1.get_desc());
                ops.append_binary(dn::algorithm::binary_add, p.src1.get_desc());
                break;
            case PostOp::Kind::FoldBn: break;
            }
        }
        dn::primitive_attr attr;
        attr.set_post_ops(ops);
        return attr;
    }

    void addPostOpArgs(Step &s, const std::vector<PostOp> &posts)
    {
        int index = 0;
        for (const PostOp &p : posts) {
            if (p.kind == PostOp::Kind::Binary) {
                s.args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1] = p.src1;
            } else if (p.kind == PostOp::Kind::ScaleShift) {
                s.args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1] = p.src1;
                ++index;
                s.args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1] = p.src1;
            }
            if (p.kind != PostOp::Kind::FoldBn)
                ++index;
        }
    }

    // Builds the primitive of `primary` with `posts` attached writing to
    // `dstLayer`'s buffer; nullopt when oneDNN refuses (unimplemented).
    std::optional<Step> build(int primary, const std::vector<PostOp> &posts, int dstLayer)
    {
        const Layer &l = net->layers[std::size_t(primary)];
        if (l.inputs.empty())
            return std::nullopt;
        const Shape &in = net->inputShape(l.inputs[0]);
        const Shape &out = l.output;
        dn::memory dst = tensor(dstLayer);
        Step s;
        try {
            const dn::primitive_attr attr = attrFor(posts);
            switch (l.type) {
            case LayerType::Convolution:
            case LayerType::Deconvolution: {
                const std::int64_t g = std::max(l.groups, 1);
                const std::int64_t oc = out.c, ic = in.c;
                if (ic % g != 0 || oc % g != 0)
                    return std::nullopt;
                const int dh = std::max(l.dilationH, 1), dw = std::max(l.dilationW, 1);
                const std::int64_t keh = (l.kernelH - 1) * dh + 1, kew = (l.kernelW - 1) * dw + 1;
                Dims wd = g > 1 ? Dims{g, oc / g, ic / g, l.kernelH, l.kernelW} : Dims{oc, ic, l.kernelH, l.kernelW};
                const dn::memory::desc wdesc(wd, Dt::f32, Tag::any);
                const dn::memory::desc bdesc(Dims{oc}, Dt::f32, Tag::x);
                const Dims strides{l.strideH, l.strideW}, dil{dh - 1, dw - 1}, pl{l.padH, l.padW};
                if (l.type == LayerType::Convolution) {
                    auto right = [](std::int64_t o, int st, std::int64_t ke, std::int64_t i, int p) {
                        std::int64_t r = (o - 1) * st + ke - i - p;
                        return r < 0 && -r < st ? std::int64_t(0) : r;
                    };
                    const Dims pr{right(out.h, l.strideH, keh, in.h, l.padH), right(out.w, l.strideW, kew, in.w, l.padW)};
                    dn::convolution_forward::desc d(dn::prop_kind::forward_inference, dn::algorithm::convolution_direct,
                                                    desc4(in), wdesc, bdesc, desc4(out), strides, dil, pl, pr);
                    dn::convolution_forward::primitive_desc pd(d, attr, engine);
                    s.primitive = dn::convolution_forward(pd);
                    s.args[DNNL_ARG_WEIGHTS] = alloc(pd.weights_desc(), double(ic / g * l.kernelH * l.kernelW));
                } else {
                    if (g > 1)
                        return std::nullopt;
                    const Dims pr{(in.h - 1) * l.strideH + keh - out.h - l.padH,
                                  (in.w - 1) * l.strideW + kew - out.w - l.padW};
                    dn::deconvolution_forward::desc d(dn::prop_kind::forward_inference,
                                                      dn::algorithm::deconvolution_direct, desc4(in), wdesc, bdesc,
                                                      desc4(out), strides, dil, pl, pr);
                    dn::deconvolution_forward::primitive_desc pd(d, attr, engine);
                    s.primitive = dn::deconvolution_forward(pd);
                    s.args[DNNL_ARG_WEIGHTS] = alloc(pd.weights_desc(), double(ic * l.kernelH * l.kernelW));
                }
                s.args[DNNL_ARG_BIAS] = alloc(bdesc);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = dst;
                break;
            }
            case LayerType::FullyConnected: {
                const dn::memory::desc wdesc(Dims{out.c, in.c, in.h, in.w}, Dt::f32, Tag::any);
                const dn::memory::desc bdesc(Dims{out.c}, Dt::f32, Tag::x);
                const dn::memory::desc ddesc(Dims{out.n, out.c}, Dt::f32, Tag::nc);
                dn::inner_product_forward::desc d(dn::prop_kind::forward_inference, desc4(in), wdesc, bdesc, ddesc);
                dn::inner_product_forward::primitive_desc pd(d, attr, engine);
                s.primitive = dn::inner_product_forward(pd);
                s.args[DNNL_ARG_WEIGHTS] = alloc(pd.weights_desc(), double(in.perItem()));
                s.args[DNNL_ARG_BIAS] = alloc(bdesc);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = reinterpret(dst, ddesc);
                break;
            }
            case LayerType::Pooling:
            case LayerType::Reduce: {
                const bool global = l.type == LayerType::Reduce || l.globalPool || (out.h == 1 && out.w == 1);
                if (l.type == LayerType::Reduce && (out.h != 1 || out.w != 1 || out.c != in.c))
                    return std::nullopt; // only a mean over H and W runs as a pooling
                const Dims kernel = global ? Dims{in.h, in.w} : Dims{l.kernelH, l.kernelW};
                const Dims strides = global ? Dims{1, 1} : Dims{l.strideH, l.strideW};
                const Dims pl = global ? Dims{0, 0} : Dims{l.padH, l.padW};
                auto right = [](std::int64_t o, std::int64_t st, std::int64_t k, std::int64_t i, std::int64_t p) {
                    return std::max<std::int64_t>((o - 1) * st + k - i - p, 0);
                };
                const Dims pr{right(out.h, strides[0], kernel[0], in.h, pl[0]), right(out.w, strides[1], kernel[1], in.w, pl[1])};
                const bool max = l.type == LayerType::Pooling && l.poolMode == network::PoolMode::Max;
                dn::pooling_forward::desc d(dn::prop_kind::forward_inference,
                                            max ? dn::algorithm::pooling_max : dn::algorithm::pooling_avg_exclude_padding,
                                            desc4(in), desc4(out), strides, kernel, pl, pr);
                dn::pooling_forward::primitive_desc pd(d, attr, engine);
                s.primitive = dn::pooling_forward(pd);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = dst;
                if (pd.workspace_desc().get_size() > 0)
                    s.args[DNNL_ARG_WORKSPACE] = alloc(pd.workspace_desc());
                break;
            }
            case LayerType::BatchNorm: {
                // oneDNN fuses only a plain relu into a batch norm (a flag, not a post-op).
                const bool relu = posts.size() == 1 && posts[0].kind == PostOp::Kind::Eltwise
                    && posts[0].alg == dn::algorithm::eltwise_relu && posts[0].alpha == 0;
                if (!posts.empty() && !relu)
                    return std::nullopt;
                auto flags = dn::normalization_flags::use_global_stats | dn::normalization_flags::use_scale
                    | dn::normalization_flags::use_shift;
                if (relu)
                    flags = flags | dn::normalization_flags::fuse_norm_relu;
                dn::batch_normalization_forward::desc d(dn::prop_kind::forward_inference, desc4(in), 1e-5f, flags);
                dn::batch_normalization_forward::primitive_desc pd(d, engine);
                s.primitive = dn::batch_normalization_forward(pd);
                const dn::memory::desc cdesc(Dims{in.c}, Dt::f32, Tag::x);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = dst;
                s.args[DNNL_ARG_MEAN] = alloc(pd.mean_desc());
                dn::memory var = alloc(pd.variance_desc());
                std::fill_n(static_cast<float *>(var.get_data_handle()), in.c, 1.0f);
                s.args[DNNL_ARG_VARIANCE] = var;
                s.args[DNNL_ARG_SCALE] = alloc(cdesc);
                s.args[DNNL_ARG_SHIFT] = alloc(cdesc);
                break;
            }
            case LayerType::Activation: {
                auto a = activationPostOp(l);
                if (!a)
                    return std::nullopt;
                dn::eltwise_forward::desc d(dn::prop_kind::forward_inference, a->alg, desc4(in), a->alpha, a->beta);
                dn::eltwise_forward::primitive_desc pd(d, attr, engine);
                s.primitive = dn::eltwise_forward(pd);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = dst;
                break;
            }
            case LayerType::EltwiseAdd:
            case LayerType::EltwiseMul:
            case LayerType::EltwiseSub:
            case LayerType::EltwiseDiv: {
                if (const auto sw = swishMul.find(primary); sw != swishMul.end()) {
                    const Shape &x = net->inputShape(sw->second);
                    dn::eltwise_forward::desc d(dn::prop_kind::forward_inference, dn::algorithm::eltwise_swish, desc4(x), 1.0f, 0.0f);
                    dn::eltwise_forward::primitive_desc pd(d, attr, engine);
                    s.primitive = dn::eltwise_forward(pd);
                    s.args[DNNL_ARG_SRC] = tensor(sw->second);
                    s.args[DNNL_ARG_DST] = dst;
                    break;
                }
                if (l.inputs.size() > 2)
                    return std::nullopt;
                dn::memory a = tensor(l.inputs[0]);
                dn::memory b = l.inputs.size() == 2 ? tensor(l.inputs[1])
                                                    : alloc(dn::memory::desc(Dims{1, 1, 1, 1}, Dt::f32, Tag::nhwc));
                // oneDNN broadcasts the second operand only: the full tensor goes first.
                if (a.get_desc().get_size() < b.get_desc().get_size())
                    std::swap(a, b);
                dn::binary::desc d(binaryAlg(l.type), a.get_desc(), b.get_desc(), desc4(out));
                dn::binary::primitive_desc pd(d, attr, engine);
                s.primitive = dn::binary(pd);
                s.args[DNNL_ARG_SRC_0] = a;
                s.args[DNNL_ARG_SRC_1] = b;
                s.args[DNNL_ARG_DST] = dst;
                break;
            }
            case LayerType::MatMul: {
                // network.h's matmul: `heads` independent products side by side in C. Per
                // position p of input 0 (H·W positions, NHWC rows) and head h, input 0's
                // channels [h·k, (h+1)·k) times input 1, whose rows are its positions:
                //   transpose_b false: out[p, h·Pb + j] = Σ_i A[p, h·k + i] · B[j, h·k + i]   (Q·Kᵀ)
                //   transpose_b true:  out[p, h·n + j]  = Σ_q A[p, h·Pb + q] · B[q, h·n + j]  (P·V)
                // One batched oneDNN matmul over (batch, head), each operand read in place
                // through strides: no copy, as an engine that plans its layouts runs it.
                if (l.inputs.size() != 2 || l.heads < 1)
                    return std::nullopt;
                if (l.imported()) {
                    // An imported matmul (ONNX: [..., M, K] x [..., K, N]) keeps its file's
                    // dims, which our C, H, W do not lay out as ONNX does: it runs as the
                    // batched product of its sizes — batch and M, N from its output dims,
                    // K from its MAC count — over its operands' buffers (the values are
                    // random; the work and the bytes are the file's).
                    if (l.dims.size() < 2 || !l.counts || l.counts->macs <= 0)
                        return std::nullopt;
                    const std::int64_t M = l.dims[l.dims.size() - 2], N = l.dims.back();
                    std::int64_t batch = 1;
                    for (std::size_t i = 0; i + 2 < l.dims.size(); ++i)
                        batch *= l.dims[i];
                    if (M <= 0 || N <= 0 || batch <= 0 || l.counts->macs % (batch * M * N) != 0)
                        return std::nullopt;
                    const std::int64_t K = l.counts->macs / (batch * M * N);
                    const auto elements = [&](int producer) {
                        return std::int64_t(tensor(producer).get_desc().get_size() / sizeof(float));
                    };
                    auto batchOf = [&](int producer, std::int64_t rows, std::int64_t cols) -> std::int64_t {
                        const std::int64_t e = elements(producer);
                        return e == batch * rows * cols ? batch : e == rows * cols ? 1 : 0;
                    };
                    const std::int64_t ba = batchOf(l.inputs[0], M, K), bb = batchOf(l.inputs[1], K, N);
                    if (ba == 0 || bb == 0 || elements(dstLayer) != batch * M * N)
                        return std::nullopt;
                    const dn::memory::desc a(Dims{ba, M, K}, Dt::f32, Tag::abc);
                    const dn::memory::desc w(Dims{bb, K, N}, Dt::f32, Tag::abc);
                    const dn::memory::desc d3(Dims{batch, M, N}, Dt::f32, Tag::abc);
                    dn::matmul::desc d(a, w, d3);
                    dn::matmul::primitive_desc pd(d, attr, engine);
                    s.primitive = dn::matmul(pd);
                    s.args[DNNL_ARG_SRC] = reinterpret(tensor(l.inputs[0]), a);
                    s.args[DNNL_ARG_WEIGHTS] = reinterpret(tensor(l.inputs[1]), w);
                    s.args[DNNL_ARG_DST] = reinterpret(dst, d3);
                    break;
                }
                const Shape &b = net->inputShape(l.inputs[1]);
                const std::int64_t n = std::max<std::int64_t>(in.n, 1), heads = l.heads;
                const std::int64_t P = in.h * in.w, Pb = b.h * b.w, Ca = in.c, Cb = b.c, Co = out.c;
                if (Ca % heads != 0 || Cb % heads != 0 || Co % heads != 0)
                    return std::nullopt;
                const std::int64_t K = Ca / heads, N = Co / heads;
                if (l.transposeB ? (K != Pb || N != Cb / heads) : (K != Cb / heads || N != Pb))
                    return std::nullopt;
                const dn::memory::desc a(Dims{n, heads, P, K}, Dt::f32, Dims{P * Ca, K, Ca, 1});
                const dn::memory::desc w = l.transposeB ? dn::memory::desc(Dims{n, heads, K, N}, Dt::f32, Dims{Pb * Cb, N, Cb, 1})
                                                        : dn::memory::desc(Dims{n, heads, K, N}, Dt::f32, Dims{Pb * Cb, K, 1, Cb});
                const dn::memory::desc d4(Dims{n, heads, P, N}, Dt::f32, Dims{P * Co, N, Co, 1});
                dn::matmul::desc d(a, w, d4);
                dn::matmul::primitive_desc pd(d, attr, engine);
                s.primitive = dn::matmul(pd);
                s.args[DNNL_ARG_SRC] = reinterpret(tensor(l.inputs[0]), a);
                s.args[DNNL_ARG_WEIGHTS] = reinterpret(tensor(l.inputs[1]), w);
                s.args[DNNL_ARG_DST] = reinterpret(dst, d4);
                break;
            }
            case LayerType::LayerNorm: {
                if (!posts.empty())
                    return std::nullopt;
                // Over the channels of every position (the hidden size of a token), which NHWC
                // keeps contiguous: rows of C.
                const std::int64_t rows = std::max<std::int64_t>(in.n, 1) * std::max<std::int64_t>(in.h, 1)
                    * std::max<std::int64_t>(in.w, 1);
                const dn::memory::desc rowsDesc(Dims{rows, std::max<std::int64_t>(in.c, 1)}, Dt::f32, Tag::nc);
                const auto flags = dn::normalization_flags::use_scale | dn::normalization_flags::use_shift;
                dn::layer_normalization_forward::desc d(dn::prop_kind::forward_inference, rowsDesc, 1e-5f, flags);
                dn::layer_normalization_forward::primitive_desc pd(d, engine);
                s.primitive = dn::layer_normalization_forward(pd);
                s.args[DNNL_ARG_SRC] = reinterpret(tensor(l.inputs[0]), rowsDesc);
                s.args[DNNL_ARG_DST] = reinterpret(dst, rowsDesc);
                const dn::memory::desc cdesc(Dims{std::max<std::int64_t>(in.c, 1)}, Dt::f32, Tag::x);
                s.args[DNNL_ARG_SCALE] = alloc(cdesc);
                s.args[DNNL_ARG_SHIFT] = alloc(cdesc);
                if (pd.mean_desc().get_size() > 0)
                    s.args[DNNL_ARG_MEAN] = alloc(pd.mean_desc());
                if (pd.variance_desc().get_size() > 0)
                    s.args[DNNL_ARG_VARIANCE] = alloc(pd.variance_desc());
                break;
            }
            case LayerType::Concat: {
                if (!posts.empty() || l.inputs.size() < 1)
                    return std::nullopt;
                std::vector<dn::memory> parts;
                for (int p : l.inputs)
                    parts.push_back(tensor(p));
                const int axis = l.axis == 1 ? 2 : l.axis == 2 ? 3 : 1;
                // A constant part of the file (ViT's class token) is no input: a buffer of its own.
                std::int64_t along = 0;
                for (const dn::memory &m : parts)
                    along += m.get_desc().dims()[std::size_t(axis)];
                const Dims outDims = desc4(out).dims();
                if (along < outDims[std::size_t(axis)]) {
                    Dims rest = outDims;
                    rest[std::size_t(axis)] -= along;
                    parts.push_back(alloc(dn::memory::desc(rest, Dt::f32, Tag::nhwc)));
                }
                std::vector<dn::memory::desc> srcs;
                for (const dn::memory &m : parts)
                    srcs.push_back(m.get_desc());
                dn::concat::primitive_desc pd(desc4(out), axis, srcs, engine);
                s.primitive = dn::concat(pd);
                for (std::size_t k = 0; k < parts.size(); ++k)
                    s.args[DNNL_ARG_MULTIPLE_SRC + int(k)] = parts[k];
                s.args[DNNL_ARG_DST] = dst;
                break;
            }
            case LayerType::Softmax: {
                if (!posts.empty())
                    return std::nullopt;
                dn::softmax_forward::desc d(dn::prop_kind::forward_inference, desc4(in), 1);
                dn::softmax_forward::primitive_desc pd(d, engine);
                s.primitive = dn::softmax_forward(pd);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = dst;
                break;
            }
            case LayerType::Lrn: {
                if (!posts.empty())
                    return std::nullopt;
                dn::lrn_forward::desc d(dn::prop_kind::forward_inference, dn::algorithm::lrn_across_channels,
                                        desc4(in), std::max(l.lrnSize, 1), 1e-4f, 0.75f, 1.0f);
                dn::lrn_forward::primitive_desc pd(d, engine);
                s.primitive = dn::lrn_forward(pd);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = dst;
                if (pd.workspace_desc().get_size() > 0)
                    s.args[DNNL_ARG_WORKSPACE] = alloc(pd.workspace_desc());
                break;
            }
            case LayerType::Resize: {
                if (!posts.empty())
                    return std::nullopt;
                dn::resampling_forward::desc d(dn::prop_kind::forward_inference, dn::algorithm::resampling_nearest,
                                               desc4(in), desc4(out));
                dn::resampling_forward::primitive_desc pd(d, engine);
                s.primitive = dn::resampling_forward(pd);
                s.args[DNNL_ARG_SRC] = tensor(l.inputs[0]);
                s.args[DNNL_ARG_DST] = dst;
                break;
            }
            case LayerType::Transpose:
            case LayerType::Slice:
            case LayerType::Pad: {
                if (!posts.empty())
                    return std::nullopt;
                // Data movement: a reorder writing the output tensor (NHWC -> NCHW of the
                // output's size) moves every output element once, as these operators do.
                const dn::memory::desc outN(Dims{std::max<std::int64_t>(out.n, 1), std::max<std::int64_t>(out.c, 1),
                                                 std::max<std::int64_t>(out.h, 1), std::max<std::int64_t>(out.w, 1)},
                                            Dt::f32, Tag::nchw);
                dn::memory src = l.type == LayerType::Transpose && in.elements() == out.elements()
                    ? reinterpret(tensor(l.inputs[0]), desc4(out))
                    : alloc(desc4(out));
                dn::reorder::primitive_desc pd(engine, src.get_desc(), engine, outN);
                s.primitive = dn::reorder(pd);
                s.args[DNNL_ARG_FROM] = src;
                s.args[DNNL_ARG_TO] = reinterpret(dst, outN);
                break;
            }
            default: return std::nullopt;
            }
        } catch (const dn::error &) {
            return std::nullopt;
        }
        // An inference engine fuses only where a fast kernel exists: a fused form that
        // oneDNN can only run with its reference implementation is refused.
        if (!posts.empty()) {
            const std::string impl = s.primitive.get_primitive_desc() ? implName(s.primitive) : std::string();
            if (impl.rfind("ref", 0) == 0)
                return std::nullopt;
        }
        addPostOpArgs(s, posts);
        return s;
    }

    // The steps of one kernel (see the header: fused as far as oneDNN fuses).
    void buildKernel(const Kernel &k, std::vector<Step> &steps, KernelPlanInfo &info)
    {
        int primary = -1, tail = -1;
        std::vector<PostOp> posts;
        auto close = [&] {
            if (primary < 0)
                return;
            std::optional<Step> s = build(primary, posts, tail);
            if (!s && !posts.empty()) {
                // Should not happen (each post-op was tried), but never lose the work.
                s = build(primary, {}, primary);
                for (const PostOp &p : posts)
                    info.skippedLayers.push_back(p.layer);
            }
            if (s) {
                steps.push_back(std::move(*s));
                ++info.primitives;
                info.postOps += int(posts.size());
            } else {
                info.skippedLayers.push_back(primary);
                for (const PostOp &p : posts)
                    info.skippedLayers.push_back(p.layer);
            }
            primary = tail = -1;
            posts.clear();
        };
        for (int m : k.layers) {
            const Layer &l = net->layers[std::size_t(m)];
            if (l.type == LayerType::Flatten || l.type == LayerType::Reshape)
                continue; // a view: its buffer aliases its producer's
            if (l.type == LayerType::Activation && l.function == "sigmoid" && l.inputs.size() == 1
                && consumers[std::size_t(m)].size() == 1) {
                // x · sigmoid(x) with both in this kernel: one swish (the multiply builds it).
                const int mul = consumers[std::size_t(m)][0];
                const Layer &ml = net->layers[std::size_t(mul)];
                const int x = l.inputs[0];
                if (ml.type == LayerType::EltwiseMul && ml.inputs.size() == 2
                    && ((ml.inputs[0] == m && ml.inputs[1] == x) || (ml.inputs[1] == m && ml.inputs[0] == x))
                    && std::find(k.layers.begin(), k.layers.end(), mul) != k.layers.end()) {
                    swishMul[mul] = x;
                    continue;
                }
            }
            if (primary >= 0) {
                if (auto p = postOpFor(primary, tail, m, !posts.empty())) {
                    std::vector<PostOp> tried = posts;
                    tried.push_back(*p);
                    if (p->kind == PostOp::Kind::FoldBn || build(primary, tried, m)) {
                        posts = std::move(tried);
                        tail = m;
                        continue;
                    }
                }
                close();
            }
            primary = tail = m;
        }
        close();
        std::sort(info.skippedLayers.begin(), info.skippedLayers.end());
    }

    void run(std::size_t k)
    {
        for (Step &s : kernels[k])
            s.primitive.execute(stream, s.args);
    }
};

NetworkRunner::NetworkRunner(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
NetworkRunner::~NetworkRunner() = default;

std::unique_ptr<NetworkRunner> NetworkRunner::create(const Network &net, const Detection &detection, std::string &error,
                                                     const std::atomic<bool> *cancel)
{
    std::unique_ptr<Impl> impl;
    try {
        impl = std::make_unique<Impl>();
        flushDenormals();
        impl->net = &net;
        impl->consumers = network::consumers(net);
        for (const auto &in : net.inputs)
            impl->inputMem.push_back(impl->alloc(desc4(in.shape)));
        impl->layerMem.reserve(net.layers.size());
        for (const Layer &l : net.layers) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                error = "cancelled";
                return nullptr;
            }
            const bool view = (l.type == LayerType::Flatten || l.type == LayerType::Reshape) && !l.inputs.empty();
            if (view && net.inputShape(l.inputs[0]).elements() == l.output.elements())
                impl->layerMem.push_back(impl->reinterpret(impl->tensor(l.inputs[0]), desc4(l.output)));
            else
                impl->layerMem.push_back(impl->alloc(desc4(l.output)));
        }
        impl->kernels.resize(detection.kernels.size());
        impl->plans.resize(detection.kernels.size());
        for (std::size_t k = 0; k < detection.kernels.size(); ++k) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                error = "cancelled";
                return nullptr;
            }
            impl->buildKernel(detection.kernels[k], impl->kernels[k], impl->plans[k]);
        }
    } catch (const dn::error &e) {
        error = std::string("oneDNN: ") + e.what();
        return nullptr;
    } catch (const std::bad_alloc &) {
        error = "out of memory while laying out the network's tensors";
        return nullptr;
    }
    return std::unique_ptr<NetworkRunner>(new NetworkRunner(std::move(impl)));
}

std::size_t NetworkRunner::kernelCount() const
{
    return m_impl->kernels.size();
}

const KernelPlanInfo &NetworkRunner::plan(std::size_t kernel) const
{
    return m_impl->plans.at(kernel);
}

std::vector<int> NetworkRunner::skipped() const
{
    std::vector<int> out;
    for (const KernelPlanInfo &p : m_impl->plans)
        out.insert(out.end(), p.skippedLayers.begin(), p.skippedLayers.end());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<float> NetworkRunner::values(int producer) const
{
    dn::memory &m = m_impl->tensor(producer);
    const auto *p = static_cast<const float *>(m.get_data_handle());
    return std::vector<float>(p, p + m.get_desc().get_size() / sizeof(float));
}

void NetworkRunner::runKernel(std::size_t kernel)
{
    m_impl->run(kernel);
    m_impl->stream.wait();
}

void NetworkRunner::runAll()
{
    for (std::size_t k = 0; k < m_impl->kernels.size(); ++k)
        m_impl->run(k);
    m_impl->stream.wait();
}

TimingStats NetworkRunner::timeKernel(std::size_t kernel, const RunOptions &options)
{
    return timeRepeated([&] { runKernel(kernel); }, options);
}

TimingStats NetworkRunner::timeAll(const RunOptions &options)
{
    return timeRepeated([&] { runAll(); }, options);
}

NetworkRunner::SequenceTiming NetworkRunner::timeSequence(const RunOptions &options, const std::atomic<bool> *cancel)
{
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    const std::size_t n = m_impl->kernels.size();
    for (int i = 0; i < options.warmup && !cancelled(); ++i)
        for (std::size_t k = 0; k < n && !cancelled(); ++k)
            runKernel(k);
    std::vector<std::vector<double>> perKernel(n);
    std::vector<double> whole;
    std::vector<double> run(n);
    for (int r = 0; r < std::max(options.repetitions, 1) && !cancelled(); ++r) {
        const auto start = Clock::now();
        std::size_t k = 0;
        for (; k < n && !cancelled(); ++k) {
            const auto t0 = Clock::now();
            runKernel(k);
            run[k] = ms(Clock::now() - t0);
        }
        if (k < n)
            break; // cut short by cancel: not a whole run
        whole.push_back(ms(Clock::now() - start));
        for (k = 0; k < n; ++k)
            perKernel[k].push_back(run[k]);
    }
    SequenceTiming out;
    for (const auto &samples : perKernel) {
        out.kernels.push_back(summarize(samples));
        out.kernelSumMs += out.kernels.back().medianMs;
    }
    out.whole = summarize(whole);
    return out;
}

TimingStats timeRepeated(const std::function<void()> &run, const RunOptions &options, const std::atomic<bool> *cancel)
{
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
    auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    for (int i = 0; i < options.warmup && !cancelled(); ++i)
        run();
    if (options.flushBytes > 0) {
        static thread_local std::vector<char> junk;
        junk.resize(options.flushBytes);
        std::vector<double> samples;
        for (int r = 0; r < std::max(options.repetitions, 1) && !cancelled(); ++r) {
            for (std::size_t i = 0; i < junk.size(); i += 64)
                junk[i] = char(junk[i] + 1);
            const auto start = Clock::now();
            run();
            samples.push_back(ms(Clock::now() - start));
        }
        if (samples.empty()) {
            const auto start = Clock::now();
            run();
            samples.push_back(ms(Clock::now() - start));
        }
        return summarize(samples);
    }
    // Calibrate: how many runs make a sample last minSampleMs.
    const auto t0 = Clock::now();
    run();
    const double once = ms(Clock::now() - t0);
    const int inner = once > 0 ? std::clamp(int(std::ceil(options.minSampleMs / once)), 1, std::max(options.maxInner, 1))
                               : std::max(options.maxInner, 1);
    std::vector<double> samples;
    samples.reserve(std::size_t(std::max(options.repetitions, 1)));
    for (int r = 0; r < std::max(options.repetitions, 1) && !cancelled(); ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < inner; ++i)
            run();
        samples.push_back(ms(Clock::now() - start) / inner);
    }
    if (samples.empty())
        samples.push_back(once);
    return summarize(samples);
}

std::string onednnVersion()
{
    const dnnl_version_t *v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
}

void setThreads(int n)
{
    omp_set_num_threads(std::max(n, 1));
    flushDenormals();
}

int threads()
{
    return omp_get_max_threads();
}

} // namespace roofline::nnmeter::lab
