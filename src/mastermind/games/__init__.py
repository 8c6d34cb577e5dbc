"""Games and matches as players live them. Every rule of play (whose turn it
is, what a guess may be, when the game ends, what a match scores) is decided here, once, for every
front end."""
