# SPDX-License-Identifier: BSD-3-Clause
"""The back ends of the dctx library (its back-end registry)."""

from . import _dctx

__all__ = ["backends"]


def backends():
    """List the back ends dctx knows of, and whether each can run here.

    One entry per back end (``dctx::backends()`` of the C++ library), in a fixed order: those
    compiled into this build, and the others with ``built=False`` and the reason.

    Returns
    -------
    list of dict
        One dict per back end with the keys

        ``name`` : str
            ``"cpu"``, ``"cuda"`` or ``"opencl"``: the spelling ``Plan(..., backend=...)``
            takes.
        ``built`` : bool
            Compiled into this build of dctx.
        ``usable`` : bool
            Built, and able to run on this machine.
        ``reason`` : str
            Why it is not usable (``"not built: ..."``, ``"no CUDA device"``, ...); empty when
            usable.
        ``description`` : str
            What it runs on when usable (the CPU's SIMD target and thread count, a device
            name); empty otherwise.
        ``host_memory`` : bool
            Whether it executes on host memory directly (no copies to a device).

    Examples
    --------
    >>> import dctx
    >>> [b["name"] for b in dctx.backends() if b["usable"]]  # doctest: +SKIP
    ['cpu']
    """
    return _dctx._backends()
