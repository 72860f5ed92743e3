-- Append one command's events to a game, atomically (one slot: hash-tagged keys).
-- KEYS: 1 events stream, 2 commands stream, 3 dedup hash, 4 meta hash, 5 partition feed,
--       6 the partition's fencing token (hash: token)
-- ARGV: 1 expected version, 2 command id, 3 command record, 4 game id,
--       5 the writer's lease token (0: a writer without a lease), 6.. event envelopes
-- Returns {status, first, last}: "appended" | "duplicate" (the first outcome) | "conflict"
-- | "fenced" (the partition's latest lease token in first and last).
local expected = tonumber(ARGV[1])
local command_id = ARGV[2]
-- First: a writer whose lease was taken over (paused past it, then resumed)
-- must neither write nor learn an outcome it would answer with. Only the
-- latest token writes: one above it was handed out by a taking this store
-- has lost (a failover), and the lease is someone else's again.
local token = tonumber(ARGV[5])
if token > 0 then
  local latest = tonumber(redis.call("HGET", KEYS[6], "token") or "0")
  if token ~= latest then
    return {"fenced", latest, latest}
  end
end
if command_id ~= "" then
  local seen = redis.call("HGET", KEYS[3], command_id)
  if seen then
    local sep = string.find(seen, ":", 1, true)
    return {"duplicate", tonumber(string.sub(seen, 1, sep - 1)), tonumber(string.sub(seen, sep + 1))}
  end
end
local current = tonumber(redis.call("HGET", KEYS[4], "version") or "0")
if current ~= expected then
  return {"conflict", current, current}
end
local n = #ARGV - 5
for i = 1, n do
  local v = expected + i
  -- The explicit id 0-<version> makes the stream itself refuse a stale writer.
  redis.call("XADD", KEYS[1], "0-" .. v, "e", ARGV[5 + i])
  redis.call("XADD", KEYS[5], "*", "g", ARGV[4], "v", v, "e", ARGV[5 + i])
end
local last = expected + n
if ARGV[3] ~= "" then
  redis.call("XADD", KEYS[2], "0-" .. (expected + 1), "c", ARGV[3])
end
redis.call("HSET", KEYS[4], "version", last)
if command_id ~= "" then
  redis.call("HSET", KEYS[3], command_id, (expected + 1) .. ":" .. last)
end
return {"appended", expected + 1, last}
