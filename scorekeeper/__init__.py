"""Scorekeeper: scores and referees four small trick-taking games at a real table."""
