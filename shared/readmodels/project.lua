-- Write one game's read models and its checkpoint together, and acknowledge
-- the feed entries they came from, atomically (one slot: hash-tagged keys).
-- KEYS: 1 checkpoint, 2 partition feed, 3 the partition's live set of the game's
--       kind, 4 the partition's ready marker, 5..4+V view keys, then feed keys
-- ARGV: 1 version, 2 V, 3 consumer group, 4 A, 5 game id, 6 "1" live / "0" over
--       ("" leaves the live set alone), 7 "1" to require the ready marker,
--       8 the version the feeds continue from (their entries up to it written
--       before; 0 for models built from the whole log),
--       9..8+A feed entry ids to acknowledge, then V view documents, then
--       triples (feed key index, version, entry)
-- A version at or below the checkpoint was projected before: nothing is written twice.
-- Answers 1 written, 0 already there, -1 nothing done: the marker is missing
-- (a read-model server restarted empty; the models must be rebuilt first),
-- -2 nothing done: the checkpoint is below the version the feeds continue
-- from. A failover lost models the caller wrote; written over them, the views
-- would be right and the feeds would lack those versions for good.
local version = tonumber(ARGV[1])
local views = tonumber(ARGV[2])
local acks = tonumber(ARGV[4])
if ARGV[7] == "1" and redis.call("EXISTS", KEYS[4]) == 0 then
  return -1
end
local checkpoint = tonumber(redis.call("GET", KEYS[1]) or "0")
if checkpoint < tonumber(ARGV[8]) then
  return -2
end
if acks > 0 then
  redis.call("XACK", KEYS[2], ARGV[3], unpack(ARGV, 9, 8 + acks))
end
if checkpoint >= version then
  return 0
end
-- The live sets count the tables being played from the store itself (the
-- gateway's watch reads their sizes); only the newest version decides.
if ARGV[6] == "1" then
  redis.call("SADD", KEYS[3], ARGV[5])
elseif ARGV[6] == "0" then
  redis.call("SREM", KEYS[3], ARGV[5])
end
local first = 9 + acks
for i = 1, views do
  redis.call("SET", KEYS[4 + i], ARGV[first + i - 1])
end
local i = first + views
while i <= #ARGV do
  local v = tonumber(ARGV[i + 1])
  if v > checkpoint then
    redis.call("XADD", KEYS[tonumber(ARGV[i])], "0-" .. v, "e", ARGV[i + 2])
  end
  i = i + 3
end
redis.call("SET", KEYS[1], version)
return 1
