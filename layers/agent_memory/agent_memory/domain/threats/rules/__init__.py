"""The threat rule families, one readable module each (``scanner`` puts them in order).

Each module holds ``ThreatRule`` values with their reason codes, examples and
counterexamples; ``instructions`` explains how the phrase rules read.
"""
