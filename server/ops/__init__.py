"""What an operator uses to run a server for months: metrics, moderation, the admin
endpoint (``metrics``, ``moderation``, ``admin``)."""
