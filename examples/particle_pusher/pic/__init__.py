"""A 1-D electrostatic particle-in-cell code written against gpupy.cunumpy."""
