"""Report writers: every writer takes the scan and returns {file name: bytes}."""
