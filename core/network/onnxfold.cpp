#include "onnxfold.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <set>

namespace roofline::network::onnxfold {

namespace {

using Dims = std::vector<std::int64_t>;
constexpr std::int64_t kMaxElements = 64; // shapes and pads, never weights

struct IntTensor
{
    Dims dims;
    std::vector<std::int64_t> v;
    int type = onnx::TensorProto::INT64;
};

// The product of a file's dimensions, saturated: they may multiply past 2⁶³
// (fuzz_onnx). Callers compare it with kMaxElements or a tensor's size.
std::int64_t count(const Dims &d)
{
    std::int64_t p = 1;
    for (std::int64_t x : d) {
        if (__builtin_mul_overflow(p, x, &p))
            return std::numeric_limits<std::int64_t>::max();
    }
    return p;
}

bool isIntType(int t)
{
    return t == onnx::TensorProto::INT64 || t == onnx::TensorProto::INT32 || t == onnx::TensorProto::BOOL
        || t == onnx::TensorProto::INT8 || t == onnx::TensorProto::UINT8 || t == onnx::TensorProto::INT16;
}

std::optional<IntTensor> fromTensor(const onnx::TensorProto &t)
{
    if (!isIntType(t.data_type()) || t.data_location() == onnx::TensorProto::EXTERNAL)
        return std::nullopt;
    IntTensor out;
    out.type = t.data_type();
    out.dims.assign(t.dims().begin(), t.dims().end());
    for (std::int64_t d : out.dims)
        if (d < 0 || d > kMaxElements)
            return std::nullopt;
    const std::int64_t n = count(out.dims);
    if (n > kMaxElements)
        return std::nullopt;
    if (t.has_raw_data()) {
        const std::string &raw = t.raw_data();
        const std::size_t size = t.data_type() == onnx::TensorProto::INT64 ? 8
            : t.data_type() == onnx::TensorProto::INT32                    ? 4
            : t.data_type() == onnx::TensorProto::INT16                    ? 2
                                                                           : 1;
        if (raw.size() != std::size_t(n) * size)
            return std::nullopt;
        for (std::int64_t i = 0; i < n; ++i) {
            std::int64_t value = 0;
            if (size == 8) {
                std::memcpy(&value, raw.data() + i * 8, 8);
            } else if (size == 4) {
                std::int32_t x;
                std::memcpy(&x, raw.data() + i * 4, 4);
                value = x;
            } else if (size == 2) {
                std::int16_t x;
                std::memcpy(&x, raw.data() + i * 2, 2);
                value = x;
            } else {
                value = t.data_type() == onnx::TensorProto::INT8 ? std::int64_t(std::int8_t(raw[std::size_t(i)]))
                                                                  : std::int64_t(std::uint8_t(raw[std::size_t(i)]));
            }
            out.v.push_back(value);
        }
    } else if (t.data_type() == onnx::TensorProto::INT64) {
        out.v.assign(t.int64_data().begin(), t.int64_data().end());
    } else {
        out.v.assign(t.int32_data().begin(), t.int32_data().end());
    }
    if (std::int64_t(out.v.size()) != n)
        return std::nullopt;
    return out;
}

const onnx::AttributeProto *attr(const onnx::NodeProto &n, const char *name)
{
    for (const auto &a : n.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

Dims strides(const Dims &d)
{
    Dims s(d.size(), 1);
    for (std::size_t i = d.size(); i-- > 1;)
        s[i - 1] = s[i] * d[i];
    return s;
}

// Numpy broadcasting of two shapes; nullopt when they do not broadcast.
std::optional<Dims> broadcast(const Dims &a, const Dims &b)
{
    Dims out(std::max(a.size(), b.size()), 1);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
        const std::int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
        if (x != y && x != 1 && y != 1)
            return std::nullopt;
        out[i] = std::max(x, y);
    }
    return out;
}

std::int64_t at(const IntTensor &t, const Dims &outDims, std::int64_t flat)
{
    // Element of t broadcast to outDims at flat index.
    const Dims os = strides(outDims);
    const Dims ts = strides(t.dims);
    std::int64_t index = 0;
    const std::size_t offset = outDims.size() - t.dims.size();
    for (std::size_t i = 0; i < outDims.size(); ++i) {
        const std::int64_t coord = (flat / os[i]) % outDims[i];
        if (i >= offset && t.dims[i - offset] != 1)
            index += coord * ts[i - offset];
    }
    return t.v[std::size_t(index)];
}

std::optional<IntTensor> evaluate(const onnx::NodeProto &n, const std::vector<const IntTensor *> &in,
                                  const std::unordered_map<std::string, Dims> &shapes)
{
    const std::string &op = n.op_type();
    auto need = [&](std::size_t k) { return in.size() >= k && std::all_of(in.begin(), in.begin() + long(k), [](auto *p) { return p; }); };
    if (op == "Constant") {
        if (const auto *a = attr(n, "value"); a && a->has_t())
            return fromTensor(a->t());
        if (const auto *a = attr(n, "value_int"))
            return IntTensor{{}, {a->i()}, onnx::TensorProto::INT64};
        if (const auto *a = attr(n, "value_ints"); a && a->ints_size() <= kMaxElements)
            return IntTensor{{a->ints_size()}, {a->ints().begin(), a->ints().end()}, onnx::TensorProto::INT64};
        return std::nullopt;
    }
    if (op == "Shape") {
        if (n.input_size() < 1)
            return std::nullopt;
        auto s = shapes.find(n.input(0));
        if (s == shapes.end())
            return std::nullopt;
        Dims d = s->second;
        const std::int64_t r = std::int64_t(d.size());
        std::int64_t start = 0, end = r;
        if (const auto *a = attr(n, "start"))
            start = a->i() < 0 ? std::max<std::int64_t>(0, a->i() + r) : std::min(a->i(), r);
        if (const auto *a = attr(n, "end"))
            end = a->i() < 0 ? std::max<std::int64_t>(0, a->i() + r) : std::min(a->i(), r);
        if (end < start)
            end = start;
        IntTensor t{{end - start}, Dims(d.begin() + start, d.begin() + end), onnx::TensorProto::INT64};
        return t;
    }
    if (op == "ConstantOfShape") {
        if (!need(1) || in[0]->dims.size() != 1)
            return std::nullopt;
        Dims d = in[0]->v;
        for (std::int64_t x : d)
            if (x < 0 || x > kMaxElements)
                return std::nullopt;
        if (count(d) > kMaxElements)
            return std::nullopt;
        std::int64_t value = 0;
        if (const auto *a = attr(n, "value"); a && a->has_t()) {
            auto t = fromTensor(a->t());
            if (!t || t->v.size() != 1)
                return std::nullopt;
            value = t->v[0];
        } else {
            return std::nullopt; // the default is a float zero
        }
        return IntTensor{d, std::vector<std::int64_t>(std::size_t(count(d)), value), int(attr(n, "value")->t().data_type())};
    }
    if (op == "Cast") {
        const auto *a = attr(n, "to");
        if (!need(1) || !a || !isIntType(int(a->i())))
            return std::nullopt;
        IntTensor t = *in[0];
        t.type = int(a->i());
        return t;
    }
    if (op == "Identity") {
        if (!need(1))
            return std::nullopt;
        return *in[0];
    }
    if (op == "Unsqueeze" || op == "Squeeze") {
        if (!need(1))
            return std::nullopt;
        Dims axes;
        if (const auto *a = attr(n, "axes"))
            axes.assign(a->ints().begin(), a->ints().end());
        else if (in.size() >= 2 && in[1])
            axes = in[1]->v;
        else if (n.input_size() >= 2 && !n.input(1).empty())
            return std::nullopt;
        IntTensor t = *in[0];
        if (op == "Squeeze") {
            const std::int64_t r = std::int64_t(t.dims.size());
            Dims d;
            for (std::int64_t i = 0; i < r; ++i) {
                const bool listed = axes.empty() ? t.dims[std::size_t(i)] == 1
                                                 : std::any_of(axes.begin(), axes.end(), [&](std::int64_t x) {
                                                       return (x < 0 ? x + r : x) == i;
                                                   });
                if (!listed)
                    d.push_back(t.dims[std::size_t(i)]);
            }
            t.dims = d;
        } else {
            const std::int64_t r = std::int64_t(t.dims.size() + axes.size());
            Dims sorted;
            for (std::int64_t x : axes)
                sorted.push_back(x < 0 ? x + r : x);
            std::sort(sorted.begin(), sorted.end());
            for (std::int64_t x : sorted) {
                if (x < 0 || x > std::int64_t(t.dims.size()))
                    return std::nullopt;
                t.dims.insert(t.dims.begin() + x, 1);
            }
        }
        return t;
    }
    if (op == "Gather") {
        if (!need(2) || in[0]->dims.size() != 1)
            return std::nullopt;
        const auto *a = attr(n, "axis");
        if (a && a->i() != 0)
            return std::nullopt;
        IntTensor t{in[1]->dims, {}, in[0]->type};
        const std::int64_t size = in[0]->dims[0];
        for (std::int64_t i : in[1]->v) {
            const std::int64_t k = i < 0 ? i + size : i;
            if (k < 0 || k >= size)
                return std::nullopt;
            t.v.push_back(in[0]->v[std::size_t(k)]);
        }
        return t;
    }
    if (op == "Concat") {
        if (in.empty() || !need(in.size()))
            return std::nullopt;
        IntTensor t{{0}, {}, in[0]->type};
        for (const IntTensor *p : in) {
            if (p->dims.size() > 1)
                return std::nullopt;
            t.v.insert(t.v.end(), p->v.begin(), p->v.end());
        }
        t.dims[0] = std::int64_t(t.v.size());
        if (t.dims[0] > kMaxElements)
            return std::nullopt;
        return t;
    }
    if (op == "Reshape") {
        if (!need(2) || in[1]->dims.size() != 1)
            return std::nullopt;
        Dims d = in[1]->v;
        std::int64_t known = 1;
        int unknown = -1;
        for (std::size_t i = 0; i < d.size(); ++i) {
            if (d[i] == 0 && i < in[0]->dims.size())
                d[i] = in[0]->dims[i];
            if (d[i] == -1) {
                if (unknown >= 0)
                    return std::nullopt;
                unknown = int(i);
            } else if (d[i] < 0) {
                return std::nullopt;
            } else if (__builtin_mul_overflow(known, d[i], &known)) {
                return std::nullopt; // more elements than any tensor folded here (fuzz_onnx)
            }
        }
        const std::int64_t total = std::int64_t(in[0]->v.size());
        if (unknown >= 0) {
            if (known == 0 || total % known)
                return std::nullopt;
            d[std::size_t(unknown)] = total / known;
        }
        if (count(d) != total)
            return std::nullopt;
        return IntTensor{d, in[0]->v, in[0]->type};
    }
    if (op == "Transpose") {
        if (!need(1))
            return std::nullopt;
        const IntTensor &x = *in[0];
        const std::size_t r = x.dims.size();
        Dims perm;
        if (const auto *a = attr(n, "perm"))
            perm.assign(a->ints().begin(), a->ints().end());
        else
            for (std::size_t i = r; i-- > 0;)
                perm.push_back(std::int64_t(i));
        if (perm.size() != r)
            return std::nullopt;
        Dims d(r);
        for (std::size_t i = 0; i < r; ++i) {
            if (perm[i] < 0 || perm[i] >= std::int64_t(r))
                return std::nullopt;
            d[i] = x.dims[std::size_t(perm[i])];
        }
        const Dims xs = strides(x.dims), os = strides(d);
        IntTensor t{d, std::vector<std::int64_t>(x.v.size()), x.type};
        for (std::int64_t flat = 0; flat < std::int64_t(x.v.size()); ++flat) {
            std::int64_t src = 0;
            for (std::size_t i = 0; i < r; ++i)
                src += ((flat / os[i]) % d[i]) * xs[std::size_t(perm[i])];
            t.v[std::size_t(flat)] = x.v[std::size_t(src)];
        }
        return t;
    }
    if (op == "Slice") {
        if (!need(3))
            return std::nullopt;
        const IntTensor &x = *in[0];
        const std::size_t r = x.dims.size();
        const Dims &starts = in[1]->v, &ends = in[2]->v;
        Dims axes, steps;
        if (in.size() > 3 && in[3])
            axes = in[3]->v;
        else if (n.input_size() > 3 && !n.input(3).empty())
            return std::nullopt;
        if (in.size() > 4 && in[4])
            steps = in[4]->v;
        else if (n.input_size() > 4 && !n.input(4).empty())
            return std::nullopt;
        if (axes.empty())
            for (std::size_t i = 0; i < starts.size(); ++i)
                axes.push_back(std::int64_t(i));
        if (steps.empty())
            steps.assign(starts.size(), 1);
        if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
            return std::nullopt;
        Dims lo(r, 0), step(r, 1), size = x.dims;
        for (std::size_t k = 0; k < axes.size(); ++k) {
            const std::int64_t axis = axes[k] < 0 ? axes[k] + std::int64_t(r) : axes[k];
            if (axis < 0 || axis >= std::int64_t(r) || steps[k] == 0)
                return std::nullopt;
            const std::int64_t dim = x.dims[std::size_t(axis)];
            auto clampIndex = [&](std::int64_t v, bool forward) {
                if (v < 0)
                    v += dim;
                return forward ? std::clamp<std::int64_t>(v, 0, dim) : std::clamp<std::int64_t>(v, -1, dim - 1);
            };
            const bool forward = steps[k] > 0;
            const std::int64_t s = clampIndex(starts[k], forward), e = clampIndex(ends[k], forward);
            // The elements from s towards e (exclusive) every |step|: s and e lie within
            // [-1, dim], but a step may be anything a file says, ±2⁶³ included.
            const std::uint64_t magnitude = forward ? std::uint64_t(steps[k]) : std::uint64_t(0) - std::uint64_t(steps[k]);
            const std::int64_t span = forward ? e - s : s - e;
            const std::int64_t len = span <= 0 ? 0 : std::int64_t((std::uint64_t(span) - 1) / magnitude + 1);
            lo[std::size_t(axis)] = s;
            step[std::size_t(axis)] = steps[k];
            size[std::size_t(axis)] = len;
        }
        const Dims xs = strides(x.dims), os = strides(size);
        IntTensor t{size, {}, x.type};
        for (std::int64_t flat = 0; flat < count(size); ++flat) {
            std::int64_t src = 0;
            for (std::size_t i = 0; i < r; ++i)
                src += (lo[i] + ((flat / os[i]) % size[i]) * step[i]) * xs[i];
            t.v.push_back(x.v[std::size_t(src)]);
        }
        return t;
    }
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Equal" || op == "Where") {
        const std::size_t arity = op == "Where" ? 3 : 2;
        if (!need(arity))
            return std::nullopt;
        std::optional<Dims> d = broadcast(in[0]->dims, in[1]->dims);
        if (d && arity == 3)
            d = broadcast(*d, in[2]->dims);
        if (!d || count(*d) > kMaxElements)
            return std::nullopt;
        IntTensor t{*d, {}, op == "Equal" ? int(onnx::TensorProto::BOOL) : in[arity == 3 ? 1 : 0]->type};
        for (std::int64_t i = 0; i < count(*d); ++i) {
            const std::int64_t a = at(*in[0], *d, i), b = at(*in[1], *d, i);
            // A result past int64 is not a shape: not folded (fuzz_onnx found the overflows).
            std::int64_t v = 0;
            if (op == "Add") {
                if (__builtin_add_overflow(a, b, &v))
                    return std::nullopt;
            } else if (op == "Sub") {
                if (__builtin_sub_overflow(a, b, &v))
                    return std::nullopt;
            } else if (op == "Mul") {
                if (__builtin_mul_overflow(a, b, &v))
                    return std::nullopt;
            } else if (op == "Div") {
                if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1))
                    return std::nullopt;
                v = a / b;
            } else if (op == "Equal")
                v = a == b;
            else
                v = a ? b : at(*in[2], *d, i);
            t.v.push_back(v);
        }
        return t;
    }
    return std::nullopt;
}

} // namespace

