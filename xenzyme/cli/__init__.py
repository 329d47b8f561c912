"""The `xenzyme-opt` command line: xDSL's xdsl-opt with xenzyme's dialects, passes, frontends
and targets.  At the top of the layers: it may import everything."""
