"""The colour-shape world shared by the toy chapter, the TRE languages and the reference game.

One list of colours and one of shapes, in one order: a part that needs ``k`` colours takes the
first ``k``.
"""

COLOURS = ("red", "green", "blue", "yellow", "purple", "orange", "black", "white", "pink",
           "brown", "grey", "cyan")
SHAPES = ("circle", "square", "triangle", "star", "cross", "heart", "moon", "diamond",
          "hexagon", "arrow", "ring", "oval")
