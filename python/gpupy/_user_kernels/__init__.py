"""CuPy-style user kernels on gpupy arrays: RawKernel, ElementwiseKernel and ReductionKernel,
built on the kernel layer's CudaKernel (NVRTC on cuda, the host compiler on emu)."""

from gpupy._user_kernels.elementwise import ElementwiseKernel
from gpupy._user_kernels.raw import RawKernel
from gpupy._user_kernels.reduction import ReductionKernel

__all__ = ["ElementwiseKernel", "RawKernel", "ReductionKernel"]
