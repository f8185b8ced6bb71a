"""Glicko-2 ratings, pure Python: no Django, no clock, nothing of the project's apps.

* :mod:`ratings.glicko2`: one player's rating period, as in Glickman's paper.
* :mod:`ratings.periods`: the fold of rated rounds and casual matches, in order, into each
  player's values and history; the provisional rule and the "1520?" display.
* ``python -m ratings glicko2`` (:mod:`ratings.cli`): one period, JSON in and out.

The adapter that loads rated results from the database, and the pages, sit outside.
"""
