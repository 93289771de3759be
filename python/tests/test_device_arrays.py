# SPDX-License-Identifier: BSD-3-Clause
"""Arrays in device memory (DLPack producers on a CUDA, ROCm, ... device) get one clear TypeError
naming the device and the back ends of this build, from every entry point."""

import numpy as np
import pytest

import dctx


class FakeDeviceArray:
    """What a GPU array library's array looks like to dctx: DLPack on a non-CPU device."""

    def __init__(self, device=2, shape=(8, 8), dtype=np.float32):
        self.shape, self.dtype, self.ndim = tuple(shape), np.dtype(dtype), len(shape)
        self.device = device

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        raise BufferError("a fake device array cannot be exported")

    def __dlpack_device__(self):
        return (self.device, 0)

    def __len__(self):
        return self.shape[0]


def message(device):
    built = [b["name"] for b in dctx.backends() if b["built"]]
    return (f"device arrays ({device}) are not supported by this build of dctx: its back ends "
            f"are {built}; pass a NumPy array")


def expect_device_error(fn, device="cuda"):
    with pytest.raises(TypeError) as e:
        fn()
    assert str(e.value) == message(device)


def test_message_names_the_built_back_ends():
    built = [b["name"] for b in dctx.backends() if b["built"]]
    assert message("cuda") == ("device arrays (cuda) are not supported by this build of dctx: its "
                               f"back ends are {built}; pass a NumPy array")


@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16])
def test_functions(name, dtype):
    expect_device_error(lambda: getattr(dctx, name)(FakeDeviceArray(dtype=dtype)))


@pytest.mark.parametrize("code,device", [(2, "cuda"), (4, "opencl"), (10, "rocm"), (8, "metal"),
                                         (13, "cuda_managed"), (99, "device type 99")])
def test_device_names(code, device):
    expect_device_error(lambda: dctx.dctn(FakeDeviceArray(code)), device)


def test_plan():
    p = dctx.Plan((8, 8), np.float32)
    expect_device_error(lambda: p(FakeDeviceArray()))
    expect_device_error(lambda: p(np.ones((8, 8), np.float32), out=FakeDeviceArray()))


def test_cpu_dlpack_producers_still_work():
    """A DLPack producer on the CPU (here a NumPy array seen only through DLPack) is read."""

    class CpuDLPack:
        def __init__(self, a):
            self._a = a

        def __dlpack__(self, **kw):
            return self._a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self._a.__dlpack_device__()

    x = np.arange(16.0).reshape(4, 4)
    np.testing.assert_allclose(dctx.dctn(CpuDLPack(x)), dctx.dctn(x))


@pytest.mark.skipif(not dctx._dctx.has_block8, reason="library built without the 8x8 block engine")
def test_block_engine():
    expect_device_error(lambda: dctx.block8(FakeDeviceArray()))
    expect_device_error(lambda: dctx.iblock8(FakeDeviceArray(dtype=np.int16)))
    expect_device_error(lambda: dctx.iblock8(FakeDeviceArray(dtype=np.int16), table="jpeg"))
    expect_device_error(lambda: dctx.jpeg_roundtrip(FakeDeviceArray(dtype=np.uint8)))
