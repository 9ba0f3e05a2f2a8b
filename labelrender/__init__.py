"""labelrender: ZPL label rendering engine and service."""

__version__ = "0.1.0"
