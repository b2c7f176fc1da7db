"""The blueprints, one per feature: a view reads the request, calls the page model, and
answers. They import the other rooms, never each other (tests/web/test_web_layer.py)."""
