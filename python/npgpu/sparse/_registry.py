"""(format, is_array) -> class, filled in as the format modules are imported."""
CLASSES = {}
