"""The server's edges: who may open or change a match, limits on abuse, security headers,
error pages, the database connection of a request, flashed notices, compression, and
the WSGI layers in front of Flask (unchanged polls, static assets)."""
