"""The book's colours, named without importing matplotlib (:mod:`tutorlib.plotting`, which
draws, re-exports them): Okabe & Ito's colour-blind-safe palette, and pale tints of three of
its colours for the fill of a box whose edge has the full colour."""

#: Okabe & Ito's palette, in the order figures cycle through it: blue, orange, bluish green,
#: vermillion, reddish purple, sky blue, yellow, black.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]

#: A palette colour -> its pale tint (blue, orange and vermillion).
TINTS = {PALETTE[0]: "#E8F1FA", PALETTE[1]: "#FDF0D9", PALETTE[3]: "#FBE3CC"}
