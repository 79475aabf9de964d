"""The bindings of the UNO theorems: the engine against the encodings, over bounded
universes stated and counted in each binding."""
