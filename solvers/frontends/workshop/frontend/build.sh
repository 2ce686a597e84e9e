#!/bin/sh
# Rebuild ../static/editor.js from src/editor.js with the exact versions of
# package-lock.json. Only needed when the editor changes: the built file is committed,
# so installing trailkit needs no npm.
set -e
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npm run build
