# SPDX-License-Identifier: BSD-3-Clause
"""The CUDA summary of scripts/gpu-check.sh: CuPy's cupyx.scipy.fft.dctn / idctn (orthonormal,
float32) timed with CUDA events on the shapes of bench_cuda, beside bench_cuda's own table (its
output file, the first argument, with bench_cuda_vkfft's rows appended): dctx, cuFFT's R2C/C2R,
CuPy and VkFFT, with the ratios; and DREAMPlace's electrostatic step (bench_cuda's "electro" rows)
against its NumPy transcription (python/tests/dreamplace_reference.py) run on CuPy in float32;
the fused route's reorder and rotation kernels timed apart (bench_cuda's "stage_" rows).
Buffers rotate past the L2 as in bench_cuda; GPU-time medians of 15 calls (5 for the
transcription) after two warm-ups."""
import sys


def cupy_times(shapes):
    try:
        import cupy as cp
        import cupyx.scipy.fft as cfft
    except ImportError as e:  # the summary still prints dctx against cuFFT
        print(f"# CuPy not importable ({e}): no CuPy column")
        return {}
    out = {}
    for (n1, n2) in shapes:
        count = max(2, (400 << 20) // (n1 * n2 * 4))
        xs = [cp.random.standard_normal((n1, n2), dtype=cp.float32) for _ in range(count)]
        for name, fn in (("forward", cfft.dctn), ("inverse", cfft.idctn)):
            fn(xs[0], norm="ortho")
            fn(xs[1 % count], norm="ortho")
            times = []
            a, b = cp.cuda.Event(), cp.cuda.Event()
            for r in range(15):
                a.record()
                fn(xs[r % count], norm="ortho")
                b.record()
                b.synchronize()
                times.append(cp.cuda.get_elapsed_time(a, b))
            times.sort()
            out[(n1, n2, name)] = times[len(times) // 2] * 1e3
        del xs
        cp.get_default_memory_pool().free_all_blocks()
    return out


def cupy_electro_times(sizes):
    """The published algorithm as python/tests/dreamplace_reference.py transcribes it, on CuPy
    arrays of float32 (the DCT through cupyx.scipy.fft, DREAMPlace's idxt through cupy.fft)."""
    try:
        import cupy as cp
        import cupyx.scipy.fft as cfft
    except ImportError:
        return {}

    def idxt(x, sine, axis):
        x = cp.moveaxis(x, axis, -1)
        n = x.shape[-1]
        expk = (2 * cp.exp(1j * cp.pi * cp.arange(n) / (2 * n))).astype(cp.complex64)
        padded = cp.concatenate([x * expk, cp.zeros(x.shape, dtype=cp.complex64)], axis=-1)
        y = cp.fft.ifft(padded, axis=-1)[..., :n] * n
        return cp.moveaxis(y.imag if sine else y.real, -1, axis)

    def step(rho):
        m, n = rho.shape
        auv = cfft.dctn(rho, type=2) / (m * n)
        wu = (2 * cp.pi / m * cp.arange(m, dtype=cp.float32))[:, None]
        wv = (2 * cp.pi / n * cp.arange(n, dtype=cp.float32))[None, :]
        w2 = wu ** 2 + wv ** 2
        w2[0, 0] = 1.0
        inv = 1.0 / w2
        inv[0, 0] = 0.0
        potential = idxt(idxt(auv * inv, False, 1), False, 0)
        field_x = idxt(idxt(auv * wu * inv / 2, False, 1), True, 0)
        field_y = idxt(idxt(auv * wv * inv / 2, True, 1), False, 0)
        return potential, field_x, field_y, (potential * rho).sum()

    out = {}
    for n in sizes:
        xs = [cp.random.random((n, n), dtype=cp.float32) for _ in range(3)]
        step(xs[0])
        step(xs[1])
        times = []
        a, b = cp.cuda.Event(), cp.cuda.Event()
        for r in range(5):
            a.record()
            step(xs[r % 3])
            b.record()
            b.synchronize()
            times.append(cp.cuda.get_elapsed_time(a, b))
        times.sort()
        out[n] = times[len(times) // 2] * 1e3
        del xs
        cp.get_default_memory_pool().free_all_blocks()
    return out


def main():
    rows, blocks, vkfft, electro, stages = [], [], {}, [], []
    with open(sys.argv[1]) as f:
        for line in f:
            p = line.split()
            if len(p) != 8 or p[0] == "transform" or line.startswith("#"):
                continue
            n1, n2 = (int(v) for v in p[1].split("x"))
            if p[0] == "electro":  # step or fields, the one DCT-II, their ratio
                electro.append((n1, n2, p[2], p[3], float(p[4]), float(p[5]), float(p[6])))
            elif p[0].startswith("vkfft_"):  # bench_cuda_vkfft: VkFFT's DCT of that shape
                vkfft[(n1, n2, p[2])] = float(p[4])
            elif p[0].startswith("stage_"):  # a fused-route kernel alone, beside a copy
                stages.append((p[0][6:], n1, n2, p[2], float(p[4]), float(p[7])))
            elif p[5] == "copy":  # an 8x8 block kernel: its share of the copy's bandwidth
                blocks.append((p[0], n1, n2, float(p[4]), float(p[6]), float(p[7])))
            else:
                rows.append((p[0], n1, n2, p[2], p[3], float(p[4]), float(p[5]), float(p[7])))
    shapes = sorted({(n1, n2) for (t, n1, n2, d, pr, *_rest) in rows if t == "dct2" and pr == "f32"})
    cupy = cupy_times(shapes)
    print()
    print("| transform | shape | dir | prec | dctx us | cuFFT us | dctx/cuFFT | CuPy us | CuPy/dctx "
          "| VkFFT us | VkFFT/dctx | copy us |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (t, n1, n2, d, pr, us, fft, copy) in rows:
        f32 = t == "dct2" and pr == "f32"
        c = cupy.get((n1, n2, d)) if f32 else None
        v = vkfft.get((n1, n2, d)) if f32 else None
        cs = f"{c:.1f} | {c / us:.2f}" if c else "- | -"
        vs = f"{v:.1f} | {v / us:.2f}" if v else "- | -"
        print(f"| {t} | {n1}x{n2} | {d} | {pr} | {us:.1f} | {fft:.1f} | {us / fft:.2f} | {cs} | {vs} "
              f"| {copy:.1f} |")
    if stages:
        print()
        print("| fused-route kernel | shape | dir | us | copy of the array us | kernel / copy |")
        print("|---|---|---|---:|---:|---:|")
        for (k, n1, n2, d, us, copy) in stages:
            print(f"| {k} | {n1}x{n2} | {d} | {us:.1f} | {copy:.1f} | {us / copy:.2f} |")
    if electro:
        cupy_e = cupy_electro_times(sorted({n1 for (n1, n2, k, pr, *_r) in electro
                                           if k == "step" and pr == "f32"}))
        print()
        print("| electrostatics | grid | prec | dctx us | one DCT-II us | step / DCT | "
              "CuPy transcription us | CuPy / dctx |")
        print("|---|---|---|---:|---:|---:|---:|---:|")
        for (n1, n2, k, pr, us, dct, ratio) in electro:
            c = cupy_e.get(n1) if k == "step" and pr == "f32" else None
            cs = f"{c:.1f} | {c / us:.2f}" if c else "- | -"
            print(f"| {k} | {n1}x{n2} | {pr} | {us:.1f} | {dct:.1f} | {ratio:.2f} | {cs} |")
    if blocks:
        print()
        print("| 8x8 kernel | plane | us | copy us | share of copy bandwidth |")
        print("|---|---|---:|---:|---:|")
        for (t, n1, n2, us, share, copy) in blocks:
            print(f"| {t} | {n1}x{n2} | {us:.1f} | {copy:.1f} | {100 * share:.1f} % |")


if __name__ == "__main__":
    main()
