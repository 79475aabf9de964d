"""The UNO rules as Z3 terms: no module here imports a binding or a theorem, nor the
engine function it is compared with."""
