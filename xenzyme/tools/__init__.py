"""Small command-line helpers used by the test suites (LLVM's verifier, IR comparison); they
may import everything and nothing imports them."""
