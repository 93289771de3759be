# SPDX-License-Identifier: BSD-3-Clause
"""Exceptions raised by dctx."""


class DctxError(ValueError, RuntimeError):
    """An argument the dctx core refuses (invalid size, type or combination).

    It is a ValueError, the class scipy.fft raises for invalid arguments, and also a
    RuntimeError, the class scipy.fft raises for a DCT-I of length 1, so code written
    against either keeps working.
    """


try:  # NumPy >= 1.25
    from numpy.exceptions import AxisError
except ImportError:  # pragma: no cover - NumPy 1.24
    from numpy import AxisError
