"""Evaluation harness: dataset loaders, metrics, graph health and reports."""
