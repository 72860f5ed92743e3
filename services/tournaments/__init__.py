"""The tournament service: the single writer of tournament streams, the process
manager that turns finished games into results and rounds into tables, and
the runner that plays the bot entrants' seats through the public API."""
