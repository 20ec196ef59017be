"""Table talk: the chat, its unread lines, and replies by email turned into chat."""
