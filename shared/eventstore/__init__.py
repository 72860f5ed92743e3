"""The append-only event store on Redis Streams: the source of truth."""
