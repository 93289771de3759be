# SPDX-License-Identifier: BSD-3-Clause
"""The 8x8 block engine bindings (only when the library is built with it)."""

import numpy as np
import pytest
import scipy.fft

import dctx

pytestmark = pytest.mark.skipif(not dctx._dctx.has_block8,
                                reason="library built without the 8x8 block engine")


def blockwise(f, x):
    y = np.empty(x.shape, dtype=np.float64)
    for r in range(0, x.shape[-2], 8):
        for c in range(0, x.shape[-1], 8):
            y[..., r:r + 8, c:c + 8] = f(x[..., r:r + 8, c:c + 8].astype(np.float64),
                                         axes=(-2, -1), norm="ortho")
    return y


@pytest.mark.parametrize("kernel", ["auto", "reference", "fast"])
def test_block8_float32_matches_scipy(kernel, rng):
    x = (rng.random((3, 24, 40), dtype=np.float32) - 0.5) * 255
    c = dctx.block8(x, kernel=kernel)
    assert c.dtype == np.float32 and c.shape == x.shape
    ref = blockwise(scipy.fft.dctn, x)
    assert np.max(np.abs(c - ref)) < 1e-3 * np.max(np.abs(ref))
    back = dctx.iblock8(c, kernel=kernel)
    assert np.max(np.abs(back - x)) < 1e-3 * 255
    plane = x[1, ::-1, :]  # negative row stride
    assert np.allclose(dctx.block8(plane, kernel=kernel), blockwise(scipy.fft.dctn, plane),
                       atol=2e-2)


def test_block8_int16(rng):
    x = rng.integers(-128, 128, size=(16, 32)).astype(np.int16)
    c = dctx.block8(x)
    assert c.dtype == np.int16
    ref = np.rint(blockwise(scipy.fft.dctn, x))
    assert np.max(np.abs(c - ref)) <= 1
    back = dctx.iblock8(c)
    assert back.dtype == np.int16 and np.max(np.abs(back.astype(int) - x)) <= 2


def test_block8_edges_and_errors(rng):
    x = rng.random((13, 20), dtype=np.float32)
    with pytest.raises(ValueError):
        dctx.block8(x)
    c = dctx.block8(x, edge="replicate")
    assert c.shape == (16, 24)
    back = dctx.iblock8(c, edge="replicate", shape=(13, 20))
    assert back.shape == (13, 20) and np.allclose(back, x, atol=1e-4)
    with pytest.raises(TypeError):
        dctx.block8(np.ones((8, 8), dtype=np.int32))  # uint8 has its own path (level shift)
    with pytest.raises(ValueError):
        dctx.block8(np.ones(8, dtype=np.float32))
    with pytest.raises(ValueError):
        dctx.block8(np.ones((8, 8), dtype=np.float32), kernel="magic")


def test_jpeg_roundtrip_psnr(rng):
    yy, xx = np.mgrid[0:61, 0:83]
    img = (128 + 60 * np.sin(xx / 7.0) * np.cos(yy / 5.0) + rng.normal(0, 4, xx.shape))
    img = np.clip(img, 0, 255).astype(np.uint8)
    out, psnr = dctx.jpeg_roundtrip(img, table="nvidia")
    assert out.shape == img.shape and out.dtype == np.uint8
    mse = np.mean((out.astype(float) - img.astype(float)) ** 2)
    assert abs(psnr - 10 * np.log10(255.0 ** 2 / mse)) < 1e-6
    assert 25 < psnr < 60
    _, psnr_hi = dctx.jpeg_roundtrip(img, table="jpeg", quality=95)
    assert psnr_hi > psnr
    rgb = np.stack([img, img[::-1], 255 - img], axis=-1)
    out_rgb, _ = dctx.jpeg_roundtrip(rgb, table="jpeg", color=True)
    assert out_rgb.shape == rgb.shape
    with pytest.raises(TypeError):
        dctx.jpeg_roundtrip(img.astype(np.float32))
    with pytest.raises(ValueError):
        dctx.jpeg_roundtrip(img, quality=0)


