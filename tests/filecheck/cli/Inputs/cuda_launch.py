"""Load a .cu file with xz.cuda on the CPU and get a kernel; print the error, as the tests see it."""

import sys

import xenzyme as xz

try:
    xz.cuda.load(sys.argv[1], device="cpu").get_function(sys.argv[2])
    print("found", sys.argv[2])
except xz.XenzymeError as e:
    print(e.format("xz.cuda"))
