"""Small helpers every layer uses: compiling hot loops, "did you mean", and the words
of counts and lists."""
