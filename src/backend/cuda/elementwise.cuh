// The elementwise kernels (contiguous and strided) and their launcher, one template for every
// functor of the op table; included by elementwise_part*.cu. Both compilers.
#pragma once

#include <type_traits>

#include "../../core/dispatch.h"
#include "../../functors/all.h"
#include "kernels.h"
#include "launch_util.h"

namespace gpupy::GPUPY_KERNEL_NS {

/// The inputs of one launch: array pointers, or scalar values passed by value (bit k of
/// `scalar_mask` set); the mask is uniform over the grid, so the branch costs nothing.
template <class T, int NIN>
struct EwInputs {
  const char* ptr[NIN];
  T value[NIN];
  int scalar_mask;
};

template <class F, class R, class T, int NIN>
__device__ inline R ew_apply(const T (&x)[NIN]) {
  if constexpr (NIN == 1)
    return F{}(x[0]);
  else if constexpr (NIN == 2)
    return F{}(x[0], x[1]);
  else
    return F{}(x[0], x[1], x[2]);
}

/// Element i of contiguous operands.
template <class F, class R, class T, int NIN>
__device__ inline void ew_contiguous_element(R* out, const EwInputs<T, NIN>& in, int64_t i) {
  T x[NIN];
  for (int k = 0; k < NIN; ++k)
    x[k] = (in.scalar_mask >> k & 1) ? in.value[k] : reinterpret_cast<const T*>(in.ptr[k])[i];
  out[i] = ew_apply<F, R, T, NIN>(x);
}

/// Every array operand C-contiguous over n elements.
template <class F, class R, class T, int NIN>
__global__ void ew_contiguous_kernel(R* out, EwInputs<T, NIN> in, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step)
    ew_contiguous_element<F, R, T, NIN>(out, in, i);
}

/// Bytes per thread and operand in one load or store of the vector kernel: 16 is the widest
/// global access (LDG.128), which keeps enough bytes in flight to saturate device bandwidth.
inline constexpr int kPacketBytes = 16;

/// `V` consecutive elements moved as one aligned word.
template <class T, int V>
struct alignas(sizeof(T) * V) Packet {
  T v[V];
};

/// Elements per packet for inputs T and results R: the wider of the two fills 16 bytes.
template <class T, class R>
inline constexpr int kPacketWidth = int(kPacketBytes /
                                        (sizeof(T) > sizeof(R) ? sizeof(T) : sizeof(R)));

/// Every array operand C-contiguous and aligned to its packet: thread p handles elements
/// [p*V, p*V + V) with one load per input and one store; the n % V elements after the last
/// whole packet go to the first threads of the grid.
template <class F, class R, class T, int NIN, int V>
__global__ void ew_packet_kernel(R* out, EwInputs<T, NIN> in, int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t packets = n / V;
  for (int64_t p = first; p < packets; p += step) {
    Packet<T, V> x[NIN];
    for (int k = 0; k < NIN; ++k) {
      if (in.scalar_mask >> k & 1) {
        for (int e = 0; e < V; ++e) x[k].v[e] = in.value[k];
      } else {
        x[k] = reinterpret_cast<const Packet<T, V>*>(in.ptr[k])[p];
      }
    }
    Packet<R, V> r;
    for (int e = 0; e < V; ++e) {
      T args[NIN];
      for (int k = 0; k < NIN; ++k) args[k] = x[k].v[e];
      r.v[e] = ew_apply<F, R, T, NIN>(args);
    }
    reinterpret_cast<Packet<R, V>*>(out)[p] = r;
  }
  if (const int64_t i = packets * V + first; i < n) ew_contiguous_element<F, R, T, NIN>(out, in, i);
}

/// True when `ptr` may be accessed as packets of `bytes` bytes.
inline bool packet_aligned(const void* ptr, size_t bytes) {
  return reinterpret_cast<uintptr_t>(ptr) % bytes == 0;
}

/// Any strides; operand 0 of `index` is the output, operand k + 1 is input k.
template <class F, class R, class T, class I, int NIN>
__global__ void ew_strided_kernel(char* out, EwInputs<T, NIN> in, StridedIndex<NIN + 1, I> index,
                                  int64_t n) {
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    I off[NIN + 1];
    index.offsets(static_cast<I>(i), off);
    T x[NIN];
    for (int k = 0; k < NIN; ++k)
      x[k] = (in.scalar_mask >> k & 1) ? in.value[k]
                                       : *reinterpret_cast<const T*>(in.ptr[k] + off[k + 1]);
    *reinterpret_cast<R*>(out + off[0]) = ew_apply<F, R, T, NIN>(x);
  }
}

