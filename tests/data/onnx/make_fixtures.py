#!/usr/bin/python3
"""Exports the ONNX test fixtures of tests/data/onnx/ (run by hand, never by the build).

Needs Debian 12's python3-torchvision (0.14) and python3-onnx (1.12):
    apt-get install python3-torchvision python3-onnx
    /usr/bin/python3 tests/data/onnx/make_fixtures.py

Each torchvision model is exported with its batch-norm layers kept
(TrainingMode.PRESERVE on a model in eval mode, so BatchNormalization nodes stay
and torchvision's parameter count can be checked), then its weights' values are
stripped while their shapes stay: every floating-point initializer with more than
16 elements becomes an external-data reference to "<name>.weights", a file that
is never written. So each fixture is small, and every one of them checks that a
model whose weights live elsewhere opens without those files. Small initializers
(shapes for Reshape, scalars) keep their values so shape inference can use them.
The value_info the exporter records is removed: the importer runs ONNX shape
inference itself.

Parameters are given random values before the export: torch deduplicates
initializers with equal values (a fresh model has many: every batch norm's scale
is 1), which would hide parameters behind Identity nodes.
"""
import os
import sys

import onnx
import torch
import torchvision

HERE = os.path.dirname(os.path.abspath(__file__))
STRIP_ABOVE = 16

# name: constructor (torchvision 0.14 names; published figures are in tests/core/network/tst_onnx_import.cpp)
MODELS = {
    "alexnet": lambda: torchvision.models.alexnet(),
    "vgg16": lambda: torchvision.models.vgg16(),
    "resnet18": lambda: torchvision.models.resnet18(),
    "resnet50": lambda: torchvision.models.resnet50(),
    "mobilenet_v2": lambda: torchvision.models.mobilenet_v2(),
    "mobilenet_v3_small": lambda: torchvision.models.mobilenet_v3_small(),
    "squeezenet1_1": lambda: torchvision.models.squeezenet1_1(),
    # The published GoogLeNet weights have no auxiliary classifiers.
    "googlenet": lambda: torchvision.models.googlenet(aux_logits=False, init_weights=False),
    "shufflenet_v2_x1_0": lambda: torchvision.models.shufflenet_v2_x1_0(),
    "efficientnet_b0": lambda: torchvision.models.efficientnet_b0(),
    "vit_b_16": lambda: torchvision.models.vit_b_16(),
}


class OperatorZoo(torch.nn.Module):
    """Operators of detection and OCR backbones that the classification models lack:
    ConvTranspose, dilated convolution, Pad, Resize, Split, Slice, Transpose,
    decomposed LayerNorm (ReduceMean/Sub/Pow/Sqrt/Div), Gelu as Erf, Sigmoid,
    HardSigmoid, Clip (ReLU6), and TopK, which we do not model."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(8, 16, 3, padding=2, dilation=2)
        self.up = torch.nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1)
        self.proj = torch.nn.Linear(16, 16)
        self.gamma = torch.nn.Parameter(torch.rand(16))
        self.beta = torch.nn.Parameter(torch.rand(16))

    def forward(self, x):
        y = torch.nn.functional.pad(x, (1, 1, 1, 1))
        y = self.conv(y)                                  # 16 x 34 x 34
        y = torch.nn.functional.relu6(y)
        z = self.up(y)                                    # 8 x 68 x 68
        z = torch.nn.functional.interpolate(z, scale_factor=0.5, mode="nearest")  # Resize: 8 x 34 x 34
        a, b = torch.split(z, 4, dim=1)                   # Split: 2 x (4 x 34 x 34)
        z = torch.cat([torch.sigmoid(a), torch.nn.functional.hardsigmoid(b)], dim=1)
        z = z[:, :, 1:33, 1:33]                           # Slice: 8 x 32 x 32
        t = y[:, :, :32, :32].flatten(2).transpose(1, 2)  # Transpose: 1 x 1024 x 16 tokens
        mean = t.mean(-1, keepdim=True)                   # LayerNorm written out
        var = (t - mean).pow(2).mean(-1, keepdim=True)
        t = (t - mean) / torch.sqrt(var + 1e-5) * self.gamma + self.beta
        t = self.proj(t)
        t = 0.5 * t * (1 + torch.erf(t / 1.4142135623730951))  # Gelu as Erf
        scores = t.mean(-1).flatten()
        top, _ = torch.topk(scores, 10)                   # TopK: not modelled
        return z, top


def randomize(model):
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for t in list(model.parameters()) + list(model.buffers()):
            if t.is_floating_point():
                t.copy_(torch.rand(t.shape, generator=gen) + 0.5)


def strip(model_proto, name):
    for init in model_proto.graph.initializer:
        count = 1
        for d in init.dims:
            count *= d
        if init.data_type in (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE) \
                and count > STRIP_ABOVE:
            init.ClearField("raw_data")
            init.ClearField("float_data")
            init.ClearField("double_data")
            init.data_location = onnx.TensorProto.EXTERNAL
            del init.external_data[:]
            for key, value in (("location", name + ".weights"), ("length", str(4 * count))):
                entry = init.external_data.add()
                entry.key = key
                entry.value = value
    del model_proto.graph.value_info[:]


def export(name, model, inputs, input_names, dynamic_axes=None, opset=17):
    import io
    model.eval()
    randomize(model)
    buffer = io.BytesIO()
    torch.onnx.export(model, inputs, buffer, opset_version=opset, input_names=input_names,
                      training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=True,
                      dynamic_axes=dynamic_axes)
    proto = onnx.load_from_string(buffer.getvalue())
    strip(proto, name)
    proto.producer_name = "tests/data/onnx/make_fixtures.py (torch %s, torchvision %s)" % (
        torch.__version__, torchvision.__version__)
    path = os.path.join(HERE, name + ".onnx")
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())
    print("%-22s %8d bytes  %4d nodes" % (name + ".onnx", os.path.getsize(path), len(proto.graph.node)))


def main():
    torch.manual_seed(0)
    only = set(sys.argv[1:])
    image = torch.zeros(1, 3, 224, 224)
    for name, make in MODELS.items():
        if not only or name in only:
            export(name, make(), image, ["input"])
    if not only or "resnet18_dynamic" in only:
        # Symbolic batch, height and width: the importer asks for them.
        export("resnet18_dynamic", torchvision.models.resnet18(), image, ["input"],
               dynamic_axes={"input": {0: "batch", 2: "height", 3: "width"}})
    if not only or "operator_zoo" in only:
        export("operator_zoo", OperatorZoo(), torch.zeros(1, 8, 32, 32), ["input"])


if __name__ == "__main__":
    main()
