#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generates src/cpu/dft_butterflies-inl.h: the straight-line DFT butterflies of the CPU's
Stockham passes (src/cpu/stockham-inl.h), radix 2, 3, 4, 5, 7, 8 and 16.

  python3 tools/gen_butterflies.py           writes the header
  python3 tools/gen_butterflies.py --check   exits 1 if the committed header differs

Powers of two up to 8: decimation in frequency, DFT_p(t) = interleave(DFT_{p/2}(t_j + t_{j+p/2}),
DFT_{p/2}((t_j - t_{j+p/2}) w_p^j)), the twiddles by 1, -+i and (1 -+ i)/sqrt(2) as additions
and one multiplication, those by odd sixteenths of a turn as products by their cosine and sine.
Radix 16 as 4 x 4 (Cooley-Tukey with four-point DFTs): u_{k1 + 4 k2} = sum_j w_4^{j k2} w_16^{j k1}
DFT_4(t_j, t_{j+4}, t_{j+8}, t_{j+12})_{k1}; each column is loaded next to its arithmetic and
each row stored as soon as it is done, so that at most 16 complex values are live at once.
Odd radices: u_0 = t_0 + sum_j (t_j + t_{p-j}), and for k = 1..(p-1)/2
u_k, u_{p-k} = re_k +- rot(im_k), re_k = t_0 + sum_j cos(2 pi jk/p) (t_j + t_{p-j}),
im_k = sum_j sin(2 pi jk/p) (t_j - t_{p-j}), rot the multiplication by -+i (Winograd's and
Rader's symmetric form, as in Nussbaumer, "Fast Fourier Transform and Convolution Algorithms").
Constants are printed to 36 digits (long double literals, cast to the data's precision)."""

import sys
from decimal import Decimal, getcontext
from pathlib import Path

getcontext().prec = 60
OUT = Path(__file__).resolve().parent.parent / "src" / "cpu" / "dft_butterflies-inl.h"
RADICES = (2, 3, 4, 5, 7, 8, 16)


def pi():
    # Machin: pi = 16 atan(1/5) - 4 atan(1/239)
    def atan_inv(x):
        x = Decimal(x)
        term, total, n, sign = 1 / x, Decimal(0), 1, 1
        while term > Decimal(10) ** -58:
            total += sign * term / n
            term /= x * x
            n += 2
            sign = -sign
        return total
    return 16 * atan_inv(5) - 4 * atan_inv(239)


PI = pi()


def cos_sin(num, den):
    """cos and sin of 2 pi num / den."""
    x = 2 * PI * num / den
    c, s, term, n = Decimal(0), Decimal(0), Decimal(1), 0
    while abs(term) > Decimal(10) ** -58 or n < 4:
        if n % 4 == 0:
            c += term
        elif n % 4 == 1:
            s += term
        elif n % 4 == 2:
            c -= term
        else:
            s -= term
        n += 1
        term = term * x / n
    return c, s


class Emitter:
    def __init__(self):
        self.lines, self.count, self.consts, self.const_lines = [], 0, {}, []

    def tmp(self, expr):
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"const Cx<T> {name} = {expr};")
        return name

    def load(self, j):
        name = f"t{j}"
        self.lines.append(f"const Cx<T> {name} = x[0];" if j == 0 else
                          f"const Cx<T> {name} = x[{j} * stride];")
        return name

    def store(self, k, name):
        self.lines.append(f"store(Index<{k}>(), {name});")

    def parts(self, part):
        """A complex temporary from the expressions of its real and imaginary parts."""
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"const T {name}r = {part['r']};")
        self.lines.append(f"const T {name}i = {part['i']};")
        self.lines.append(f"const Cx<T> {name}{{{name}r, {name}i}};")
        return name

    def const(self, value, label):
        key = f"{value:.36f}"
        if key not in self.consts:
            self.consts[key] = f"k{len(self.consts)}"
            self.const_lines.append(
                f"const T0 {self.consts[key]} = static_cast<T0>({key}L);  // {label}")
        return self.consts[key]


def rot(a):
    return f"RotI<kFwd>({a})"


