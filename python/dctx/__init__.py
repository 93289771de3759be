# SPDX-License-Identifier: BSD-3-Clause
"""dctx: fast discrete cosine and sine transforms.

A drop-in for scipy.fft's real-to-real transforms (:func:`dct`, :func:`idct`, :func:`dst`,
:func:`idst`, :func:`dctn`, :func:`idctn`, :func:`dstn`, :func:`idstn`), reusable
:class:`Plan` objects, the list of the library's back ends (:func:`backends`), and a scipy.fft
back end::

    import scipy.fft, dctx
    with scipy.fft.set_backend(dctx.scipy_backend):
        y = scipy.fft.dctn(x, norm="ortho")     # computed by dctx

The 8x8 block engine (:func:`block8`, :func:`iblock8`, :func:`jpeg_roundtrip`) follows the
NVIDIA whitepaper by Obukhov and Kharlamov, "Discrete Cosine Transform for 8x8 Blocks with
CUDA".
"""

import numpy as _np

from . import _dctx
from ._errors import DctxError, AxisError as _AxisError
from ._convert import _asfarray

__version__ = _dctx.__version__

_dctx._init(_asfarray, _AxisError, DctxError, _np)

from ._realtransforms import dct, idct, dst, idst, dctn, idctn, dstn, idstn  # noqa: E402
from ._plan import Plan, save_wisdom, load_wisdom, forget_wisdom, wisdom_size  # noqa: E402
from ._backends import backends  # noqa: E402
from ._poisson import poisson, PoissonSolver  # noqa: E402
from ._restore import blur, deblur  # noqa: E402
from ._electrostatics import electrostatics, idcct2, idxst_idct, idct_idxst  # noqa: E402
from . import scipy_backend  # noqa: E402

__all__ = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn", "Plan",
           "backends", "DctxError", "scipy_backend", "poisson", "PoissonSolver", "blur", "deblur", "electrostatics", "idcct2", "idxst_idct",
           "idct_idxst", "save_wisdom", "load_wisdom", "forget_wisdom", "wisdom_size",
           "__version__"]

if _dctx.has_block8:  # pragma: no branch
    from ._block8 import block8, iblock8, jpeg_roundtrip  # noqa: E402,F401
    __all__ += ["block8", "iblock8", "jpeg_roundtrip"]
