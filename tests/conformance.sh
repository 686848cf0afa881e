#!/bin/sh
# Conformance over ../shared/corpus (see tests/conformance.py).
exec python3 tests/conformance.py
