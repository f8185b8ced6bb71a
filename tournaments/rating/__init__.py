"""The site's ratings: the ORM adapter around the pure Glicko-2 fold (``ratings/``).

``sources`` reads the rated results (finished rounds of rated tournaments, rated casual
matches offered by other apps) as periods; ``update`` folds them into the stored values and
history; ``reads`` loads what the pages show.
"""
