// The exception hierarchy of gpupy; each class maps 1:1 to a Python exception. Host only.
#pragma once

#include <stdexcept>
#include <string>

namespace gpupy {

/// Base of every gpupy error; maps to RuntimeError. Messages start with "[op] ".
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// Wrong dtype or wrong kind of argument (Python TypeError).
class TypeError : public Error {
 public:
  using Error::Error;
};
/// Right type, wrong value: shape mismatches, bad axes (Python ValueError).
class ValueError : public Error {
 public:
  using Error::Error;
};
/// Index out of range or malformed index (Python IndexError).
class IndexError : public Error {
 public:
  using Error::Error;
};
/// An axis out of range for an array's dimensions; Python numpy.exceptions.AxisError, which is
/// both an IndexError and a ValueError, so code written against NumPy catches it unchanged.
class AxisError : public IndexError {
 public:
  using IndexError::IndexError;
};
/// A value that does not fit its destination type (Python OverflowError).
class OverflowError : public Error {
 public:
  using Error::Error;
};
/// An operation that a backend or dtype does not implement yet (Python NotImplementedError).
class NotImplementedError : public Error {
 public:
  using Error::Error;
};
/// Allocation failure after the pool was flushed (Python MemoryError).
class MemoryError : public Error {
 public:
  using Error::Error;
};
/// A failing CUDA call or kernel (Python gpupy.cuda.CudaError, a RuntimeError).
class CudaError : public Error {
 public:
  using Error::Error;
};

/// Builds "[op] message".
inline std::string op_message(const char* op, const std::string& message) {
  return std::string("[") + op + "] " + message;
}

}  // namespace gpupy
