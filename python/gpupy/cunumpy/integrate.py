"""`xp.integrate`: quad and odeint run SciPy on the host, with callbacks that may compute on the
device and, for odeint, the solution on the backend of y0 (see _scipy_host)."""

from gpupy.cunumpy._scipy_host import odeint, quad

__all__ = ["odeint", "quad"]
