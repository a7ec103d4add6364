"""Scripted strategies, one module per strategy; see README.md in this folder."""
