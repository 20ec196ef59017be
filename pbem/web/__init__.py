"""Web layer: blueprints, error pages and response headers. Pages read games only through the service."""
