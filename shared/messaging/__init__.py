"""What the services say to each other over the broker."""
