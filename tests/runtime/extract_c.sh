#!/bin/sh
# The one C block of a markdown file ($1, from "```c" to "```") into $2: docs' examples, compiled.
sed -n '/^```c$/,/^```$/p' "$1" | sed '1d;$d' >"$2.tmp" && [ -s "$2.tmp" ] && mv "$2.tmp" "$2"