def pow2(e, t, p):
    """Outputs (names) of the p-point DFT of the names t, in natural order."""
    if p == 1:
        return [t[0]]
    if p == 2:
        return [e.tmp(f"{t[0]} + {t[1]}"), e.tmp(f"{t[0]} - {t[1]}")]
    h = p // 2
    a = [e.tmp(f"{t[j]} + {t[j + h]}") for j in range(h)]
    b = [e.tmp(f"{t[j]} - {t[j + h]}") for j in range(h)]
    for j in range(1, h):
        b[j] = twiddle(e, b[j], j, p)
    even, odd = pow2(e, a, h), pow2(e, b, h)
    out = []
    for k in range(h):
        out += [even[k], odd[k]]
    return out


def twiddle(e, x, j, p):
    """x times w_p^j, w_p = exp(-+2 pi i / p) (forward: -)."""
    if (16 * j) % p:
        raise ValueError(f"no twiddle form for {j}/{p}")
    if (8 * j) % p:  # an odd sixteenth of a turn: past a quarter, -+i times the rest
        if 4 * j > p:
            return e.tmp(rot(twiddle(e, x, j - p // 4, p)))
        c, s = cos_sin(j, p)
        ck = e.const(c, f"cos(2 pi {j}/{p})")
        sk = e.const(s, f"sin(2 pi {j}/{p})")
        return e.tmp(f"MulCosSin<kFwd>({x}, {ck}, {sk})")
    q = 8 * j // p  # in eighths of a turn
    if q == 2:
        return e.tmp(rot(x))
    if q in (1, 3):
        h = e.const(Decimal(1) / Decimal(2).sqrt(), "1/sqrt(2)")
        return e.tmp(f"MulEighth{q}<kFwd>({x}, {h})")
    raise ValueError(f"no twiddle form for {j}/{p}")


def four_by_four(e, p):
    """The p = q*q point DFT as q-point DFTs of the columns t_{j + q n2}, twiddled by
    w_p^{j k1}, then q-point DFTs of the rows; loads and stores emitted where they are used."""
    q = {16: 4}[p]
    z = []
    for j in range(q):
        col = pow2(e, [e.load(j + q * n2) for n2 in range(q)], q)
        z.append([twiddle(e, col[k1], j * k1, p) if j * k1 else col[k1] for k1 in range(q)])
    for k1 in range(q):
        row = pow2(e, [z[j][k1] for j in range(q)], q)
        for k2 in range(q):
            e.store(k1 + q * k2, row[k2])


def odd(e, t, p):
    h = (p - 1) // 2
    sums = [None] + [e.tmp(f"{t[j]} + {t[p - j]}") for j in range(1, h + 1)]
    difs = [None] + [e.tmp(f"{t[j]} - {t[p - j]}") for j in range(1, h + 1)]
    total = t[0]
    for j in range(1, h + 1):
        total = e.tmp(f"{total} + {sums[j]}")
    out = [total] + [None] * (p - 1)
    for k in range(1, h + 1):
        re = {"r": f"{t[0]}.r", "i": f"{t[0]}.i"}
        im = {"r": None, "i": None}
        for j in range(1, h + 1):
            m = (j * k) % p
            c, s = cos_sin(m, p)
            ck = e.const(abs(c), f"|cos(2 pi {m}/{p})|")
            sk = e.const(abs(s), f"|sin(2 pi {m}/{p})|")
            for part in ("r", "i"):
                re[part] = f"{re[part]} {'-' if c < 0 else '+'} {sums[j]}.{part} * {ck}"
                term = f"{difs[j]}.{part} * {sk}"
                if im[part] is None:
                    im[part] = term if s > 0 else f"-({term})"
                else:
                    im[part] = f"{im[part]} {'-' if s < 0 else '+'} {term}"
        a, b = e.parts(re), e.parts(im)
        b = e.tmp(rot(b))
        out[k] = e.tmp(f"{a} + {b}")
        out[p - k] = e.tmp(f"{a} - {b}")
    return out


def butterfly(p):
    e = Emitter()
    if p == 16:
        four_by_four(e, p)
    else:
        t = [e.load(j) for j in range(p)]
        outs = pow2(e, t, p) if p & (p - 1) == 0 else odd(e, t, p)
        for k, name in enumerate(outs):
            e.store(k, name)
    body = e.const_lines + e.lines
    head = (f"template <bool kFwd, class T0>\nstruct Butterfly<kFwd, T0, {p}> {{\n"
            f"  template <class T, class Store>\n"
            f"  static HWY_INLINE void Run(const Cx<T>* x, std::size_t stride, Store&& store) {{\n")
    return head + "".join(f"    {line}\n" for line in body) + "  }\n};\n"


def header():
    parts = [
        "// SPDX-License-Identifier: BSD-3-Clause\n"
        "// Generated by tools/gen_butterflies.py: do not edit (regenerate; tests/cpu check that\n"
        "// regenerating changes nothing). The straight-line DFT butterflies of the Stockham passes\n"
        "// (stockham-inl.h): u_k = sum_j t_j exp(-+2 pi i jk / P), kFwd the minus sign, on complex\n"
        "// lanes (complex-inl.h); radices " + ", ".join(map(str, RADICES)) + ".\n\n"
        "#if defined(DCTX_CPU_DFT_BUTTERFLIES_INL_H_) == defined(HWY_TARGET_TOGGLE)\n"
        "#ifdef DCTX_CPU_DFT_BUTTERFLIES_INL_H_\n#undef DCTX_CPU_DFT_BUTTERFLIES_INL_H_\n#else\n"
        "#define DCTX_CPU_DFT_BUTTERFLIES_INL_H_\n#endif\n\n#include <cstddef>\n#include <type_traits>\n\n"
        "#include <hwy/highway.h>\n\n#include \"cpu/complex-inl.h\"\n\n"
        "HWY_BEFORE_NAMESPACE();\nnamespace dctx::cpu::HWY_NAMESPACE {\n\n"
        "/// x times exp(-+2 pi i q / 8) for q = 1 and 3 (kFwd: minus), h = 1/sqrt(2).\n"
        "template <bool kFwd, class T, class T0>\n"
        "HWY_INLINE Cx<T> MulEighth1(const Cx<T>& x, T0 h) {\n"
        "  if constexpr (kFwd) {\n    return {(x.r + x.i) * h, (x.i - x.r) * h};\n"
        "  } else {\n    return {(x.r - x.i) * h, (x.i + x.r) * h};\n  }\n}\n"
        "template <bool kFwd, class T, class T0>\n"
        "HWY_INLINE Cx<T> MulEighth3(const Cx<T>& x, T0 h) {\n"
        "  if constexpr (kFwd) {\n    return {(x.i - x.r) * h, -(x.r + x.i) * h};\n"
        "  } else {\n    return {-(x.r + x.i) * h, (x.r - x.i) * h};\n  }\n}\n"
        "/// x times exp(-+i a) from c = cos(a) and s = sin(a) (kFwd: minus).\n"
        "template <bool kFwd, class T, class T0>\n"
        "HWY_INLINE Cx<T> MulCosSin(const Cx<T>& x, T0 c, T0 s) {\n"
        "  if constexpr (kFwd) {\n    return {x.r * c + x.i * s, x.i * c - x.r * s};\n"
        "  } else {\n    return {x.r * c - x.i * s, x.i * c + x.r * s};\n  }\n}\n\n"
        "/// A compile-time output index for the store functors of Butterfly::Run.\n"
        "template <std::size_t K>\nusing Index = std::integral_constant<std::size_t, K>;\n\n"
        "/// The P-point DFT of t_j = x[j stride], j < P: store(Index<k>(), u_k) for each k < P\n"
        "/// (P generated below). Straight-line code on named temporaries, no arrays.\n"
        "template <bool kFwd, class T0, std::size_t P>\nstruct Butterfly;\n\n"
        "/// The radices that have a generated butterfly.\n"
        "inline constexpr bool HasButterfly(std::size_t p) {\n  return "
        + " || ".join(f"p == {p}" for p in RADICES) + ";\n}\n"]
    for p in RADICES:
        parts.append("\n" + butterfly(p))
    parts.append("\n}  // namespace dctx::cpu::HWY_NAMESPACE\nHWY_AFTER_NAMESPACE();\n\n"
                 "#endif  // toggle guard\n")
    return "".join(parts)


def main():
    text = header()
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text() != text:
            print(f"{OUT} differs from what tools/gen_butterflies.py generates: regenerate it")
            return 1
        print(f"{OUT.name}: up to date")
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
