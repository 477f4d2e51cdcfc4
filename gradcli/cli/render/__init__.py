"""The renderers: results as rich tables, plain text and JSON."""
