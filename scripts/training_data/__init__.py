"""Builds the scanner classifier's training data (training/*.jsonl) from public snapshots.

Run from the repository root: ``python3 -m scripts.training_data --mirror /work/.mirror``.
Each reader takes a bare git directory of one fetched repository and yields items that
name their source; ``build`` de-duplicates, caps each source's share and writes the files.
"""
