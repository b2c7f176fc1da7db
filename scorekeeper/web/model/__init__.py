"""The page model: one request's match and what its pages show (the match loaded once,
its replay, the seat picture, the chart, presentation helpers), and the services a view
calls to change a match (writes, a hand entry). No blueprint, no request parsing here."""
