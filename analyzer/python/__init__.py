"""libcst frontend: Python sources -> the same facts the JavaScript frontend produces."""
