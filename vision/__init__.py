"""Vision: a numpy image goes in, readings come out. No threads, no files, no Flask."""
