"""The games there are (``registry``): pure, over the engines' ``Game`` classes."""
