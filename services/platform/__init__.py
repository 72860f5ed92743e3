"""The platform process: the single writer of tournament streams and the
process manager that turns finished games into results and rounds into
tables; the player process (account seats, turn notices, ladders); the arena
runner; the runner that plays bot seats through the public API."""
