"""Small command-line helpers used by the test suites."""
