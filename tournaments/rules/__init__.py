"""The tournament's rules, pure: what a match result is (``result``) and what its numbers
mean in each game (``scales``), the round lifecycle (``lifecycle``) and the round timer
(``timer``). No Django imports (``tests/tournaments/rules/test_pure.py`` checks it in a fresh
interpreter): their messages are English catalogue keys with their values (``messages``),
translated where they are shown (``tournaments.models.wording``)."""
