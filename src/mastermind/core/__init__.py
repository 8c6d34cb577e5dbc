"""The game itself: rules, codes, feedback (the specification every kernel is tested against),
notation, decision trees and the plain records of them. Imports nothing of the layers above, and no
front-end library."""
