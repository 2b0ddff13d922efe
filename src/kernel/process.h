// Runs the host compiler as a child process without a shell. Host only.
#pragma once

#include <string>
#include <vector>

namespace gpupy::kernel::detail {

struct ProcessResult {
  bool started = false;  ///< false when the program could not be run (output says why)
  int exit_code = -1;    ///< the exit status, or -1 when killed by a signal
  std::string output;    ///< stdout and stderr together
};

/// Runs argv[0] (searched on PATH) with argv, capturing stdout and stderr.
ProcessResult run_process(const std::vector<std::string>& argv);

}  // namespace gpupy::kernel::detail