NVIDIA = np.array([32, 33, 51, 81, 66, 39, 34, 17, 33, 36, 48, 47, 28, 23, 12, 12,
                   51, 48, 47, 28, 23, 12, 12, 12, 81, 47, 28, 23, 12, 12, 12, 12,
                   66, 28, 23, 12, 12, 12, 12, 12, 39, 23, 12, 12, 12, 12, 12, 12,
                   34, 12, 12, 12, 12, 12, 12, 12, 17, 12, 12, 12, 12, 12, 12, 12]).reshape(8, 8)


def round_half_away(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


@pytest.mark.parametrize("kernel", ["auto", "reference"])
def test_block8_quantized_levels_and_decoder(kernel, rng):
    x = (rng.random((2, 16, 40), dtype=np.float32) - 0.5) * 255
    q = np.tile(NVIDIA, (2, 5))
    levels = dctx.block8(x, kernel=kernel, table="nvidia")
    assert levels.dtype == np.int16 and levels.shape == x.shape
    t = blockwise(scipy.fft.dctn, x) / q
    far = np.abs(np.abs(t - np.floor(t)) - 0.5) > 1e-3  # away from rounding ties
    assert far.mean() > 0.99
    assert np.array_equal(levels[far], round_half_away(t)[far])
    # The same as quantizing block8's coefficients, and the decoder undoes both steps.
    assert np.array_equal(dctx.block8(x, kernel=kernel, table=NVIDIA), levels)
    y = dctx.iblock8(levels, kernel=kernel, table="nvidia")
    assert y.dtype == np.float32
    assert np.allclose(y, blockwise(scipy.fft.idctn, levels * q), atol=1e-3)


def test_block8_quantized_int16_tables_and_errors(rng):
    x = rng.integers(-128, 128, size=(24, 32)).astype(np.int16)
    levels = dctx.block8(x, table="jpeg", quality=90)
    entries = np.array(dctx._dctx._quant_table("luma", 90)).reshape(8, 8)
    q = np.tile(entries, (3, 4))
    assert np.max(np.abs(levels - round_half_away(blockwise(scipy.fft.dctn, x) / q))) <= 1
    assert np.array_equal(dctx.block8(x, table=entries), levels)
    # An array table takes the same libjpeg scaling as a named one.
    assert np.array_equal(dctx.block8(x, table=NVIDIA, quality=75), dctx.block8(x, table="nvidia", quality=75))
    y = dctx.iblock8(levels, kernel="int16", table="jpeg", quality=90)
    assert y.dtype == np.int16
    ref = np.clip(round_half_away(blockwise(scipy.fft.idctn, levels * q)), -256, 255)
    assert np.max(np.abs(y - ref)) <= 1
    chroma = dctx.block8(x, table="chroma")
    assert np.count_nonzero(chroma) < np.count_nonzero(dctx.block8(x, table="luma"))
    with pytest.raises(ValueError):
        dctx.block8(x, table=np.zeros((8, 8), dtype=int))     # entries must be 1..32767
    with pytest.raises(ValueError):
        dctx.block8(x, table=np.ones((4, 4), dtype=int))      # not 8x8
    with pytest.raises(ValueError):
        dctx.block8(x, table="mpeg")
    with pytest.raises(ValueError):
        dctx.block8(x, table="jpeg", quality=0)
    with pytest.raises(ValueError):
        dctx.block8(x, table=NVIDIA, quality=101)
    with pytest.raises(TypeError):
        dctx.iblock8(levels.astype(np.float32), table="nvidia")  # levels are int16


# Messages speak Python: keywords and values as the Python functions take them, never the C++
# core's names (Block8Edge::Replicate, nthreads, block8_forward, QuantTable, ...).
CPP_NAMES = ["::", "Block8", "nthreads", "block8_forward", "block8_inverse", "QuantTable",
             "Int16 kernel", "Reference or Fast", "ask for"]


def assert_pythonic(msg):
    for bad in CPP_NAMES:
        assert bad not in msg, f"{bad!r} in {msg!r}"


def test_edge_message_names_the_keyword():
    with pytest.raises(ValueError) as e:
        dctx.block8(np.ones((100, 100), np.float32))
    assert str(e.value) == ('dctx.block8: plane of 100 x 100 samples: sides must be multiples of 8 '
                            '(or pass edge="replicate")')
    with pytest.raises(ValueError) as e:
        dctx.block8(np.ones((100, 100), np.int16), table="jpeg")
    assert 'edge="replicate"' in str(e.value)
    assert_pythonic(str(e.value))


def test_cropped_inverse_message_names_the_keywords():
    c = np.ones((16, 24), np.float32)
    with pytest.raises(ValueError) as e:
        dctx.iblock8(c, shape=(13, 20))
    assert str(e.value) == ('dctx.iblock8: shape is 13 x 20 but the coefficients are 16 x 24 '
                            '(a cropped output needs edge="replicate")')
    with pytest.raises(ValueError) as e:
        dctx.iblock8(c.astype(np.int16), shape=(13, 20), table="nvidia")
    assert 'edge="replicate"' in str(e.value) and "levels are 16 x 24" in str(e.value)
    assert_pythonic(str(e.value))


@pytest.mark.parametrize("call", [
    lambda: dctx.block8(np.ones((8, 8), np.float32), kernel="int16"),
    lambda: dctx.iblock8(np.ones((8, 8), np.float32), kernel="int16"),
    lambda: dctx.block8(np.ones((8, 8), np.float32), kernel="magic"),
    lambda: dctx.block8(np.ones((8, 8), np.float32), edge="wrap"),
    lambda: dctx.block8(np.ones((12, 8), np.float32)),
    lambda: dctx.iblock8(np.ones((12, 8), np.float32)),
    lambda: dctx.iblock8(np.ones((12, 8), np.int16), table="jpeg"),
    lambda: dctx.iblock8(np.ones((16, 16), np.float32), shape=(9, 9)),
    lambda: dctx.block8(np.ones((8, 8), np.int16), table=np.zeros((8, 8), int)),
    lambda: dctx.block8(np.ones((8, 8), np.int16), table="jpeg", quality=0),
    lambda: dctx.block8(np.ones((8, 8), np.int16), table=NVIDIA, quality=101),
    lambda: dctx.block8(np.ones(8, np.float32)),
    lambda: dctx.block8(np.ones((8, 8), np.float32), workers=-10_000),
    lambda: dctx.jpeg_roundtrip(np.zeros((8, 8), np.uint8), quality=0),
    lambda: dctx.jpeg_roundtrip(np.zeros((8, 8, 2), np.uint8)),
    lambda: dctx.jpeg_roundtrip(np.zeros((0, 8), np.uint8)),
], ids=range(16))
def test_block8_errors_speak_python(call):
    with pytest.raises(ValueError) as e:
        call()
    assert_pythonic(str(e.value))


def test_int16_kernel_on_float_data_message():
    with pytest.raises(ValueError) as e:
        dctx.block8(np.ones((8, 8), np.float32), kernel="int16")
    assert 'kernel="int16"' in str(e.value) and 'kernel="reference" or "fast"' in str(e.value)


@pytest.mark.parametrize("kernel", ["fast", "reference"])
def test_nan_has_no_quantization_level(kernel, rng):
    # A NaN sample makes NaN coefficients: levels would be a silent 0, so the call refuses.
    x = (rng.random((16, 24)) * 255).astype(np.float32)
    x[9, 13] = np.nan
    with pytest.raises(ValueError, match="NaN.*no quantization level") as info:
        dctx.block8(x, kernel=kernel, table="jpeg")
    assert str(info.value).startswith("dctx.block8: ")
    # Without a table the coefficients carry NaN in that block, as scipy's would.
    c = dctx.block8(x, kernel=kernel)
    assert np.isnan(c[8:16, 8:16]).all() and np.isfinite(np.delete(c, np.s_[8:16], 0)).all()


def _level_shifted(v):
    """float samples to uint8 as the uint8 plans store them: v + 128 rounded half up, 0..255."""
    return np.clip(np.floor(v.astype(np.float64) + 128 + 0.5), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("kernel", ["auto", "fast", "reference"])
def test_uint8_samples_take_jpegs_level_shift(kernel):
    """uint8 in: the float32 path on x - 128, bit for bit (planes, batches, strided views);
    dtype="uint8" out: the float32 inverse plus 128, rounded half up and clamped."""
    rng = np.random.default_rng(21)
    big = rng.integers(0, 256, (2, 24, 40), dtype=np.uint8)
    for x in (big[0, :16, :24], big[:, ::1, ::1], big[0, ::2, ::-1][:8, :16], big[1, :, 8:]):
        c = dctx.block8(x, kernel=kernel)
        assert c.dtype == np.float32
        np.testing.assert_array_equal(c, dctx.block8(x.astype(np.float32) - 128, kernel=kernel))
        y = dctx.iblock8(c, kernel=kernel, dtype="uint8")
        assert y.dtype == np.uint8 and y.shape == x.shape
        np.testing.assert_array_equal(y, _level_shifted(dctx.iblock8(c, kernel=kernel)))
        assert np.abs(y.astype(int) - x.astype(int)).max() <= 1
    # Out-of-range coefficients clamp: a DC far above and below the 8-bit range.
    c = np.zeros((8, 16), np.float32)
    c[0, 0], c[0, 8] = 5000, -5000
    y = dctx.iblock8(c, kernel=kernel, dtype=np.uint8)
    assert (y[:, :8] == 255).all() and (y[:, 8:] == 0).all()


def test_uint8_with_a_table_and_replicated_edges():
    rng = np.random.default_rng(22)
    x = rng.integers(0, 256, (13, 21), dtype=np.uint8)
    levels = dctx.block8(x, table="jpeg", quality=80, edge="replicate")
    assert levels.dtype == np.int16 and levels.shape == (16, 24)
    padded = np.pad(x, ((0, 3), (0, 3)), mode="edge").astype(np.float32) - 128
    np.testing.assert_array_equal(levels, dctx.block8(padded, table="jpeg", quality=80))
    y = dctx.iblock8(levels, table="jpeg", quality=80, edge="replicate", shape=(13, 21),
                     dtype="uint8")
    want = dctx.iblock8(levels, table="jpeg", quality=80, edge="replicate", shape=(13, 21))
    assert y.dtype == np.uint8
    np.testing.assert_array_equal(y, _level_shifted(want))


@pytest.mark.parametrize("call,error,match", [
    (lambda: dctx.block8(np.zeros((8, 8), np.uint8), kernel="int16"), dctx.DctxError,
     "uint8 data takes Reference or Fast"),
    (lambda: dctx.iblock8(np.zeros((8, 8), np.float32), dtype="int8"), ValueError,
     'dtype must be None or "uint8"'),
    (lambda: dctx.iblock8(np.zeros((8, 8), np.int16), dtype="uint8"), TypeError,
     "with dtype=uint8, c must be float32 coefficients"),
    (lambda: dctx.iblock8(np.zeros((8, 8), np.float32), table="jpeg", dtype="uint8"), TypeError,
     "with a table, c holds int16 quantization levels"),
    (lambda: dctx.block8(np.zeros((8, 12), np.uint8)), dctx.DctxError,
     "sides must be multiples of 8"),
])
def test_uint8_errors_name_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()
