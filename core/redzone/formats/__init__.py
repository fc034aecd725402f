"""The formats: scenario files in, the JSON outcome and serialised states out.

Built on :mod:`redzone.kernel`; imported by the front ends.
"""
