#!/bin/sh
# The golden-config suite: every policy's decision on every suite point must match the pinned files.
exec "$1" golden check
