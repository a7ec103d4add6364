"""nesim: simulate and analyse the National Economy card games (Progress, Mecenat, Glory)."""

__version__ = "0.1.0"
