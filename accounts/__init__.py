"""Accounts: sign-up, log-in limits, password reset, player claims, language choice."""
