#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The main demo (make demo): the JPEG-style 8x8 pipeline of the NVIDIA whitepaper
# (Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with CUDA") on the Barbara image, then
# whole-image DCT compression ("A New Acceleration Paradigm for Discrete Cosine Transform
# and Other Fourier-Related Transforms") and deblurring through the 2D DCT (Ng, Chan and Tang,
# "A fast algorithm for deblurring models with Neumann boundary conditions"), writing the result
# images to out/.
set -euo pipefail
DCTX=${1:-build/bin/dctx}
mkdir -p out
echo "== 8x8 block DCT, quantization with the whitepaper's table (expect 32.777 dB) =="
"$DCTX" jpeg data/barbara.bmp --table nvidia -o out/barbara_jpeg.png
echo
echo "== the same with the fixed-point int16 kernels =="
"$DCTX" jpeg data/barbara.bmp --table nvidia --int16 -o out/barbara_jpeg_int16.png
echo
echo "== whole-image 2D DCT, keep the largest 10% of the coefficients =="
"$DCTX" compress data/barbara.bmp --keep 0.1 -o out/barbara_dct10.png
echo
echo "== deblurring with reflective boundaries: blur with a Gaussian PSF (sigma 1), restore (Tikhonov) =="
"$DCTX" deblur data/barbara.bmp --psf gaussian:1 --reg 0.001 --simulate \
  --blurred-output out/barbara_blurred.png -o out/barbara_deblurred.png
