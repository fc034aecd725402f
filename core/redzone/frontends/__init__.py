"""The front ends: the command line and the human-readable account.

Built on :mod:`redzone.formats` and :mod:`redzone.kernel`.
"""
