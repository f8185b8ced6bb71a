"""Every access decision: the roles and their predicates, and the gates by object."""
