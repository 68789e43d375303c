"""Measured chat quality: the question set, its machine checks and the harness."""
