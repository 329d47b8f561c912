"""The `xenzyme-opt` command line."""
