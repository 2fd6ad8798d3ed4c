"""bagm: army builder, roster validator and rules engine for Warhammer 40,000 Boarding Actions."""

__version__ = "0.1.0"
