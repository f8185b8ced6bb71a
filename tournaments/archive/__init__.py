"""The tournament archive: one tournament as one versioned JSON document, written on one
installation and read on another (README, "Run the event on a laptop, publish it
afterwards"; the format is ``tournament-archive.schema.json``).

``document`` writes it, ``validation`` reads and checks it (pure), ``writer`` recreates
the tournament in one transaction; ``sections`` is how other apps add their tables.
``identity`` says which tournament a document is (pure), ``copies`` whether this site holds
it already (then it is imported as an unrated copy, counted nowhere).
"""
