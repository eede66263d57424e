#!/usr/bin/env python3
"""Writes the AMAIX example networks (roofline-studio/amaix-network, version 1).

Each network is written from its original paper or reference model; every
layer states its output shape, which the loader checks against its own shape
inference. Run from this directory:  python3 generate_networks.py
"""
import json
import math


class Net:
    def __init__(self, name, source, description, inputs, data_type=None):
        self.doc = {"format": "roofline-studio/amaix-network", "version": 1, "name": name,
                    "description": description, "source": source}
        if data_type:
            self.doc["data_type"] = data_type
        self.doc["inputs"] = [{"name": n, "shape": list(s)} for n, s in inputs]
        self.doc["layers"] = []
        self.shapes = {n: tuple(s) for n, s in inputs}
        self.last = inputs[0][0]

    def add(self, name, type_, inputs=None, **params):
        ins = inputs if inputs is not None else [self.last]
        shapes = [self.shapes[i] for i in ins]
        out = self._infer(type_, shapes, params)
        layer = {"name": name, "type": type_}
        if inputs is not None:
            if len(inputs) == 1:
                layer["input"] = inputs[0]
            else:
                layer["inputs"] = inputs
        layer.update(params)
        layer["output"] = list(out)
        self.doc["layers"].append(layer)
        self.shapes[name] = out
        self.last = name
        return name

    @staticmethod
    def _pair(v):
        return (v, v) if isinstance(v, int) else tuple(v)

    def _infer(self, t, shapes, p):
        c, h, w = shapes[0]
        if t == "convolution":
            kh, kw = self._pair(p["kernel"])
            sh, sw = self._pair(p.get("stride", 1))
            ph, pw = self._pair(p.get("pad", 0))
            return (p["out_channels"], (h + 2 * ph - kh) // sh + 1, (w + 2 * pw - kw) // sw + 1)
        if t == "fully_connected":
            return (p["out_channels"], 1, 1)
        if t == "pooling":
            if p.get("global"):
                return (c, 1, 1)
            kh, kw = self._pair(p["kernel"])
            sh, sw = self._pair(p.get("stride", 1))
            ph, pw = self._pair(p.get("pad", 0))
            ceil = p.get("rounding") == "ceil"

            def out(n, k, s, pad):
                span = n + 2 * pad - k
                o = (math.ceil(span / s) if ceil else span // s) + 1
                if ceil and pad > 0 and (o - 1) * s >= n + pad:
                    o -= 1
                return o
            return (c, out(h, kh, sh, ph), out(w, kw, sw, pw))
        if t == "eltwise_add":
            assert all(s == shapes[0] for s in shapes)
            return shapes[0]
        if t == "concat":
            return (sum(s[0] for s in shapes), h, w)
        if t == "flatten":
            return (c * h * w, 1, 1)
        if t == "matmul":
            heads = p.get("heads", 1)
            b = shapes[1]
            n = b[0] // heads if p.get("transpose_b") else b[1] * b[2]
            return (heads * n, h, w)
        return shapes[0]

    def conv(self, name, out, kernel, stride=1, pad=0, groups=1, bias=True, inputs=None):
        params = {"out_channels": out, "kernel": kernel}
        if stride != 1:
            params["stride"] = stride
        if pad:
            params["pad"] = pad
        if groups != 1:
            params["groups"] = groups
        if not bias:
            params["bias"] = False
        return self.add(name, "convolution", inputs, **params)

    def write(self, path):
        # One layer per line keeps the files readable and diffable.
        head = {k: v for k, v in self.doc.items() if k != "layers"}
        text = json.dumps(head, indent=2)[:-2]
        layers = ",\n    ".join(json.dumps(layer) for layer in self.doc["layers"])
        with open(path, "w") as f:
            f.write(text + ',\n  "layers": [\n    ' + layers + "\n  ]\n}\n")


def lenet():
    n = Net("LeNet", "BVLC Caffe examples/mnist/lenet.prototxt; shared/reference/networks.md",
            "LeNet as run by the NVDLA compiler in seed 000 (no ReLU after the convolutions; softmax on the host).",
            [("data", (1, 28, 28))], "fp16")
    n.conv("conv1", 20, 5)
    n.add("pool1", "pooling", mode="max", kernel=2, stride=2, rounding="ceil")
    n.conv("conv2", 50, 5)
    n.add("pool2", "pooling", mode="max", kernel=2, stride=2, rounding="ceil")
    n.add("ip1", "fully_connected", out_channels=500)
    n.add("relu1", "activation", function="relu")
    n.add("ip2", "fully_connected", out_channels=10)
    n.add("prob", "softmax")
    return n


def alexnet():
    n = Net("AlexNet", "BVLC Caffe models/bvlc_alexnet/deploy.prototxt; shared/reference/networks.md",
            "AlexNet (BVLC); dropout is a no-op at inference and is left out.", [("data", (3, 227, 227))], "fp16")
    n.conv("conv1", 96, 11, stride=4)
    n.add("relu1", "activation", function="relu")
    n.add("norm1", "lrn", size=5)
    n.add("pool1", "pooling", mode="max", kernel=3, stride=2, rounding="ceil")
    n.conv("conv2", 256, 5, pad=2, groups=2)
    n.add("relu2", "activation", function="relu")
    n.add("norm2", "lrn", size=5)
    n.add("pool2", "pooling", mode="max", kernel=3, stride=2, rounding="ceil")
    n.conv("conv3", 384, 3, pad=1)
    n.add("relu3", "activation", function="relu")
    n.conv("conv4", 384, 3, pad=1, groups=2)
    n.add("relu4", "activation", function="relu")
    n.conv("conv5", 256, 3, pad=1, groups=2)
    n.add("relu5", "activation", function="relu")
    n.add("pool5", "pooling", mode="max", kernel=3, stride=2, rounding="ceil")
    n.add("fc6", "fully_connected", out_channels=4096)
    n.add("relu6", "activation", function="relu")
    n.add("fc7", "fully_connected", out_channels=4096)
    n.add("relu7", "activation", function="relu")
    n.add("fc8", "fully_connected", out_channels=1000)
    n.add("prob", "softmax")
    return n


def vgg16():
    n = Net("VGG-16", "Simonyan & Zisserman, ICLR 2015, Table 1 configuration D",
            "VGG-16 (configuration D), 224x224 input; dropout left out.", [("data", (3, 224, 224))])
    blocks = [(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)]
    for b, (width, count) in enumerate(blocks, 1):
        for i in range(1, count + 1):
            n.conv(f"conv{b}_{i}", width, 3, pad=1)
            n.add(f"relu{b}_{i}", "activation", function="relu")
        n.add(f"pool{b}", "pooling", mode="max", kernel=2, stride=2)
    for i, width in ((6, 4096), (7, 4096)):
        n.add(f"fc{i}", "fully_connected", out_channels=width)
        n.add(f"relu{i}", "activation", function="relu")
    n.add("fc8", "fully_connected", out_channels=1000)
    n.add("prob", "softmax")
    return n


def conv_bn(n, name, out, kernel, stride=1, pad=0, relu=True, inputs=None, groups=1, act="relu"):
    n.conv(name, out, kernel, stride=stride, pad=pad, groups=groups, bias=False, inputs=inputs)
    n.add(name + "_bn", "batch_norm")
    if relu:
        n.add(name + "_relu", "activation", function=act)
    return n.last


def resnet(depth):
    basic = depth == 18
    counts = {18: [2, 2, 2, 2], 50: [3, 4, 6, 3]}[depth]
    source = ("He et al., CVPR 2016, Table 1" +
              (" (basic blocks, as in torchvision resnet18)" if basic else
               " and the original Caffe model KaimingHe/deep-residual-networks ResNet-50-deploy.prototxt "
               "(stride 2 on the first 1x1 of a stage)"))
    description = f"ResNet-{depth}, 224x224 input; batch norm after every convolution."
    if not basic:
        description += (" This is ResNet v1 (stride 2 on the first 1x1 of a stage, 3.86 GMACs), not torchvision's"
                        " resnet50, which is v1.5 (stride 2 on the 3x3, 4.09 GMACs): import"
                        " tests/data/onnx/resnet50.onnx to compare with torchvision's published figures.")
    n = Net(f"ResNet-{depth}", source, description, [("data", (3, 224, 224))])
    conv_bn(n, "conv1", 64, 7, stride=2, pad=3)
    if basic:
        n.add("pool1", "pooling", mode="max", kernel=3, stride=2, pad=1)
    else:
        n.add("pool1", "pooling", mode="max", kernel=3, stride=2, rounding="ceil")
    x = n.last
    channels = 64
    for stage, count in enumerate(counts):
        width = 64 * 2 ** stage
        out = width if basic else width * 4
        for block in range(count):
            stride = 2 if stage > 0 and block == 0 else 1
            prefix = f"res{stage + 2}{chr(ord('a') + block)}"
            if block == 0 and (stride != 1 or channels != out):
                shortcut = conv_bn(n, prefix + "_branch1", out, 1, stride=stride, relu=False, inputs=[x])
            else:
                shortcut = x
            if basic:
                conv_bn(n, prefix + "_branch2a", width, 3, stride=stride, pad=1, inputs=[x])
                main = conv_bn(n, prefix + "_branch2b", out, 3, pad=1, relu=False)
            else:
                conv_bn(n, prefix + "_branch2a", width, 1, stride=stride, inputs=[x])
                conv_bn(n, prefix + "_branch2b", width, 3, pad=1)
                main = conv_bn(n, prefix + "_branch2c", out, 1, relu=False)
            n.add(prefix, "eltwise_add", inputs=[main, shortcut])
            x = n.add(prefix + "_relu", "activation", function="relu")
            channels = out
    n.add("pool5", "pooling", mode="average", **{"global": True})
    n.add("fc1000", "fully_connected", out_channels=1000)
    n.add("prob", "softmax")
    return n


def mobilenet_v2():
    n = Net("MobileNetV2", "Sandler et al., CVPR 2018, Table 2 (width 1.0, 224x224); classifier as in torchvision",
            "MobileNetV2 1.0 at 224x224: inverted residual bottlenecks, ReLU6, batch norm after every convolution.",
            [("data", (3, 224, 224))])
    conv_bn(n, "conv1", 32, 3, stride=2, pad=1, act="relu6")
    channels = 32
    x = n.last
    settings = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                (6, 320, 1, 1)]
    index = 0
    for t, c, reps, s in settings:
        for r in range(reps):
            index += 1
            stride = s if r == 0 else 1
            prefix = f"block{index}"
            hidden = channels * t
            if t != 1:
                conv_bn(n, prefix + "_expand", hidden, 1, inputs=[x], act="relu6")
                conv_bn(n, prefix + "_dw", hidden, 3, stride=stride, pad=1, groups=hidden, act="relu6")
            else:
                conv_bn(n, prefix + "_dw", hidden, 3, stride=stride, pad=1, groups=hidden, inputs=[x], act="relu6")
            y = conv_bn(n, prefix + "_project", c, 1, relu=False)
            if stride == 1 and channels == c:
                y = n.add(prefix + "_add", "eltwise_add", inputs=[y, x])
            x = y
            channels = c
    conv_bn(n, "conv_last", 1280, 1, act="relu6")
    n.add("pool", "pooling", mode="average", **{"global": True})
    n.add("fc", "fully_connected", out_channels=1000)
    n.add("prob", "softmax")
    return n


def bert_layer():
    hidden, heads, ffn, tokens = 768, 12, 3072, 128
    n = Net("BERT-base encoder layer (seq 128)",
            "Devlin et al., NAACL 2019 (BERT-base: L=12, H=768, A=12) and Vaswani et al., NeurIPS 2017; "
            "layer structure as in google-research/bert modeling.py transformer_model",
            "One BERT-base encoder layer at sequence length 128. Each dense layer is a 1x1 convolution over the "
            "tokens, laid out as a 16 x 8 grid (positions do not matter to 1x1 convolutions and matmul) so that "
            "the NVDLA compiler can tile along H; the 1/sqrt(d) scaling is folded into the softmax.",
            [("tokens", (hidden, 16, tokens // 16))])
    n.conv("query", hidden, 1, inputs=["tokens"])
    n.conv("key", hidden, 1, inputs=["tokens"])
    n.conv("value", hidden, 1, inputs=["tokens"])
    n.add("scores", "matmul", inputs=["query", "key"], heads=heads)
    n.add("probs", "softmax")
    n.add("context", "matmul", inputs=["probs", "value"], heads=heads, transpose_b=True)
    n.conv("attention_output", hidden, 1)
    n.add("attention_residual", "eltwise_add", inputs=["attention_output", "tokens"])
    n.add("attention_norm", "layer_norm")
    n.conv("intermediate", ffn, 1)
    n.add("gelu", "activation", function="gelu")
    n.conv("output", hidden, 1)
    n.add("output_residual", "eltwise_add", inputs=["output", "attention_norm"])
    n.add("output_norm", "layer_norm")
    return n


if __name__ == "__main__":
    for make, path in ((lenet, "lenet.json"), (alexnet, "alexnet.json"), (vgg16, "vgg16.json"),
                       (lambda: resnet(18), "resnet18.json"), (lambda: resnet(50), "resnet50.json"),
                       (mobilenet_v2, "mobilenetv2.json"), (bert_layer, "bert_base_layer.json")):
        make().write(path)
