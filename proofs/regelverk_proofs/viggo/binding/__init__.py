"""The bindings of the Viggo theorems: the engine against the encodings, over bounded
universes stated and counted in each binding."""
