# SPDX-License-Identifier: BSD-3-Clause
"""The CUDA summary of scripts/gpu-check.sh: CuPy's cupyx.scipy.fft.dctn / idctn (orthonormal,
float32) timed with CUDA events on the shapes of bench_cuda, beside bench_cuda's own table (its
output file, the first argument, with bench_cuda_vkfft's rows appended): dctx, cuFFT's R2C/C2R,
CuPy and VkFFT, with the ratios. Buffers rotate
past the L2 as in bench_cuda; GPU-time medians of 15 calls after two warm-ups."""
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


def main():
    rows, blocks, vkfft = [], [], {}
    with open(sys.argv[1]) as f:
        for line in f:
            p = line.split()
            if len(p) != 8 or p[0] == "transform" or line.startswith("#"):
                continue
            n1, n2 = (int(v) for v in p[1].split("x"))
            if p[0].startswith("vkfft_"):  # bench_cuda_vkfft: VkFFT's DCT of that shape
                vkfft[(n1, n2, p[2])] = float(p[4])
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
    if blocks:
        print()
        print("| 8x8 kernel | plane | us | copy us | share of copy bandwidth |")
        print("|---|---|---:|---:|---:|")
        for (t, n1, n2, us, share, copy) in blocks:
            print(f"| {t} | {n1}x{n2} | {us:.1f} | {copy:.1f} | {100 * share:.1f} % |")


if __name__ == "__main__":
    main()
