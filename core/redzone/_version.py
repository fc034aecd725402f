"""The version of redzone: written here once; the package metadata reads it."""

__version__ = "0.1.0"