/// Picks the contiguous or strided kernel (32- or 64-bit offsets) for one call.
template <class F, class R, class T, int NIN>
void ew_launch(const ElementwiseCall& call, Stream stream) {
  const Array& out = call.out;
  const int64_t n = out.size();
  if (n == 0) return;
  EwInputs<T, NIN> in{};
  const Strides zeros(out.ndim(), 0);
  std::array<const int64_t*, NIN + 1> strides{out.strides().data()};
  for (int k = 0; k < NIN; ++k) {
    const Operand& x = *call.inputs[k];
    if (x.is_array()) {
      in.ptr[k] = x.array().data();
      strides[k + 1] = x.array().strides().data();
    } else {
      x.scalar().store(call.in_dtype, &in.value[k]);
      in.scalar_mask |= 1 << k;
      strides[k + 1] = zeros.data();
    }
  }
  Layout<NIN + 1> layout(out.shape(), strides);
  bool contiguous = layout.ndim == 1 && layout.strides[0][0] == int64_t(sizeof(R));
  for (int k = 0; k < NIN; ++k)
    contiguous =
        contiguous && ((in.scalar_mask >> k & 1) || layout.strides[k + 1][0] == int64_t(sizeof(T)));
  const char* name = op_name(call.op);
  R* dst = reinterpret_cast<R*>(out.data());
  constexpr int V = kPacketWidth<T, R>;
  if constexpr (V > 1) {
    bool aligned = packet_aligned(dst, sizeof(Packet<R, V>));
    for (int k = 0; k < NIN; ++k)
      aligned =
          aligned && ((in.scalar_mask >> k & 1) || packet_aligned(in.ptr[k], sizeof(Packet<T, V>)));
    if (contiguous && aligned) {
      auto kernel = &ew_packet_kernel<F, R, T, NIN, V>;
      GPUPY_LAUNCH(kernel, grid_for((n + V - 1) / V), kBlockSize, 0, stream, dst, in, n);
      GPUPY_CHECK_LAUNCH(name);
      return;
    }
  }
  if (contiguous) {
    auto kernel = &ew_contiguous_kernel<F, R, T, NIN>;
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, dst, in, n);
  } else if (fits_int32(layout)) {
    auto kernel = &ew_strided_kernel<F, R, T, int32_t, NIN>;
    auto index = pack_index<int32_t>(layout, name);
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, out.data(), in, index, n);
  } else {
    auto kernel = &ew_strided_kernel<F, R, T, int64_t, NIN>;
    auto index = pack_index<int64_t>(layout, name);
    GPUPY_LAUNCH(kernel, grid_for(n), kBlockSize, 0, stream, out.data(), in, index, n);
  }
  GPUPY_CHECK_LAUNCH(name);
}

/// Dispatches the input dtype; dtypes the functor does not accept raise TypeError.
template <class F, int NIN>
void ew_run(const ElementwiseCall& call, Stream stream) {
  dispatch_dtype(call.in_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using G = fn::loop_functor_t<F, T>;
    if constexpr (NIN == 1 && std::is_invocable_v<G, T>) {
      ew_launch<G, std::invoke_result_t<G, T>, T, 1>(call, stream);
    } else if constexpr (NIN == 2 && std::is_invocable_v<G, T, T>) {
      ew_launch<G, std::invoke_result_t<G, T, T>, T, 2>(call, stream);
    } else if constexpr (NIN == 3 && std::is_invocable_v<G, T, T, T>) {
      ew_launch<G, std::invoke_result_t<G, T, T, T>, T, 3>(call, stream);
    } else {
      throw TypeError(op_message(op_name(call.op), "no " GPUPY_KERNEL_NS_NAME " loop for dtype " +
                                                       std::string(dtype_name(call.in_dtype))));
    }
  });
}

/// Table rows are split over kElementwiseParts translation units (row index modulo the count)
/// so that nvcc builds them in parallel.
inline constexpr int kElementwiseParts = 6;
void elementwise_part0(const ElementwiseCall& call, Stream stream);
void elementwise_part1(const ElementwiseCall& call, Stream stream);
void elementwise_part2(const ElementwiseCall& call, Stream stream);
void elementwise_part3(const ElementwiseCall& call, Stream stream);
void elementwise_part4(const ElementwiseCall& call, Stream stream);
void elementwise_part5(const ElementwiseCall& call, Stream stream);

}  // namespace gpupy::GPUPY_KERNEL_NS
