"""Rejection codes of invitations: stable once published."""

NO_INVITATION = "unknown_invitation"
ALREADY_CREATED = "invitation_exists"
INVALID = "invalid_invitation"
NOT_INVITED = "not_invited"
CANCELLED = "invitation_cancelled"
ALREADY_OPEN = "table_already_open"
NOT_READY = "invitation_pending"
#: A player has too many invitations waiting for answers (as host, or as an invitee).
TOO_MANY_PENDING = "too_many_invitations"
