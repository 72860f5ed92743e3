-- A reducer's heartbeat, and the reducers alive (shared/messaging/leases.py counts them).
-- KEYS: 1 the heartbeats (sorted set: node -> when its heartbeat expires, server ms)
-- ARGV: 1 node, 2 TTL (ms; 0: this reducer leaves)
-- Returns the nodes whose heartbeat has not expired. The server's clock alone
-- judges expiry, so reducers on machines whose clocks disagree agree on it.
local now = redis.call("TIME")
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local ttl = tonumber(ARGV[2])
if ttl > 0 then
  redis.call("ZADD", KEYS[1], string.format("%.0f", now_ms + ttl), ARGV[1])
else
  redis.call("ZREM", KEYS[1], ARGV[1])
end
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", string.format("%.0f", now_ms))
return redis.call("ZRANGE", KEYS[1], 0, -1)
