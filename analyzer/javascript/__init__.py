"""tree-sitter frontend for JavaScript units."""