int fold(onnx::GraphProto &graph, const std::unordered_map<std::string, Dims> &shapes)
{
    std::unordered_map<std::string, IntTensor> known;
    for (const auto &t : graph.initializer())
        if (auto v = fromTensor(t))
            known[t.name()] = *v;
    std::vector<bool> folded(std::size_t(graph.node_size()), false);
    for (int i = 0; i < graph.node_size(); ++i) {
        const onnx::NodeProto &n = graph.node(i);
        if (n.output_size() != 1 || !n.domain().empty())
            continue;
        std::vector<const IntTensor *> in;
        bool missing = false;
        for (const std::string &name : n.input()) {
            if (name.empty()) {
                in.push_back(nullptr);
                continue;
            }
            auto it = known.find(name);
            in.push_back(it == known.end() ? nullptr : &it->second);
            missing = missing || (it == known.end() && n.op_type() != "Shape");
        }
        if (missing)
            continue;
        if (auto v = evaluate(n, in, shapes)) {
            if (count(v->dims) != std::int64_t(v->v.size()) || std::int64_t(v->v.size()) > kMaxElements)
                continue;
            known[n.output(0)] = std::move(*v);
            folded[std::size_t(i)] = true;
        }
    }
    // Folded values read by nodes that stay (or by nobody: harmless) become initializers.
    std::set<std::string> neededBy;
    for (int i = 0; i < graph.node_size(); ++i)
        if (!folded[std::size_t(i)])
            for (const std::string &name : graph.node(i).input())
                neededBy.insert(name);
    for (const auto &o : graph.output())
        neededBy.insert(o.name());
    std::set<std::string> initializerNames;
    for (const auto &t : graph.initializer())
        initializerNames.insert(t.name());
    int removed = 0;
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (int i = 0; i < graph.node_size(); ++i) {
        onnx::NodeProto *n = graph.mutable_node(i);
        if (!folded[std::size_t(i)]) {
            kept.Add()->Swap(n);
            continue;
        }
        ++removed;
        const std::string &name = n->output(0);
        if (neededBy.count(name) && !initializerNames.count(name)) {
            const IntTensor &v = known.at(name);
            onnx::TensorProto *t = graph.add_initializer();
            t->set_name(name);
            t->set_data_type(v.type);
            for (std::int64_t d : v.dims)
                t->add_dims(d);
            for (std::int64_t x : v.v) {
                if (v.type == onnx::TensorProto::INT64)
                    t->add_int64_data(x);
                else
                    t->add_int32_data(std::int32_t(x)); // int32, int16, int8, uint8 and bool live here
            }
        }
    }
    graph.mutable_node()->Swap(&kept);
    return removed;
}

} // namespace roofline::network::onnxfold
