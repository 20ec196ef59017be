"""The host's pages: sign in by emailed link, the dashboard, a new game, one game, its actions.

Every POST carries the session's CSRF token and a confirmation (`confirm=yes`, a checkbox or the confirm
step's button); nothing changes on GET. A host sees only their games (an admin every game) and, while a
game runs, only its public view: the host may be a player.
"""

from pbem.web.host.views import blueprint

__all__ = ["blueprint"]
